import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxMedia
import ShoeboxTesting
import Testing

/// Movies as cameras and phones of the last twenty years wrote them: each is imported as it is
/// and plays from an H.264 rendition; cut files are refused with a typed error.
@Suite struct CameraMovieFormatTests {
    /// (what made it, file name, frame size, ffmpeg options, the type the library records)
    static let formats: [(String, String, String, [String], UTType)] = [
        ("compact camera AVI: Motion JPEG + PCM", "MVI_0001.AVI", "320x240", ["-c:v", "mjpeg", "-q:v", "4", "-c:a", "pcm_s16le"], .avi),
        ("Xvid AVI: MPEG-4 Part 2 + MP3", "clip.avi", "320x240", ["-c:v", "mpeg4", "-vtag", "XVID", "-c:a", "libmp3lame"], .avi),
        ("feature phone 3GP: H.263 + AAC", "VID0001.3gp", "176x144", ["-c:v", "h263", "-c:a", "aac", "-ac", "1", "-ar", "8000"], .threeGPP),
        (
            "CDMA phone 3G2: MPEG-4 Part 2 + AAC", "VID0002.3g2", "176x144", ["-c:v", "mpeg4", "-c:a", "aac", "-ac", "1", "-ar", "16000", "-f", "3g2"],
            .threeGPP2
        ),
        ("compact camera MOV: Motion JPEG + PCM", "MVI_0002.MOV", "320x240", ["-c:v", "mjpeg", "-c:a", "pcm_s16le"], .quickTimeMovie),
        ("camera MP4: MPEG-4 Part 2 + AAC", "M4V00001.MP4", "320x240", ["-c:v", "mpeg4", "-c:a", "aac"], .mpeg4Movie),
        ("Matroska: H.264 + AC-3", "holiday.mkv", "320x240", ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "ac3"], .matroska),
        (
            "AVCHD camcorder M2TS: H.264 + AC-3", "00001.MTS", "320x240",
            ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "ac3", "-mpegts_m2ts_mode", "1", "-f", "mpegts"], .mpeg2TransportStream
        ),
        ("DVD camcorder MPEG-2 program stream", "MOV001.MPG", "320x240", ["-c:v", "mpeg2video", "-c:a", "mp2", "-f", "vob"], .mpeg),
        ("MiniDV camcorder DV", "tape.dv", "720x480", ["-target", "ntsc-dv"], .dvMovie),
        ("Flash video: Sorenson H.263 + MP3", "clip.flv", "320x240", ["-c:v", "flv", "-c:a", "libmp3lame", "-ar", "44100"], .flashVideo),
        ("Windows Media: WMV 8 + WMA", "clip.wmv", "320x240", ["-c:v", "wmv2", "-c:a", "wmav2"], .windowsMediaVideo),
    ]

    static func movie(_ size: String, _ options: [String]) -> SyntheticMovie {
        let dimensions = size.split(separator: "x").compactMap { Int($0) }
        var movie = SyntheticMovie(duration: 1, width: dimensions[0], height: dimensions[1])
        movie.codecOptions = options
        return movie
    }

    @Test("every format ffmpeg reads is kept as it is and plays from a rendition", arguments: formats)
    func importedAndPlayable(_ made: String, name: String, size: String, options: [String], type: UTType) async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        let url = try Self.movie(size, options).write(to: fixture.folder.appendingPathComponent(name))
        let original = try Data(contentsOf: url)
        let id = try await fixture.importFiles([url])[0]
        let asset = try #require(try await fixture.library.fetchAssets(withLocalIdentifiers: [id]).firstObject)
        #expect(asset.mediaType == .video, "\(made)")
        #expect(asset.uniformTypeIdentifier == type.identifier, "\(made)")
        #expect(abs(asset.duration - 1) < 0.15, "\(made): \(asset.duration) s")
        #expect(asset.originalFilename == name)
        // The original is kept byte for byte, under the type's extension.
        let stored = try await fixture.library.originalURL(for: asset)
        #expect(try Data(contentsOf: stored) == original, "\(made)")
        #expect(UTType.filenameExtension(for: asset.uniformTypeIdentifier) == type.preferredFilenameExtension)
        // Browsers get an H.264 MP4 of it.
        let info = try await MovieInfo(contentsOf: stored)
        #expect(!Movie.playsInBrowsers(info), "\(made) needs a rendition")
        let manager = ImageManager(library: fixture.library)
        let playback = try await manager.requestVideoURL(for: asset)
        let played = try await MovieInfo(contentsOf: playback)
        #expect(Movie.playsInBrowsers(played), "\(made): \(played.container) \(played.videoCodec)")
        #expect(abs(played.duration - asset.duration) < 0.2, "\(made): \(played.duration) s against \(asset.duration) s")
        // The poster frame decodes too.
        let poster = try await manager.requestDerivativeFile(for: asset, targetSize: PixelSize(square: 128), contentMode: .aspectFit)
        #expect(try Image(contentsOf: poster.url).pixelSize.width == 128)
    }

    @Test func dateRotationAndPlaceComeThroughFromAPhone3GP() async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        var movie = Self.movie("176x144", ["-c:v", "mpeg4", "-c:a", "aac", "-ac", "1"])
        movie.metadata = ["creation_time": "2009-07-14T10:20:30Z", "location": "+48.8583+002.2945/"]
        movie.rotation = 90
        let url = try movie.write(to: fixture.folder.appendingPathComponent("VID_20090714.3gp"))
        let id = try await fixture.importFiles([url])[0]
        let asset = try #require(try await fixture.library.fetchAssets(withLocalIdentifiers: [id]).firstObject)
        #expect(asset.creationDate == ISO8601DateFormatter().date(from: "2009-07-14T10:20:30Z"))
        #expect(asset.location?.latitude == 48.8583 && asset.location?.longitude == 2.2945)
        #expect(asset.pixelWidth == 144 && asset.pixelHeight == 176, "upright: \(asset.pixelWidth)×\(asset.pixelHeight)")
        let played = try await MovieInfo(contentsOf: try await ImageManager(library: fixture.library).requestVideoURL(for: asset))
        #expect(played.pixelSize == PixelSize(width: 144, height: 176))
    }

    @Test(
        "cut files are refused, and nothing is kept",
        arguments: [
            ("MVI_0003.AVI", "320x240", ["-c:v", "mjpeg", "-c:a", "pcm_s16le"]),
            ("00002.MTS", "320x240", ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-mpegts_m2ts_mode", "1", "-f", "mpegts"]),
            ("cut.mkv", "320x240", ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"]),
        ])
    func truncatedMoviesAreRefused(name: String, size: String, options: [String]) async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        let whole = try Self.movie(size, options).write(to: fixture.folder.appendingPathComponent("whole-" + name))
        let bytes = try Data(contentsOf: whole)
        let cut = fixture.folder.appendingPathComponent(name)
        try bytes.prefix(bytes.count * 2 / 3 + 1).write(to: cut)
        let error = await #expect(throws: LibraryError.self, "\(name) cut to two thirds was imported") {
            try await fixture.importFiles([cut])
        }
        #expect(error?.code == .corrupt, "\(name): \(String(describing: error))")
        #expect(error?.message.contains("ends early") == true, "\(name): \(String(describing: error?.message))")
        #expect(try await fixture.library.fetchAssets().isEmpty)
    }

    @Test func aMovieWithoutADecoderIsRefusedAsUnsupported() async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        // A Motion JPEG AVI whose stream names a codec no decoder knows (`ZZZZ`).
        let url = try Self.movie("320x240", ["-c:v", "mjpeg", "-an"]).write(to: fixture.folder.appendingPathComponent("odd.avi"))
        var bytes = try Data(contentsOf: url)
        for tag in ["MJPG", "mjpg"] {
            while let range = bytes.range(of: Data(tag.utf8)) { bytes.replaceSubrange(range, with: Data("ZZZZ".utf8)) }
        }
        try bytes.write(to: url)
        let answer = await Movie.isVideoCompatibleWithSavedPhotosAlbum(at: url)
        #expect(!answer.isCompatible)
        let error = await #expect(throws: LibraryError.self, "a movie no decoder reads was imported") {
            try await fixture.importFiles([url])
        }
        #expect(error?.code == .unsupportedFormat, "\(String(describing: error))")
    }
}
