import Foundation

/// What a stream copy needs from an MP4 or QuickTime file, read straight from its `moov` box
/// (no ffprobe launch): the video track's key-frame presentation times and the movie's duration.
///
/// Times follow ffmpeg's mov demuxer: a sample's presentation time is its decode time plus its
/// composition offset, minus the first edit's media time, plus any leading empty edit. Files this
/// reader does not handle — fragmented MP4, several non-empty edits, no video track, a `moov` past
/// 64 MiB — give `nil`, and callers ask ffprobe instead.
package struct MP4SampleTable: Sendable {
    /// Presentation times of the video track's key frames, in seconds, ascending.
    package let keyFrameTimes: [Double]
    /// The movie's duration (`mvhd`), in seconds.
    package let duration: Double

    package static let maximumMovieBoxSize = 64 << 20

    /// Reads the file at `url`, or `nil` when it is not a plain MP4/MOV this reader understands.
    package static func read(_ url: URL) -> MP4SampleTable? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let end = try? handle.seekToEnd() else { return nil }
        var offset: UInt64 = 0
        var movie: Data?
        while offset + 8 <= end {
            guard (try? handle.seek(toOffset: offset)) != nil, let header = try? handle.read(upToCount: 16), header.count >= 8 else { return nil }
            var reader = BoxReader(header)
            var size = UInt64(reader.uint32())
            let type = reader.fourCC()
            var headerLength: UInt64 = 8
            if size == 1 {
                guard header.count >= 16 else { return nil }
                size = reader.uint64()
                headerLength = 16
            } else if size == 0 {
                size = end - offset
            }
            // Overflow-free (offset + 8 <= end): a 64-bit size may be anything up to 2^64 - 1.
            guard size >= headerLength, size <= end - offset else { return nil }
            if type == "moof" { return nil }  // fragmented
            if type == "moov" {
                guard size - headerLength <= UInt64(maximumMovieBoxSize) else { return nil }
                try? handle.seek(toOffset: offset + headerLength)
                movie = try? handle.read(upToCount: Int(size - headerLength))
            }
            offset += size
        }
        guard let movie else { return nil }
        return parse(movie: movie, fileSize: end)
    }

    private static func parse(movie: Data, fileSize: UInt64) -> MP4SampleTable? {
        let boxes = children(of: movie)
        guard let header = boxes.first(where: { $0.type == "mvhd" })?.body else { return nil }
        if boxes.contains(where: { $0.type == "mvex" }) { return nil }  // fragmented
        var reader = BoxReader(header)
        let version = reader.uint8()
        reader.skip(3)
        let movieTimescale: UInt32
        let movieDuration: UInt64
        if version == 1 {
            reader.skip(16)
            movieTimescale = reader.uint32()
            movieDuration = reader.uint64()
        } else {
            reader.skip(8)
            movieTimescale = reader.uint32()
            movieDuration = UInt64(reader.uint32())
        }
        guard movieTimescale > 0, !reader.overran else { return nil }
        let duration = Double(movieDuration) / Double(movieTimescale)

        for track in boxes where track.type == "trak" {
            let trackBoxes = children(of: track.body)
            guard let media = trackBoxes.first(where: { $0.type == "mdia" }) else { continue }
            let mediaBoxes = children(of: media.body)
            guard let handler = mediaBoxes.first(where: { $0.type == "hdlr" })?.body else { continue }
            var handlerReader = BoxReader(handler)
            handlerReader.skip(8)
            guard handlerReader.fourCC() == "vide" else { continue }
            guard let times = keyFrameTimes(trackBoxes: trackBoxes, mediaBoxes: mediaBoxes, movieTimescale: movieTimescale, fileSize: fileSize)
            else { return nil }
            return MP4SampleTable(keyFrameTimes: times, duration: duration)
        }
        return nil
    }

    private static func keyFrameTimes(trackBoxes: [Box], mediaBoxes: [Box], movieTimescale: UInt32, fileSize: UInt64) -> [Double]? {
        guard let mediaHeader = mediaBoxes.first(where: { $0.type == "mdhd" })?.body,
            let information = mediaBoxes.first(where: { $0.type == "minf" }),
            let table = children(of: information.body).first(where: { $0.type == "stbl" })
        else { return nil }
        var reader = BoxReader(mediaHeader)
        let version = reader.uint8()
        reader.skip(3 + (version == 1 ? 16 : 8))
        let timescale = reader.uint32()
        guard timescale > 0, !reader.overran else { return nil }

        // The edit list: leading empty edits delay the track; one edit's media time shifts it.
        var delay = 0.0
        var mediaTime: Int64 = 0
        if let edits = trackBoxes.first(where: { $0.type == "edts" }), let list = children(of: edits.body).first(where: { $0.type == "elst" }) {
            var edit = BoxReader(list.body)
            let editVersion = edit.uint8()
            edit.skip(3)
            let count = Int(edit.uint32())
            // Entries are 12 bytes (20 in version 1): a count the box cannot hold is a damaged
            // file, not four billion turns of this loop.
            guard count <= (list.body.count - 8) / (editVersion == 1 ? 20 : 12) else { return nil }
            var used = 0
            for _ in 0..<count {
                let segment = editVersion == 1 ? edit.uint64() : UInt64(edit.uint32())
                let time = editVersion == 1 ? Int64(bitPattern: edit.uint64()) : Int64(Int32(bitPattern: edit.uint32()))
                edit.skip(4)
                if time == -1 {
                    delay += Double(segment) / Double(movieTimescale)
                } else {
                    guard time >= 0 else { return nil }  // no media time; Int64.min overflowed the times below
                    used += 1
                    if used == 1 { mediaTime = time }
                }
            }
            guard !edit.overran, used <= 1 else { return nil }
        }

        let tables = children(of: table.body)
        guard let timeToSample = tables.first(where: { $0.type == "stts" })?.body else { return nil }
        var decode: [(count: UInt32, delta: UInt32)] = []
        var stts = BoxReader(timeToSample)
        stts.skip(4)
        let decodeCount = Int(stts.uint32())
        guard decodeCount * 8 <= timeToSample.count else { return nil }
        for _ in 0..<decodeCount { decode.append((stts.uint32(), stts.uint32())) }
        var composition: [(count: UInt32, offset: Int64)] = []
        if let offsets = tables.first(where: { $0.type == "ctts" })?.body {
            var ctts = BoxReader(offsets)
            ctts.skip(4)
            let count = Int(ctts.uint32())
            guard count * 8 <= offsets.count else { return nil }
            for _ in 0..<count {
                // Version 0 is unsigned in the standard, but writers store negatives; ffmpeg reads signed.
                composition.append((ctts.uint32(), Int64(Int32(bitPattern: ctts.uint32()))))
            }
            guard !ctts.overran else { return nil }
        }
        let totalSamples = decode.reduce(0) { $0 + Int($1.count) }
        guard totalSamples <= 50_000_000 else { return nil }  // nonsense, not a movie
        // The sample sizes count the samples too (stsz, or compact stz2): a count of their own
        // that differs, or sizes the box or the file cannot hold, is a damaged file. This holds
        // what a few bytes of time-to-sample entries may claim to what the file has.
        guard let sizes = tables.first(where: { $0.type == "stsz" || $0.type == "stz2" }) else { return nil }
        var stsz = BoxReader(sizes.body)
        stsz.skip(4)
        let sampleSize = Int(stsz.uint32())  // stz2: reserved bytes, then the bits of each size
        let sizeCount = Int(stsz.uint32())
        guard !stsz.overran, sizeCount == totalSamples else { return nil }
        if sizes.type == "stz2" {
            let bits = sampleSize & 0xFF
            guard [4, 8, 16].contains(bits), (sizeCount * bits + 7) / 8 <= sizes.body.count - 12 else { return nil }
        } else if sampleSize == 0 {
            guard sizeCount * 4 <= sizes.body.count - 12 else { return nil }
        } else {
            guard UInt64(sampleSize * sizeCount) <= fileSize else { return nil }  // below 2^32 × 5·10^7: no overflow
        }
        // Without a sync sample table every sample is a sync sample.
        var sync: [Int]?
        if let syncBox = tables.first(where: { $0.type == "stss" })?.body {
            var stss = BoxReader(syncBox)
            stss.skip(4)
            let count = Int(stss.uint32())
            guard count * 4 <= syncBox.count else { return nil }
            sync = (0..<count).map { _ in Int(stss.uint32()) }.sorted()
            guard !stss.overran else { return nil }
        }
        guard !stts.overran, totalSamples > 0 else { return nil }

        // Walk decode times and composition offsets together, picking out the sync samples.
        var times: [Double] = []
        var sample = 1
        var decodeTime: Int64 = 0
        var decodeEntry = 0
        var decodeLeft = decode.first.map { Int($0.count) } ?? 0
        var compositionEntry = 0
        var compositionLeft = composition.first.map { Int($0.count) } ?? 0
        var syncIndex = 0
        while sample <= totalSamples, syncIndex < sync?.count ?? Int.max {
            while decodeLeft == 0, decodeEntry + 1 < decode.count {
                decodeEntry += 1
                decodeLeft = Int(decode[decodeEntry].count)
            }
            while compositionLeft == 0, compositionEntry + 1 < composition.count {
                compositionEntry += 1
                compositionLeft = Int(composition[compositionEntry].count)
            }
            if sync.map({ $0[syncIndex] == sample }) ?? true {
                let offset = composition.isEmpty ? 0 : composition[compositionEntry].offset
                let presentation = Double(decodeTime + offset - mediaTime) / Double(timescale) + delay
                times.append(presentation)
                syncIndex += 1
            }
            decodeTime += Int64(decode[decodeEntry].delta)
            decodeLeft -= 1
            if !composition.isEmpty { compositionLeft -= 1 }
            sample += 1
        }
        return times.sorted()
    }

    // MARK: Boxes

    package struct Box {
        package let type: String
        package let body: Data
    }

    /// The boxes that follow each other in `data`, each with its body (a slice of `data`).
    package static func children(of data: Data) -> [Box] {
        var boxes: [Box] = []
        var offset = data.startIndex
        while offset + 8 <= data.endIndex {
            var reader = BoxReader(data[offset..<Swift.min(offset + 16, data.endIndex)])
            var size = Int(reader.uint32())
            let type = reader.fourCC()
            var headerLength = 8
            if size == 1 {
                size = Int(clamping: reader.uint64())
                headerLength = 16
            } else if size == 0 {
                size = data.endIndex - offset
            }
            // Overflow-free: a 64-bit size may be anything up to Int.max.
            guard !reader.overran, size >= headerLength, size <= data.endIndex - offset else { break }
            boxes.append(Box(type: type, body: data[(offset + headerLength)..<(offset + size)]))
            offset += size
        }
        return boxes
    }

    /// Big-endian reads that never trap: reading past the end sets ``overran`` and gives zeros.
    struct BoxReader {
        private let data: Data
        private var position: Data.Index
        private(set) var overran = false

        init(_ data: Data) {
            self.data = data
            position = data.startIndex
        }

        mutating func skip(_ count: Int) {
            if position + count > data.endIndex { overran = true }
            position = Swift.min(position + count, data.endIndex)
        }

        mutating func uint8() -> UInt8 {
            guard position < data.endIndex else {
                overran = true
                return 0
            }
            defer { position += 1 }
            return data[position]
        }

        mutating func uint32() -> UInt32 {
            (0..<4).reduce(UInt32(0)) { value, _ in value << 8 | UInt32(uint8()) }
        }

        mutating func uint64() -> UInt64 {
            (0..<8).reduce(UInt64(0)) { value, _ in value << 8 | UInt64(uint8()) }
        }

        mutating func fourCC() -> String {
            String(decoding: (0..<4).map { _ in uint8() }, as: UTF8.self)
        }
    }
}
