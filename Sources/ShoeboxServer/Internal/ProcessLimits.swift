import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Limits of the serving process.
enum ProcessLimits {
    /// Raises the soft limit on open files to the hard limit (often 1,024 against 524,288): every
    /// connection is a descriptor, and a thousand idle ones must not leave none for the user's
    /// requests, the catalog and the files served.
    static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
