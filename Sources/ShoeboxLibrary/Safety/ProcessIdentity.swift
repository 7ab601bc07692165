import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Who holds a blob claim: a process on a host, told apart from a later process that reuses its
/// pid by the kernel's start time. Claims of processes that are gone are stale, which is how a
/// library tells a crash's leftovers from work in flight (as SQLite tells a hot journal by the
/// lock nobody holds).
struct ProcessIdentity: Sendable, Hashable, CustomStringConvertible {
    let host: String
    let pid: Int32
    /// The process's start time in clock ticks since boot (`/proc/PID/stat`, field 22).
    let startTime: UInt64

    /// This process.
    static let current = ProcessIdentity(host: Self.hostName(), pid: getpid(), startTime: Self.startTime(of: getpid()) ?? 0)

    /// `host/pid/start`.
    var description: String { "\(host)/\(pid)/\(startTime)" }

    init(host: String, pid: Int32, startTime: UInt64) {
        self.host = host
        self.pid = pid
        self.startTime = startTime
    }

    /// Parses ``description``; `nil` for anything else.
    init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let pid = Int32(parts[1]), let start = UInt64(parts[2]) else { return nil }
        self.init(host: String(parts[0]), pid: pid, startTime: start)
    }

    /// Whether the process may still be running: `false` only when it is on this host and gone
    /// (no such pid, or the pid now belongs to a process that started at another time). A process
    /// on another host is presumed alive; its claim's expiry decides for it.
    var mayBeAlive: Bool {
        guard host == Self.current.host else { return true }
        if pid == Self.current.pid { return startTime == Self.current.startTime }
        guard let start = Self.startTime(of: pid) else { return false }
        return start == startTime
    }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(cString: buffer)
        return name.isEmpty ? "localhost" : name.replacingOccurrences(of: "/", with: "_")
    }

    /// Field 22 of `/proc/PID/stat` (after the parenthesised command name, which may hold spaces).
    static func startTime(of pid: Int32) -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3), so field 22 is fields[19].
        guard fields.count > 19 else { return nil }
        return UInt64(fields[19])
    }
}
