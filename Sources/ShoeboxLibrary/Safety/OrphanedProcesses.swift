import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Programs a dead process started and left running: an `ffmpeg` whose worker was SIGKILLed
/// keeps transcoding into a temporary file nobody will use, holding a core for minutes. The
/// process that finds the dead writer's temporaries stops them too.
enum OrphanedProcesses {
    /// Stops (SIGKILL) every process of this machine whose arguments name a file in `folder`
    /// whose name carries `tag`, the dead writer's `p<pid>-<start>` (see
    /// `DerivativeStore.writerTag`). The tag holds the writer's start time, so it names one
    /// process that ever lived: whatever still writes such a file is that process's orphan.
    ///
    /// - Returns: How many were stopped.
    @discardableResult
    static func stop(writingInto folder: URL, tag: String) -> Int {
        let prefix = folder.standardizedFileURL.path + "/."
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return 0 }
        var stopped = 0
        for entry in entries {
            guard let pid = Int32(entry), pid != getpid(),
                let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"), !data.isEmpty
            else { continue }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            let writes = arguments.contains { argument in
                // `file:` is how the media module names paths to ffmpeg.
                let path = argument.hasPrefix("file:") ? String(argument.dropFirst(5)) : argument
                return path.hasPrefix(prefix) && path.dropFirst(prefix.count).contains(tag)
            }
            if writes, kill(pid, SIGKILL) == 0 { stopped += 1 }
        }
        return stopped
    }
}
