import Foundation
internal import Subprocess

#if canImport(Glibc)
    import Glibc
#endif

/// One ffmpeg run writing one output file: progress from `-progress pipe:1`, the output written to
/// a temporary name and renamed into place, removed on failure or cancellation.
struct FFmpegJob: Sendable {
    /// Everything after the global options and before the output: inputs, maps, codecs, filters.
    let arguments: [String]
    /// The muxer (`mp4`, `webm`, …), given explicitly since the temporary name has no usable extension.
    let muxer: String
    let destination: URL
    let expectedDuration: Double
    let usedStreamCopy: Bool
    /// Describes the written file without launching ffprobe, when the job knows enough (a stream
    /// copy into MP4/MOV); `nil` from it, or no closure, means probe.
    var describe: (@Sendable (URL) -> MovieInfo?)? = nil

    func run(progress: @Sendable (MovieExport.Progress) -> Void) async throws(MediaError) -> MovieExport.Result {
        let directory = destination.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .io(path: directory.path, reason: "the output folder does not exist")
        }
        let temporary = directory.appendingPathComponent(".\(destination.lastPathComponent).partial-\(UUID().uuidString)")
        var kept = false
        defer { if !kept { try? FileManager.default.removeItem(at: temporary) } }

        let full =
            ["-hide_banner", "-nostdin", "-v", "error", "-y", "-progress", "pipe:1", "-nostats"]
            + arguments + ["-f", muxer, FFmpeg.fileArgument(temporary)]
        let total = expectedDuration
        let status: Int32
        let errorText: String
        do {
            let result = try await Subprocess.run(
                FFmpeg.executable(FFmpeg.ffmpegName), arguments: Arguments(full),
                input: .none, output: .sequence, error: .string(limit: 1 << 20)
            ) { execution in
                // Throwing from here makes Subprocess kill ffmpeg and wait for it to exit, so no
                // write can land after the partial file is removed.
                try Task.checkCancellation()
                for try await line in execution.standardOutput.strings() {
                    try Task.checkCancellation()
                    let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
                    if trimmed.hasPrefix("out_time_us="), let micro = Double(trimmed.dropFirst(12)), micro >= 0 {
                        progress(MovieExport.Progress(processedSeconds: micro / 1_000_000, totalSeconds: total))
                    } else if trimmed == "progress=end" {
                        progress(MovieExport.Progress(processedSeconds: total, totalSeconds: total))
                    }
                }
                try Task.checkCancellation()
            }
            status = result.terminationStatus.code
            errorText = result.standardError
        } catch let error as SubprocessError where error.code == .executableNotFound {
            throw .toolMissing(FFmpeg.ffmpegName)
        } catch {
            if Task.isCancelled || error is CancellationError { throw .cancelled }
            throw .processFailed(tool: "ffmpeg", status: -1, message: "\(error)")
        }
        if Task.isCancelled { throw .cancelled }
        guard status == 0 else {
            let line = FFmpeg.lastLine(errorText)
            let lowered = line.lowercased()
            if lowered.contains("invalid data") || lowered.contains("moov atom") || lowered.contains("error while decoding") {
                throw .corrupt(reason: line)
            }
            throw .processFailed(tool: "ffmpeg", status: status, message: line)
        }
        let info: MovieInfo
        if let described = describe?(temporary) {
            info = described
        } else {
            info = try await MovieInfo(contentsOf: temporary)
        }
        // ffmpeg ends quietly, with status 0, when its input's media stop early (a damaged file
        // whose index promised more): a result much shorter than expected is that damage.
        if expectedDuration > 1, info.duration < expectedDuration - max(0.5, expectedDuration * 0.05) {
            throw .corrupt(
                reason: String(format: "the movie ended after %.2f s of the %.2f s it claims: it is damaged or truncated", info.duration, expectedDuration))
        }
        // rename(2) replaces an existing file atomically: readers see the old movie or the new one.
        guard rename(temporary.path, destination.path) == 0 else {
            throw .io(path: destination.path, reason: String(cString: strerror(errno)))
        }
        kept = true
        return MovieExport.Result(url: destination, info: info, usedStreamCopy: usedStreamCopy)
    }
}
