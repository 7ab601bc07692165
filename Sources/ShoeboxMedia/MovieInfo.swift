import Foundation
import ShoeboxImaging

/// What `ffprobe` reads from a movie: container, duration, size, rotation, codecs, dates and place.
///
/// ```swift
/// let info = try await MovieInfo(contentsOf: URL(fileURLWithPath: "clip.mov"))
/// print(info.container, info.duration, info.pixelSize, info.rotation, info.videoCodec)
/// ```
public struct MovieInfo: Sendable, Hashable, Codable {
    /// The container: `mp4`, `mov`, `webm`, `mkv`, `3gp`, `3g2`, or ffmpeg's name for others
    /// (`avi`, `mpegts`, `mpeg`, `flv`, `asf`, `dv`, `ogg`, …).
    public var container: String
    /// Duration in seconds.
    public var duration: Double
    /// The frame size as stored (before rotation).
    public var storedPixelSize: PixelSize
    /// The display rotation in degrees: the angle of the display matrix exactly as `ffprobe`
    /// prints it (its `rotation` side data), normalized to 0, 90, 180 or 270. 90 and 270 swap
    /// width and height for display; ffmpeg applies it when decoding frames.
    public var rotation: Int
    /// Frames per second (average), if known.
    public var frameRate: Double?
    /// The video codec (`h264`, `hevc`, `vp8`, `vp9`, `av1`, …).
    public var videoCodec: String
    /// The audio codec (`aac`, `opus`, …), or `nil` for a silent movie.
    public var audioCodec: String?
    /// When it was recorded, from the container's creation time.
    public var creationDate: Date?
    /// The offset from UTC, in seconds, of the clock where it was recorded, when the file says
    /// (QuickTime's `com.apple.quicktime.creationdate`, `2021-04-11T15:47:53-0500`); the
    /// container's `creation_time` is UTC and says nothing of it.
    public var creationTimeZoneOffset: Int?
    /// Latitude in signed decimal degrees, from the ISO 6709 location.
    public var latitude: Double?
    /// Longitude in signed decimal degrees, from the ISO 6709 location.
    public var longitude: Double?
    /// Altitude in metres, when the ISO 6709 location has one.
    public var altitude: Double?
    /// Overall bit rate in bits per second.
    public var bitRate: Int?
    /// The file's size in bytes.
    public var fileSize: Int?
    /// How many frames decoding order runs ahead of display order (B-frames; ffprobe's
    /// `has_b_frames`). A stream copy can end exactly only where this is 0.
    public var frameReorderDelay: Int = 0
    /// The identifier Apple's cameras give both halves of a Live Photo
    /// (`com.apple.quicktime.content.identifier`; the photo's maker note has the same): letters,
    /// digits and `-`, at most 64, else `nil`.
    public var contentIdentifier: String?

    /// The frame size as displayed (after rotation).
    public var pixelSize: PixelSize {
        rotation == 90 || rotation == 270 ? storedPixelSize.transposed : storedPixelSize
    }

    /// Whether the movie has sound.
    public var hasAudio: Bool { audioCodec != nil }

    /// Information as given, without probing a file (``init(contentsOf:)`` probes one);
    /// ``creationTimeZoneOffset`` and ``contentIdentifier`` start `nil`, ``frameReorderDelay`` 0.
    public init(
        container: String, duration: Double, storedPixelSize: PixelSize, rotation: Int = 0,
        frameRate: Double? = nil, videoCodec: String, audioCodec: String? = nil, creationDate: Date? = nil,
        latitude: Double? = nil, longitude: Double? = nil, altitude: Double? = nil,
        bitRate: Int? = nil, fileSize: Int? = nil
    ) {
        self.container = container
        self.duration = duration
        self.storedPixelSize = storedPixelSize
        self.rotation = rotation
        self.frameRate = frameRate
        self.videoCodec = videoCodec
        self.audioCodec = audioCodec
        self.creationDate = creationDate
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.bitRate = bitRate
        self.fileSize = fileSize
    }

    /// Probes the movie at `url` with `ffprobe`.
    ///
    /// - Throws: ``MediaError/Code/io`` when the file is missing or unreadable;
    ///   ``MediaError/Code/unsupportedFormat`` when it has no video stream (an image, a text file, an
    ///   audio file); ``MediaError/Code/corrupt`` when ffprobe cannot parse it (truncated,
    ///   damaged); ``MediaError/Code/toolMissing`` without ffprobe.
    public init(contentsOf url: URL) async throws(MediaError) {
        let path = url.standardizedFileURL.path
        try MovieInfo.checkReadable(path)
        let result = try await FFmpeg.collect(
            FFmpeg.probeName,
            ["-v", "error", "-print_format", "json", "-show_format", "-show_streams"]
                + FFmpeg.safeInputOptions + ["-i", FFmpeg.fileArgument(url)])
        guard result.status == 0 else {
            throw MovieInfo.classifyProbeFailure(FFmpeg.lastLine(result.error), looksLikeMovie: MovieInfo.hasMovieSignature(path))
        }
        if let truncation = ContainerIntegrity.truncation(of: path) {
            throw .corrupt(reason: truncation)
        }
        do {
            self = try MovieInfo(probeJSON: result.output, majorBrand: MovieInfo.majorBrand(of: path))
        } catch let error where error == MediaError.corrupt(reason: MovieInfo.noDuration) {
            // A streamed recording (MediaRecorder's WebM) has no duration in its header.
            guard let duration = try await MovieInfo.packetDuration(of: url) else { throw error }
            self = try MovieInfo(probeJSON: result.output, majorBrand: MovieInfo.majorBrand(of: path), knownDuration: duration)
        }
    }

    /// The ISO base media `ftyp` major brand, read from the file itself: the brand in ffprobe's
    /// tags can be a copy of another file's metadata.
    static func majorBrand(of path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 12), head.count == 12,
            String(decoding: head[head.startIndex + 4..<head.startIndex + 8], as: UTF8.self) == "ftyp"
        else { return nil }
        return String(decoding: head[head.startIndex + 8..<head.startIndex + 12], as: UTF8.self)
    }

    static func checkReadable(_ path: String) throws(MediaError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .io(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw .io(path: path, reason: "is a directory") }
        guard FileManager.default.isReadableFile(atPath: path) else { throw .io(path: path, reason: "permission denied") }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size > 0 else { throw .corrupt(reason: "the file is empty") }
    }

    /// A file that starts like a movie but does not probe is damaged; anything else is foreign.
    static func classifyProbeFailure(_ line: String, looksLikeMovie: Bool) -> MediaError {
        looksLikeMovie ? .corrupt(reason: line) : .unsupportedFormat("not a movie ffprobe recognises (\(line))")
    }

    /// Whether the file starts with a movie container's signature: an ISO base media box
    /// (`ftyp`, `moov`, `mdat`, `wide`, `free`), Matroska/WebM's EBML header, AVI's RIFF, MPEG-TS
    /// or MPEG-PS.
    static func hasMovieSignature(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 12), head.count >= 4 else { return false }
        let bytes = [UInt8](head)
        if bytes.count >= 8, ["ftyp", "moov", "mdat", "wide", "free", "skip"].contains(String(decoding: bytes[4..<8], as: UTF8.self)) {
            return true
        }
        if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return true }  // EBML
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), String(decoding: bytes[8..<12], as: UTF8.self) == "AVI " {
            return true
        }
        if bytes[0] == 0x47 { return true }  // MPEG-TS sync byte
        return bytes.starts(with: [0x00, 0x00, 0x01, 0xBA])  // MPEG-PS pack header
    }
}
