import ArgumentParser
import Foundation
import ShoeboxImaging
import ShoeboxMedia

struct Video: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Probe, grab frames from, trim and transcode movies (with ffprobe and ffmpeg).",
        subcommands: [VideoInfo.self, VideoPoster.self, VideoTrim.self, VideoTranscode.self]
    )
}

/// Prints a movie failure as one line, or as `{"error": {code, message}}` with --json, and exits 1.
func failVideo(_ error: MediaError, file: String, json: Bool) throws -> Never {
    if json {
        let object = ["path": file, "error": ["code": error.code.rawValue, "message": error.message]] as [String: Any]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        print(String(decoding: data, as: UTF8.self))
    } else {
        Terminal.standardError("error: \(file): \(error.message)")
    }
    throw ExitCode.failure
}

/// JSON for a probed movie, as `video info --json` prints it.
struct MovieRecord: Encodable {
    let path: String
    let container: String
    let duration: Double
    let pixelWidth: Int
    let pixelHeight: Int
    let displayWidth: Int
    let displayHeight: Int
    let rotation: Int
    let frameRate: Double?
    let videoCodec: String
    let audioCodec: String?
    let creationDate: String?
    let latitude: Double?
    let longitude: Double?
    let altitude: Double?
    let bitRate: Int?
    let uniformTypeIdentifier: String
    let compatible: Bool
    let incompatibilityReason: String?
    let playsInBrowsers: Bool

    init(path: String, info: MovieInfo, compatibility: VideoCompatibility) {
        self.path = path
        container = info.container
        uniformTypeIdentifier = info.uniformType.identifier
        duration = info.duration
        pixelWidth = info.storedPixelSize.width
        pixelHeight = info.storedPixelSize.height
        displayWidth = info.pixelSize.width
        displayHeight = info.pixelSize.height
        rotation = info.rotation
        frameRate = info.frameRate
        videoCodec = info.videoCodec
        audioCodec = info.audioCodec
        creationDate = info.creationDate.map { ISO8601DateFormatter().string(from: $0) }
        latitude = info.latitude
        longitude = info.longitude
        altitude = info.altitude
        bitRate = info.bitRate
        compatible = compatibility.isCompatible
        incompatibilityReason = compatibility.reason
        playsInBrowsers = Movie.playsInBrowsers(info)
    }

    /// Every key, `null` when unknown (scripts can rely on the keys being there).
    func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: CodingKeys.self)
        try keyed.encode(path, forKey: .path)
        try keyed.encode(container, forKey: .container)
        try keyed.encode(uniformTypeIdentifier, forKey: .uniformTypeIdentifier)
        try keyed.encode(duration, forKey: .duration)
        try keyed.encode(pixelWidth, forKey: .pixelWidth)
        try keyed.encode(pixelHeight, forKey: .pixelHeight)
        try keyed.encode(displayWidth, forKey: .displayWidth)
        try keyed.encode(displayHeight, forKey: .displayHeight)
        try keyed.encode(rotation, forKey: .rotation)
        try keyed.encode(frameRate, forKey: .frameRate)
        try keyed.encode(videoCodec, forKey: .videoCodec)
        try keyed.encode(audioCodec, forKey: .audioCodec)
        try keyed.encode(creationDate, forKey: .creationDate)
        try keyed.encode(latitude, forKey: .latitude)
        try keyed.encode(longitude, forKey: .longitude)
        try keyed.encode(altitude, forKey: .altitude)
        try keyed.encode(bitRate, forKey: .bitRate)
        try keyed.encode(compatible, forKey: .compatible)
        try keyed.encode(incompatibilityReason, forKey: .incompatibilityReason)
        try keyed.encode(playsInBrowsers, forKey: .playsInBrowsers)
    }

    private enum CodingKeys: String, CodingKey {
        case path, container, duration, pixelWidth, pixelHeight, displayWidth, displayHeight, rotation, frameRate, videoCodec, audioCodec
        case creationDate, latitude, longitude, altitude, bitRate, compatible, incompatibilityReason, playsInBrowsers
        case uniformTypeIdentifier
    }

    func printJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(self), as: UTF8.self))
    }
}

