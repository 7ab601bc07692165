import Foundation
internal import Subprocess

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// Runs `ffprobe` and `ffmpeg` as subprocesses: never through a shell, inputs and outputs passed
/// as `file:` URLs of absolute paths, so no argument can be mistaken for an option or a protocol.
enum FFmpeg {
    static let probeName = ProcessInfo.processInfo.environment["SHOEBOX_FFPROBE"] ?? "ffprobe"
    static let ffmpegName = ProcessInfo.processInfo.environment["SHOEBOX_FFMPEG"] ?? "ffmpeg"

    /// `file:/absolute/path`: ffmpeg reads it as a plain file whatever its name looks like.
    static func fileArgument(_ url: URL) -> String {
        "file:" + url.standardizedFileURL.path
    }

    /// Options put in front of every input: no network or other protocols, no stdin.
    static let safeInputOptions = ["-protocol_whitelist", "file,pipe"]

    static func executable(_ name: String) -> Executable {
        name.hasPrefix("/") ? .path(FilePath(name)) : .name(name)
    }

    /// Runs a tool to completion and collects its output.
    static func collect(_ tool: String, _ arguments: [String], outputLimit: Int = 64 << 20) async throws(MediaError) -> (
        status: Int32, output: Data, error: String
    ) {
        do {
            let result = try await Subprocess.run(
                executable(tool), arguments: Arguments(arguments),
                output: .data(limit: outputLimit), error: .string(limit: 1 << 20))
            return (result.terminationStatus.code, result.standardOutput, result.standardError)
        } catch let error as SubprocessError where error.code == .executableNotFound {
            throw .toolMissing(tool)
        } catch is CancellationError {
            throw .cancelled
        } catch {
            if Task.isCancelled { throw .cancelled }
            throw .processFailed(tool: tool, status: -1, message: "\(error)")
        }
    }

    /// The last meaningful line of a tool's error output.
    static func lastLine(_ text: String) -> String {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return lines.last ?? "no detail"
    }
}

extension TerminationStatus {
    /// The exit code, or 128 + the signal.
    var code: Int32 {
        switch self {
        case .exited(let code): Int32(code)
        case .signaled(let signal): 128 + Int32(signal)
        }
    }
}
