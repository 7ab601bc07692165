import Foundation
import ShoeboxSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads the first bytes of a file with plain POSIX calls, so that every failure has its errno.
///
/// Only regular files are accepted: a FIFO or a device would block or never end.
enum FileProbe {
    static func readPrefix(of path: String, count: Int) throws(ImageError) -> [UInt8] {
        BlockingCheck.note("a file read")
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw .io(path: path, underlying: posixError())
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .io(path: path, underlying: posixError())
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            let kind = (status.st_mode & S_IFMT) == S_IFDIR ? "a directory" : "not a regular file"
            throw .io(path: path, underlying: POSIXFileError(.EINVAL, message: "is \(kind)"))
        }
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let result = buffer.withUnsafeMutableBytes { bytes in
                read(descriptor, bytes.baseAddress! + filled, count - filled)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, underlying: posixError())
            }
            if result == 0 { break }
            filled += result
        }
        return Array(buffer.prefix(filled))
    }

    private static func posixError() -> POSIXFileError {
        let code = POSIXErrorCode(rawValue: errno) ?? .EIO
        return POSIXFileError(code, message: String(cString: strerror(code.rawValue)))
    }
}

/// A POSIX error with its text, for ``ImageError/Code/io``.
public struct POSIXFileError: Error, Sendable, CustomStringConvertible {
    /// The errno value.
    public let code: POSIXErrorCode
    /// A readable description, e.g. "No such file or directory".
    public let message: String

    /// Creates an error with its errno code and text.
    public init(_ code: POSIXErrorCode, message: String) {
        self.code = code
        self.message = message
    }

    /// The ``message``: `strerror`'s text for ``code``, or what was wrong with the path ("is a
    /// directory").
    public var description: String { message }
}