struct VideoInfo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print a movie's container, duration, size, rotation, codecs, date and place.",
        discussion: """
            pixelWidth and pixelHeight are the size as stored; displayWidth and displayHeight apply \
            the rotation (the display-matrix angle in degrees, as ffprobe prints it). \
            compatible tells whether the library keeps it (its first frame decodes; \
            incompatibilityReason says why not); playsInBrowsers whether browsers play it as it is \
            (H.264 with AAC or no sound in MP4 or MOV) — the library gives any other movie an \
            H.264 playback rendition.
            """
    )

    @Argument(help: "The movie.", completion: .file())
    var file: String

    @Flag(help: "Print a JSON object.")
    var json = false

    func run() async throws {
        let info: MovieInfo
        do {
            info = try await MovieInfo(contentsOf: URL(fileURLWithPath: file))
        } catch {
            try failVideo(error, file: file, json: json)
        }
        let compatibility = await Movie.compatibility(of: info, at: URL(fileURLWithPath: file))
        let record = MovieRecord(path: file, info: info, compatibility: compatibility)
        if json {
            try record.printJSON()
            return
        }
        var parts = [
            "\(info.container) \(String(format: "%.3f", info.duration)) s",
            "\(info.pixelSize.width)×\(info.pixelSize.height)"
                + (info.rotation != 0 ? " (stored \(info.storedPixelSize.width)×\(info.storedPixelSize.height), rotation \(info.rotation))" : ""),
            info.videoCodec + (info.audioCodec.map { "+" + $0 } ?? " (no audio)"),
        ]
        if let rate = info.frameRate { parts.append(String(format: "%.3g fps", rate)) }
        if let date = record.creationDate { parts.append(date) }
        if let latitude = info.latitude, let longitude = info.longitude { parts.append(String(format: "%.5f, %.5f", latitude, longitude)) }
        if let reason = record.incompatibilityReason { parts.append("not compatible: \(reason)") }
        if record.compatible, !record.playsInBrowsers { parts.append("browsers play a rendition") }
        print("\(file): " + parts.joined(separator: ", "))
    }
}

struct VideoPoster: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poster",
        abstract: "Write one upright frame of a movie as an image."
    )

    @Argument(help: "The movie.", completion: .file())
    var file: String

    @Option(help: "Seconds from the start, before the movie's end (default: 10 % in); a time at or past the end is an error.")
    var time: Double?

    @Option(help: "Scale to fit inside N×N pixels.")
    var size: Int?

    @Option(name: .shortAndLong, help: "The image to write (format from the extension: jpg, png, webp, heic).", completion: .file())
    var output: String

    @Flag(help: "Print {\"path\", \"time\", \"pixelWidth\", \"pixelHeight\"} as JSON (errors as {\"error\": {code, message}}).")
    var json = false

    struct Written: Encodable {
        let path: String
        let time: Double
        let pixelWidth: Int
        let pixelHeight: Int
    }

    func validate() throws {
        if let time { guard time.isFinite, time >= 0 else { throw ValidationError("--time must be 0 or more seconds") } }
        if let size { guard size > 0 else { throw ValidationError("--size must be positive") } }
    }

    func run() async throws {
        do {
            let movie = try await Movie(contentsOf: URL(fileURLWithPath: file))
            // The library falls back to the first frame (a poster must exist); a person who named a
            // time past the end has it wrong, and is told the clip's length.
            if let time, movie.info.duration > 0, time >= movie.info.duration {
                throw MediaError.invalidArgument(
                    String(format: "--time %g s is past the end of the movie, which is %.1f s long", time, movie.info.duration))
            }
            var image = try await movie.posterFrame(at: time)
            if let size {
                image = try image.thumbnail(targetSize: .init(square: size))
            }
            try image.write(to: URL(fileURLWithPath: output))
            if json {
                try JSONOutput.print(
                    Written(path: output, time: time ?? movie.info.duration * 0.1, pixelWidth: image.pixelWidth, pixelHeight: image.pixelHeight))
            } else {
                print("\(output): \(image.pixelWidth)×\(image.pixelHeight)")
            }
        } catch let error as MediaError {
            try failVideo(error, file: file, json: json)
        } catch let error as ImageError {
            try failVideo(.invalidArgument("\(output): \(error.message)"), file: file, json: json)
        }
    }
}

