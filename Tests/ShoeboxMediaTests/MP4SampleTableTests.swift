import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxMedia

/// The in-process MP4/MOV reader against ffprobe on the same files.
@Suite struct MP4SampleTableTests {
    static func ffprobeKeyFrames(_ url: URL) throws -> [Double] {
        let result = try ChildProcess.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags",
                "-of", "csv=p=0", url.path,
            ])
        return result.standardOutput.split(whereSeparator: \.isNewline).compactMap { line in
            let fields = line.split(separator: ",")
            guard fields.count >= 2, fields[1].hasPrefix("K") else { return nil }
            return Double(fields[0])
        }.sorted()
    }

    func check(_ url: URL) async throws {
        let table = try #require(MP4SampleTable.read(url), "\(url.lastPathComponent) was not read")
        let expected = try Self.ffprobeKeyFrames(url)
        #expect(table.keyFrameTimes.count == expected.count, "\(url.lastPathComponent)")
        for (ours, theirs) in zip(table.keyFrameTimes, expected) {
            #expect(abs(ours - theirs) < 0.001, "\(url.lastPathComponent): key frame at \(ours) s, ffprobe says \(theirs) s")
        }
        let info = try await MovieInfo(contentsOf: url)
        #expect(abs(table.duration - info.duration) < 0.05, "\(url.lastPathComponent): \(table.duration) s vs \(info.duration) s")
    }

    @Test func generatedMoviesMatchFFprobe() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mp4 = try SyntheticMovie(duration: 5).write(to: folder.appendingPathComponent("a.mp4"))
        let mov = try SyntheticMovie(duration: 3, width: 160, height: 120, frameRate: 25).write(to: folder.appendingPathComponent("b.mov"))
        try await check(mp4)
        try await check(mov)
        // A stream-copied cut (an edit list that skips into the media) and a re-encoded one.
        let movie = try await Movie(contentsOf: mp4)
        let copied = try await movie.trimming(2..<5, to: folder.appendingPathComponent("copy.mp4")).run()
        try await check(copied.url)
        let cut = try await movie.trimming(1.3..<3.1, to: folder.appendingPathComponent("cut.mov")).run()
        try await check(cut.url)
    }

    @Test(.enabled(if: corpus != nil, Comment(rawValue: corpusMissing)))
    func corpusMoviesMatchFFprobe() async throws {
        let corpus = try #require(corpus)
        for path in ["generated-video/rotated90-h264.mov", "generated-video/testsrc-640x480-h264-aac.mp4", "generated-video/mandelbrot-1080p-noaudio.mp4"] {
            try await check(corpus.url(path))
        }
    }

    @Test func otherFilesAreLeftToFFprobe() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let webm = try SyntheticMovie(duration: 1).write(to: folder.appendingPathComponent("a.webm"))
        #expect(MP4SampleTable.read(webm) == nil)
        let garbage = folder.appendingPathComponent("g.mp4")
        var bytes = Data([0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8))
        bytes += Data([0xFF, 0xFF, 0xFF, 0xF0] + Array("moov".utf8) + [UInt8](repeating: 7, count: 100))
        try bytes.write(to: garbage)
        #expect(MP4SampleTable.read(garbage) == nil)
        // A truncated real file: the moov box is cut off.
        let mp4 = try SyntheticMovie(duration: 1).write(to: folder.appendingPathComponent("t.mp4"))
        let whole = try Data(contentsOf: mp4)
        try whole.prefix(whole.count - 200).write(to: mp4)
        _ = MP4SampleTable.read(mp4)  // must not trap; nil or a table are both fine for a cut mdat
    }

    /// A stream copy is described without ffprobe; the description must be what ffprobe reads.
    @Test func describedCopiesMatchWhatFFprobeReads() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var sources = [try SyntheticMovie(duration: 4).write(to: folder.appendingPathComponent("a.mp4"))]
        if let corpus { sources.append(corpus.url("generated-video/rotated90-h264.mov")) }
        for (index, source) in sources.enumerated() {
            let movie = try await Movie(contentsOf: source)
            for ext in ["mp4", "mov"] {
                let result = try await movie.trimming(0..<movie.info.duration, to: folder.appendingPathComponent("c\(index).\(ext)")).run()
                #expect(result.usedStreamCopy)
                let probed = try await MovieInfo(contentsOf: result.url)
                let described = result.info
                #expect(described.container == probed.container && described.storedPixelSize == probed.storedPixelSize)
                #expect(described.rotation == probed.rotation && described.videoCodec == probed.videoCodec && described.audioCodec == probed.audioCodec)
                #expect(described.creationDate == probed.creationDate, "\(source.lastPathComponent) → .\(ext)")
                #expect(described.latitude == probed.latitude && described.longitude == probed.longitude, "\(source.lastPathComponent) → .\(ext)")
                #expect(abs(described.duration - probed.duration) < 0.05 && described.fileSize == probed.fileSize)
            }
        }
    }

    // Hostile box sizes and counts (found by `scripts/fuzz mp4`): each used to stop or stall the
    // process reading the movie.
    static let qtFileType: [UInt8] = [0, 0, 0, 20] + Array("ftypqt  ".utf8) + [0, 0, 0, 0] + Array("qt  ".utf8)

    @Test func aSixtyFourBitSizeNearTwoToTheSixtyFourIsDamage() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("huge.mov")
        try Data(Self.qtFileType + [0, 0, 0, 1] + Array("mdat".utf8) + [UInt8](repeating: 0xFF, count: 8) + [1, 2, 3, 4]).write(to: url)
        #expect(MP4SampleTable.read(url) == nil)
    }

    @Test func aSixtyFourBitSizeCutShortIsNoBox() {
        // After a first box, one that announces a 64-bit size and ends before it (the missing
        // bytes read as zeros, the size as nearly Int.max), or whose size is Int.max.
        let free: [UInt8] = [0, 0, 0, 8] + Array("free".utf8)
        for size in [[0xEF, 0xEF, 0xEF], [0x7F] + [UInt8](repeating: 0xFF, count: 7)] as [[UInt8]] {
            let boxes = MP4SampleTable.children(of: Data(free + [0, 0, 0, 1] + Array("moov".utf8) + size))
            #expect(boxes.map(\.type) == ["free"])
        }
    }

    @Test func anEditListCountPastItsBoxIsDamageAtOnce() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try SyntheticMovie(duration: 1).write(to: folder.appendingPathComponent("a.mp4"))
        var bytes = [UInt8](try Data(contentsOf: url))
        let elst = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("elst".utf8) }, "no edit list")
        #expect(MP4SampleTable.read(url) != nil)
        bytes.replaceSubrange((elst + 8)..<(elst + 12), with: [0xFF, 0xFF, 0xFF, 0xFF])  // version, flags, then the count
        try Data(bytes).write(to: url)
        let clock = ContinuousClock()
        let started = clock.now
        #expect(MP4SampleTable.read(url) == nil)
        #expect(clock.now - started < .seconds(2), "four billion edits were walked")
    }

    /// A movie built box by box: one video track of `samples` samples of 100 ticks (a tenth of a
    /// second), each `sampleSize` bytes; `editTime` is the edit list's media time (version 1).
    static func handBuiltMovie(
        samples: UInt32 = 10, sampleSize: UInt32 = 100, sizeCount: UInt32? = nil, editTime: Int64 = 0,
        mediaBytes: Int? = nil
    ) -> Data {
        func box(_ type: String, _ body: [UInt8]) -> [UInt8] { be32(UInt32(8 + body.count)) + Array(type.utf8) + body }
        func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        func be64(_ value: UInt64) -> [UInt8] { be32(UInt32(value >> 32)) + be32(UInt32(truncatingIfNeeded: value)) }
        let header = [0, 0, 0, 0] + be32(0) + be32(0) + be32(1_000) + be32(samples * 100)  // version 0: times, timescale, duration
        let edits = box("edts", box("elst", [1, 0, 0, 0] + be32(1) + be64(UInt64(samples) * 100) + be64(UInt64(bitPattern: editTime)) + be32(0x10000)))
        let table = box(
            "stbl",
            box("stts", [0, 0, 0, 0] + be32(1) + be32(samples) + be32(100))
                + box("stsz", [0, 0, 0, 0] + be32(sampleSize) + be32(sizeCount ?? samples)))
        let media = box(
            "mdia",
            box("mdhd", header) + box("hdlr", [0, 0, 0, 0] + be32(0) + Array("vide".utf8) + [UInt8](repeating: 0, count: 12))
                + box("minf", table))
        let movie = box("moov", box("mvhd", header) + box("trak", edits + media))
        return Data(qtFileType + movie + box("mdat", [UInt8](repeating: 0, count: mediaBytes ?? Int(samples * sampleSize))))
    }

    @Test func aHandBuiltMovieIsRead() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("built.mov")
        try Self.handBuiltMovie(editTime: 200).write(to: url)
        let table = try #require(MP4SampleTable.read(url))
        #expect(table.duration == 1)
        // Every sample is a key frame (no stss); the edit starts the track at its third sample.
        #expect(table.keyFrameTimes.count == 10 && table.keyFrameTimes.first == -0.2 && table.keyFrameTimes.last == 0.7)
    }

    /// An edit's media time below -1 is no time: Int64.min used to overflow the presentation time.
    @Test func anEditListMediaTimeBelowMinusOneIsDamage() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("edit.mov")
        for time in [Int64.min, -2] {
            try Self.handBuiltMovie(editTime: time).write(to: url)
            #expect(MP4SampleTable.read(url) == nil, "media time \(time)")
        }
    }

    /// Time-to-sample entries claiming more samples than the sample sizes (stsz) hold: a 1 KB file
    /// made the reader list 49 million key frames (800 MB and seconds of work) before.
    @Test func moreSamplesThanTheSampleSizesHoldIsDamage() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("claims.mov")
        var bytes = [UInt8](Self.handBuiltMovie())
        let stts = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("stts".utf8) })
        bytes.replaceSubrange((stts + 12)..<(stts + 16), with: [0x02, 0xEB, 0xAE, 0x40])  // 49,000,000 samples
        try Data(bytes).write(to: url)
        let clock = ContinuousClock()
        let started = clock.now
        // (Counts, not tables, in the expectations: a failure would print 49 million times.)
        #expect(MP4SampleTable.read(url)?.keyFrameTimes.count == nil)
        #expect(clock.now - started < .seconds(1))
        // The sizes' own count must match too, and constant sizes must fit in the file.
        try Self.handBuiltMovie(sizeCount: 11).write(to: url)
        #expect(MP4SampleTable.read(url)?.keyFrameTimes.count == nil)
        try Self.handBuiltMovie(sampleSize: 1_000_000, mediaBytes: 1_000).write(to: url)
        #expect(MP4SampleTable.read(url)?.keyFrameTimes.count == nil, "ten samples of a million bytes in a file of 1.3 KB")
    }
}
