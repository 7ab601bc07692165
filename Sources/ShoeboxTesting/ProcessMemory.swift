import Foundation

/// A running process's resident memory as Linux reports it in `/proc/PID/status`, and its peak
/// started again: how the memory checks watch `shoebox serve` from outside.
///
/// ```swift
/// try ProcessMemory.resetPeak(of: pid)
/// … upload …
/// let peak = try ProcessMemory.bytes("VmHWM", of: pid)
/// ```
public enum ProcessMemory {
    /// A field of `/proc/PID/status` in bytes: `VmRSS` (resident now), `VmHWM` (the peak).
    public static func bytes(_ field: String, of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
            let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap({ Int($0) })
        else {
            throw ChildProcess.Failure("no \(field) in /proc/\(pid)/status")
        }
        return kilobytes * 1_024
    }

    /// Starts the peak (`VmHWM`) again from the resident set now (`5` to `/proc/PID/clear_refs`).
    public static func resetPeak(of pid: Int32) throws {
        try "5".write(toFile: "/proc/\(pid)/clear_refs", atomically: false, encoding: .utf8)
    }
}
