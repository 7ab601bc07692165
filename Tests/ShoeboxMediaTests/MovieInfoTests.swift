import Foundation
import ShoeboxImaging
import ShoeboxMedia
import ShoeboxTesting
import Testing

/// The corpus movies against what ffprobe read from them (`videos.tsv`).
@Suite(.enabled(if: corpus != nil, Comment(rawValue: corpusMissing)))
struct MovieCorpusTests {
    static let rows = (try? corpus?.rows("videos.tsv")) ?? []

    @Test func everyMovieIsListed() {
        #expect(Self.rows.count >= 4)
    }

    @Test("Probes as ffprobe read it", arguments: rows.map { $0["path"] ?? "" })
    func probe(_ path: String) async throws {
        let row = try #require(Self.rows.first { $0["path"] == path })
        let url = try #require(corpus).url(path)
        let info = try await MovieInfo(contentsOf: url)
        #expect(abs(info.duration - Double(row["duration_s"]!)!) < 0.001)
        #expect(info.storedPixelSize == PixelSize(width: Int(row["width"]!)!, height: Int(row["height"]!)!))
        #expect(info.rotation == (Int(row["ffprobe_rotation"] ?? "") ?? 0))
        #expect(info.videoCodec == row["video_codec"])
        #expect(info.audioCodec == (row["audio_codec"]?.isEmpty == false ? row["audio_codec"] : nil))
        if let created = row["creation_time"], !created.isEmpty {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            #expect(info.creationDate == formatter.date(from: created))
        } else {
            #expect(info.creationDate == nil)
        }
        if let location = row["iso6709_location"], !location.isEmpty {
            // "+48.8583+002.2945/"
            #expect(info.latitude == 48.8583)
            #expect(info.longitude == 2.2945)
        } else {
            #expect(info.latitude == nil && info.longitude == nil)
        }
        #expect(await Movie.compatibility(of: info, at: url).isCompatible)
    }

    @Test func containersAndRotation() async throws {
        let corpus = try #require(corpus)
        let mov = try await MovieInfo(contentsOf: corpus.url("generated-video/rotated90-h264.mov"))
        #expect(mov.container == "mov")
        #expect(mov.pixelSize == PixelSize(width: 480, height: 640))
        #expect(try await MovieInfo(contentsOf: corpus.url("generated-video/browser-like-vp8-opus.webm")).container == "webm")
        #expect(try await MovieInfo(contentsOf: corpus.url("generated-video/testsrc-640x480-h264-aac.mp4")).container == "mp4")
    }

    @Test func posterFramesAreUpright() async throws {
        let movie = try await Movie(contentsOf: try #require(corpus).url("generated-video/rotated90-h264.mov"))
        let poster = try await movie.posterFrame()
        #expect(poster.pixelSize == PixelSize(width: 480, height: 640))
        let late = try await movie.posterFrame(at: 60)  // past the end: the first frame
        #expect(late.pixelSize == poster.pixelSize)
    }
}

@Suite struct MovieInfoErrorTests {
    @Test func damagedAndForeignFilesGiveTypedErrors() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = try SyntheticMovie(duration: 1).write(to: folder.appendingPathComponent("ok.mp4"))
        let data = try Data(contentsOf: movie)
        let cases: [(String, Data, String)] = [
            ("truncated.mp4", data.prefix(data.count / 3), "corrupt"),
            ("header-only.mp4", data.prefix(64), "corrupt"),
            ("empty.mp4", Data(), "corrupt"),
            ("text.mp4", Data("this is not a movie at all, just some text\n".utf8), "unsupportedFormat"),
            ("image.mp4", try SyntheticPhoto(width: 32, height: 32).image().encoded(as: .jpeg), "unsupportedFormat"),
        ]
        for (name, bytes, code) in cases {
            let url = folder.appendingPathComponent(name)
            try bytes.write(to: url)
            do {
                _ = try await MovieInfo(contentsOf: url)
                Issue.record("\(name) should not probe")
            } catch {
                #expect(error.code.rawValue == code, "\(name): \(error)")
            }
            let compatibility = await Movie.isVideoCompatibleWithSavedPhotosAlbum(at: url)
            #expect(!compatibility.isCompatible && compatibility.reason?.isEmpty == false)
        }
        do {
            _ = try await MovieInfo(contentsOf: folder.appendingPathComponent("missing.mp4"))
            Issue.record("a missing file should not probe")
        } catch {
            #expect(error.code == .io)
        }
    }

    @Test func oldFormatsAreKeptAndBrowsersGetRenditionsOfThem() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let avi = try SyntheticMovie(duration: 0.5).write(to: folder.appendingPathComponent("old.avi"))
        #expect(await Movie.isVideoCompatibleWithSavedPhotosAlbum(at: avi).isCompatible)
        let aviInfo = try await MovieInfo(contentsOf: avi)
        #expect(aviInfo.container == "avi" && aviInfo.uniformType == .avi && !Movie.playsInBrowsers(aviInfo))
        let mp4 = try SyntheticMovie(duration: 0.5).write(to: folder.appendingPathComponent("new.mp4"))
        let mp4Info = try await MovieInfo(contentsOf: mp4)
        #expect(mp4Info.uniformType == .mpeg4Movie && Movie.playsInBrowsers(mp4Info))
        #expect(await Movie.isVideoCompatibleWithSavedPhotosAlbum(at: mp4).isCompatible)
        // Not a movie at all: says why.
        let text = folder.appendingPathComponent("notes.avi")
        try Data("not a movie".utf8).write(to: text)
        let answer = await Movie.isVideoCompatibleWithSavedPhotosAlbum(at: text)
        #expect(!answer.isCompatible && answer.reason?.isEmpty == false)
    }

    @Test(
        "ISO 6709 and rotation conventions",
        arguments: [
            ("+48.8583+002.2945/", 48.8583, 2.2945, nil as Double?),
            ("-33.8568+151.2153+025.5/", -33.8568, 151.2153, 25.5),
            ("+40.6892-074.0445/", 40.6892, -74.0445, nil),
        ])
    func locations(text: String, latitude: Double, longitude: Double, altitude: Double?) throws {
        let json = """
            {"streams":[{"codec_type":"video","codec_name":"h264","width":16,"height":16,"avg_frame_rate":"30/1"}],
             "format":{"format_name":"mov,mp4,m4a,3gp,3g2,mj2","duration":"1.0","tags":{"location":"\(text)"}}}
            """
        let info = try MovieInfo(ffprobeReport: Data(json.utf8))
        #expect(info.latitude == latitude && info.longitude == longitude && info.altitude == altitude)
    }
}
