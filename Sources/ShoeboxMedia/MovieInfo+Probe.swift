import Foundation
import ShoeboxImaging

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The parts of `ffprobe -print_format json -show_format -show_streams` Shoebox reads (named as
/// ffprobe names them).
private struct ProbeOutput: Decodable {
    struct Stream: Decodable {
        let codec_type: String?
        let codec_name: String?
        let width: Int?
        let height: Int?
        let avg_frame_rate: String?
        let r_frame_rate: String?
        let duration: String?
        let tags: [String: String]?
        let side_data_list: [SideData]?
        let disposition: [String: Int]?
        let has_b_frames: Int?
    }

    struct SideData: Decodable {
        let side_data_type: String?
        let rotation: Double?
    }

    struct Format: Decodable {
        let format_name: String?
        let duration: String?
        let bit_rate: String?
        let size: String?
        let tags: [String: String]?
    }

    let streams: [Stream]?
    let format: Format?
}

extension MovieInfo {
    /// Reads a report of `ffprobe -print_format json -show_format -show_streams` (for tests and
    /// for callers that ran ffprobe themselves).
    public init(ffprobeReport data: Data) throws(MediaError) {
        try self.init(probeJSON: data)
    }

    /// Reads ffprobe's JSON.
    ///
    /// - Parameter knownDuration: The length when the report has none (see ``packetDuration(of:)``).
    init(probeJSON data: Data, majorBrand: String? = nil, knownDuration: Double? = nil) throws(MediaError) {
        let probe: ProbeOutput
        do {
            probe = try JSONDecoder().decode(ProbeOutput.self, from: data)
        } catch {
            throw .corrupt(reason: "ffprobe's report could not be read: \(error)")
        }
        let streams = probe.streams ?? []
        let formatName = probe.format?.format_name ?? ""
        // ffprobe reads still images as one-frame "videos": they are images, not movies.
        if formatName == "image2" || formatName.hasSuffix("_pipe") || formatName == "gif" {
            throw .unsupportedFormat("an image (\(formatName)), not a movie")
        }
        // The main video stream: not an attached picture (cover art).
        guard let video = streams.first(where: { $0.codec_type == "video" && $0.disposition?["attached_pic"] != 1 }),
            let codec = video.codec_name, let width = video.width, let height = video.height, width > 0, height > 0
        else {
            throw .unsupportedFormat("no video stream (\(probe.format?.format_name ?? "unknown format"))")
        }
        let audio = streams.first { $0.codec_type == "audio" }
        let formatTags = Self.lowercasedKeys(probe.format?.tags)
        let streamTags = Self.lowercasedKeys(video.tags)

        let duration = [probe.format?.duration, video.duration].compactMap { $0.flatMap(Double.init) }.first { $0 > 0 } ?? knownDuration
        guard let duration, duration > 0 else {
            throw .corrupt(reason: Self.noDuration)
        }
        let matrixRotation = video.side_data_list?.first { $0.side_data_type == "Display Matrix" }?.rotation
        // The legacy `rotate` tag, which ffmpeg turns into a display matrix of the same angle.
        let legacyRotation = streamTags["rotate"].flatMap(Double.init)
        let rotation = Self.normalizedRotation(matrixRotation ?? legacyRotation ?? 0)

        let location = (formatTags["com.apple.quicktime.location.iso6709"] ?? formatTags["location"] ?? formatTags["location-eng"])
            .flatMap(ISO6709Location.init)
        let appleCreation = formatTags["com.apple.quicktime.creationdate"]
        let creation = (appleCreation ?? formatTags["creation_time"] ?? streamTags["creation_time"]).flatMap(Self.parseDate)

        self.init(
            container: Self.container(
                formatName: probe.format?.format_name ?? "", majorBrand: majorBrand ?? formatTags["major_brand"],
                videoCodec: codec, audioCodec: audio?.codec_name),
            duration: duration,
            storedPixelSize: PixelSize(width: width, height: height),
            rotation: rotation,
            frameRate: Self.rate(video.avg_frame_rate) ?? Self.rate(video.r_frame_rate),
            videoCodec: codec,
            audioCodec: audio?.codec_name,
            creationDate: creation,
            latitude: location?.latitude,
            longitude: location?.longitude,
            altitude: location?.altitude,
            bitRate: probe.format?.bit_rate.flatMap(Int.init),
            fileSize: probe.format?.size.flatMap(Int.init))
        frameReorderDelay = max(0, video.has_b_frames ?? 0)
        if creation != nil { creationTimeZoneOffset = appleCreation.flatMap(Self.parseOffset) }
        contentIdentifier = formatTags["com.apple.quicktime.content.identifier"].flatMap { text in
            text.count <= 64 && !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } ? text : nil
        }
    }

    static let noDuration = "the movie has no duration"

    /// The length of a movie whose header does not say it — a browser's MediaRecorder writes WebM
    /// as a stream, without a duration — from its packets: the end of the last one, in seconds.
    static func packetDuration(of url: URL) async throws(MediaError) -> Double? {
        let result = try await FFmpeg.collect(
            FFmpeg.probeName,
            ["-v", "error", "-show_entries", "packet=pts_time,duration_time", "-of", "csv=p=0"]
                + FFmpeg.safeInputOptions + ["-i", FFmpeg.fileArgument(url)])
        guard result.status == 0 else { return nil }
        var end = 0.0
        for line in String(decoding: result.output, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            guard let start = fields.first ?? nil else { continue }
            end = Swift.max(end, start + ((fields.count > 1 ? fields[1] : nil) ?? 0))
        }
        return end > 0 ? end : nil
    }

    private static func lowercasedKeys(_ tags: [String: String]?) -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in tags ?? [:] { result[key.lowercased()] = value }
        return result
    }

    static func normalizedRotation(_ degrees: Double) -> Int {
        let quarter = Int((degrees / 90).rounded())
        return ((quarter % 4) + 4) % 4 * 90
    }

    /// `30000/1001` → 29.97; `0/0` → nil.
    static func rate(_ text: String?) -> Double? {
        guard let text else { return nil }
        let parts = text.split(separator: "/").compactMap { Double($0) }
        guard parts.count == 2, parts[1] != 0, parts[0] > 0 else { return nil }
        return parts[0] / parts[1]
    }

    /// The UTC offset an ISO 8601 date states (`+0200`, `-05:00`), in seconds; `nil` for `Z`
    /// (a UTC date, which says nothing of where it was taken) and for none.
    static func parseOffset(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let match = trimmed.firstMatch(of: /T[0-9:.]+([+-])([0-9]{2}):?([0-9]{2})$/),
            let hours = Int(match.output.2), let minutes = Int(match.output.3), hours <= 14, minutes < 60
        else { return nil }
        return (match.output.1 == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// ISO 8601 as containers write it: `2024-05-01T10:20:30.000000Z`, `2019-05-01T10:20:30+0200`.
    static func parseDate(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        if let date = fractional.date(from: trimmed) ?? plain.date(from: trimmed) { return date }
        // QuickTime's +0200 offset without a colon.
        if trimmed.count >= 5, let sign = trimmed.dropLast(4).last, sign == "+" || sign == "-" {
            let fixed = String(trimmed.dropLast(2)) + ":" + String(trimmed.suffix(2))
            return fractional.date(from: fixed) ?? plain.date(from: fixed)
        }
        // 1970-01-01 is what an unset QuickTime date reads as.
        return nil
    }

    static func container(formatName: String, majorBrand: String?, videoCodec: String, audioCodec: String?) -> String {
        let names = formatName.split(separator: ",").map(String.init)
        if names.contains("mov") || names.contains("mp4") {
            let brand = (majorBrand ?? "").trimmingCharacters(in: .whitespaces).lowercased()
            if brand == "qt" { return "mov" }
            if brand.hasPrefix("3g2") { return "3g2" }
            if brand.hasPrefix("3g") { return "3gp" }
            return "mp4"
        }
        if names.contains("matroska") || names.contains("webm") {
            let webmVideo: Set = ["vp8", "vp9", "av1"]
            let webmAudio: Set = ["opus", "vorbis"]
            let isWebM = webmVideo.contains(videoCodec) && (audioCodec.map(webmAudio.contains) ?? true)
            return isWebM ? "webm" : "mkv"
        }
        return names.first ?? "unknown"
    }
}

/// An ISO 6709 location string as QuickTime and MP4 store it: `+48.8583+002.2945/`,
/// `+48.8583+002.2945+120.5/`, with or without the trailing CRS part.
struct ISO6709Location {
    let latitude: Double
    let longitude: Double
    let altitude: Double?

    init?(_ text: String) {
        var numbers: [Double] = []
        var current = ""
        for character in text {
            if character == "+" || character == "-" {
                if !current.isEmpty {
                    guard let value = Double(current) else { return nil }
                    numbers.append(value)
                }
                current = String(character)
            } else if character.isNumber || character == "." {
                guard !current.isEmpty else { return nil }
                current.append(character)
            } else if character == "/" {
                break
            } else {
                return nil
            }
        }
        if !current.isEmpty {
            guard let value = Double(current) else { return nil }
            numbers.append(value)
        }
        guard numbers.count >= 2, abs(numbers[0]) <= 90, abs(numbers[1]) <= 180 else { return nil }
        latitude = numbers[0]
        longitude = numbers[1]
        altitude = numbers.count > 2 ? numbers[2] : nil
    }
}
