import Foundation

/// CPU time a process and its direct children have used (user + system, from `/proc/PID/stat`),
/// so a benchmark can charge a server (nginx's master and its workers, or one `shoebox serve`)
/// for what it spent on a run.
enum ProcessCPU {
    /// Seconds of CPU `pid` and the processes whose parent it is have used so far.
    static func seconds(ofTree pid: Int32) -> Double {
        var ticks = 0
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let candidate = Int32(entry), let fields = statFields(candidate) else { continue }
            // Fields after the command's closing parenthesis: state is 0, ppid 1, utime 11, stime 12.
            guard candidate == pid || Int32(fields[1]) == pid, fields.count > 12 else { continue }
            ticks += (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
        }
        return Double(ticks) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The fields of `/proc/PID/stat` after the command name (which may hold spaces).
    private static func statFields(_ pid: Int32) -> [Substring]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }
}