struct VideoTrim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trim",
        abstract: "Cut a clip out of a movie: stream copy when the cut allows it, else re-encode.",
        discussion: """
            The container comes from the output's extension (.mp4, .mov, .webm, .mkv). A --start \
            at or past the movie's end is an error (exit 1); an --end past it is moved to the end, \
            with a note on standard error.
            """
    )

    @Argument(help: "The movie.", completion: .file())
    var file: String

    @Option(help: "Start, in seconds.")
    var start: Double = 0

    @Option(help: "End, in seconds (default: the end).")
    var end: Double?

    @Option(help: "Refuse clips longer than this many seconds (the picker's videoMaximumDuration).")
    var maxDuration: Double?

    @Option(help: "Re-encode to a preset: \(VideoQuality.allCases.map(\.rawValue).joined(separator: ", ")).")
    var quality: VideoQuality?

    @Option(name: .shortAndLong, help: "Where to write the clip.", completion: .file())
    var output: String

    @Flag(help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        guard start.isFinite, start >= 0 else { throw ValidationError("--start must be a number of seconds, 0 or more") }
        if let end {
            guard end.isFinite, end > start else { throw ValidationError("--end must come after --start (\(start) s)") }
        }
        if let maxDuration { guard maxDuration.isFinite, maxDuration > 0 else { throw ValidationError("--max-duration must be positive") } }
    }

    func run() async throws {
        try await runExport(file: file, json: json) { movie in
            // A start past the end makes an empty range: the trim refuses it with a typed error.
            if let end = self.end, end > movie.info.duration, start < movie.info.duration {
                Terminal.standardError(String(format: "note: --end %g s is past the movie's end (%.3f s): the clip ends there", end, movie.info.duration))
            }
            let end = self.end ?? max(movie.info.duration, start)
            return movie.trimming(
                start..<max(end, start), to: URL(fileURLWithPath: output),
                maximumDuration: maxDuration, quality: quality)
        }
    }
}

struct VideoTranscode: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transcode",
        abstract: "Re-encode a movie to a quality preset (H.264 + AAC in MP4).",
        discussion: """
            Presets: typeHigh (fits 1920×1080), typeMedium (480×360), typeLow (192×144), \
            type640x480, typeIFrame1280x720 and typeIFrame960x540 (every frame a key frame), \
            hd1280x720, hd1920x1080, uhd3840x2160. Frames fit inside the box (turned for portrait \
            movies), are never enlarged, and are rotated upright.
            """
    )

    @Argument(help: "The movie.", completion: .file())
    var file: String

    @Option(help: "The preset.")
    var quality: VideoQuality

    @Option(name: .shortAndLong, help: "Where to write the movie (.mp4 or .mov).", completion: .file())
    var output: String

    @Flag(help: "Print the result as JSON.")
    var json = false

    func run() async throws {
        try await runExport(file: file, json: json) { movie in
            movie.transcoding(to: URL(fileURLWithPath: output), quality: quality)
        }
    }
}

extension VideoQuality: ExpressibleByArgument {}

/// Probes `file`, runs the export `make` builds with a progress line, and reports the result.
private func runExport(file: String, json: Bool, make: (Movie) -> MovieExport) async throws {
    do {
        let movie = try await Movie(contentsOf: URL(fileURLWithPath: file))
        let result = try await make(movie).run(progress: ProgressLine.show)
        ProgressLine.finish()
        try await report(result, json: json)
    } catch let error as MediaError {
        ProgressLine.finish()
        try failVideo(error, file: file, json: json)
    }
}

private func report(_ result: MovieExport.Result, json: Bool) async throws {
    if json {
        try MovieRecord(path: result.url.path, info: result.info, compatibility: await Movie.compatibility(of: result.info, at: result.url)).printJSON()
    } else {
        let info = result.info
        print(
            "\(result.url.path): \(info.pixelSize.width)×\(info.pixelSize.height), \(String(format: "%.3f", info.duration)) s, "
                + (result.usedStreamCopy ? "streams copied" : "re-encoded"))
    }
}

/// A percentage line on standard error, only on a terminal.
enum ProgressLine {
    static let isTerminal = isatty(2) == 1

    @Sendable static func show(_ progress: MovieExport.Progress) {
        guard isTerminal else { return }
        let line = String(format: "\r%3.0f%%  %.1f / %.1f s", progress.fractionCompleted * 100, progress.processedSeconds, progress.totalSeconds)
        FileHandle.standardError.write(Data(line.utf8))
    }

    static func finish() {
        guard isTerminal else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
