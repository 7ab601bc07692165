import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxImaging

/// `LocationRemoval` takes the place out of photos and movies and leaves every other byte: what
/// exiftool and ffprobe read afterwards has no GPS, no place names, no ISO 6709 location; the rest
/// reads as before and the pixels decode the same.
@Suite struct LocationRemovalTests {
    static let placeTags = [
        "GPSLatitude", "GPSLongitude", "GPSAltitude", "GPSPosition", "XMP:GPSLatitude", "XMP:City", "XMP:Country",
        "Location", "GPSCoordinates",
    ]

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-noplace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// What exiftool reads of `tags` (empty values left out).
    static func read(_ url: URL, _ tags: [String]) throws -> [String: String] {
        let result = try ChildProcess.run("exiftool", ["-s", "-n"] + tags.map { "-\($0)" } + [url.path])
        var read: [String: String] = [:]
        for line in result.standardOutput.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, !parts[1].isEmpty { read[parts[0]] = parts[1] }
        }
        return read
    }

    static var placed: ImageMetadata {
        var metadata = ImageMetadata()
        (metadata.make, metadata.model) = ("Shoebox", "Place Test")
        metadata.dateTimeOriginal = ImageMetadata.DateTime(year: 2023, month: 4, day: 5, hour: 6, minute: 7, second: 8)
        (metadata.latitude, metadata.longitude, metadata.altitude) = (41.8902, 12.4922, 21)
        return metadata
    }

    @Test("JPEG, PNG and HEIC lose their GPS and XMP places and keep the rest", arguments: [ImageFormat.jpeg, .png, .heic])
    func photos(format: ImageFormat) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("placed.\(format.fileExtension)")
        let image = try SyntheticPhoto(width: 64, height: 48, seed: 3).image()
        // libvips's PNG saver writes no EXIF of its own: `embeddingMetadata` puts an eXIf chunk in.
        let encoded = try image.writingMetadata(Self.placed).encoded(as: format)
        try (format == .png ? Image.embeddingMetadata(Self.placed, in: encoded) : encoded).write(to: url)
        if format != .heic {
            // XMP too, as editors write it: GPS properties and place names.
            let xmp = try ChildProcess.run(
                "exiftool",
                [
                    "-q", "-overwrite_original", "-XMP-exif:GPSLatitude=41.8902", "-XMP-exif:GPSLongitude=12.4922",
                    "-XMP-photoshop:City=Rome", "-XMP-photoshop:Country=Italy", url.path,
                ])
            try #require(xmp.status == 0, "\(xmp.standardError)")
        }
        let before = try Self.read(url, ["Make", "Model", "DateTimeOriginal"] + Self.placeTags)
        #expect(before["GPSLatitude"] != nil, "\(before)")
        let original = try Data(contentsOf: url)
        let cleaned = LocationRemoval.removingLocation(from: original)
        #expect(cleaned.count == original.count)
        let out = folder.appendingPathComponent("clean.\(format.fileExtension)")
        try cleaned.write(to: out)
        let after = try Self.read(out, ["Make", "Model", "DateTimeOriginal"] + Self.placeTags)
        for tag in Self.placeTags { #expect(after[tag] == nil, "\(format): \(tag) is still \(after[tag] ?? "")") }
        #expect(after["Make"] == "Shoebox" && after["Model"] == "Place Test" && after["DateTimeOriginal"] == before["DateTimeOriginal"], "\(after)")
        let opened = try Image(data: cleaned)
        #expect(opened.metadata.latitude == nil && opened.metadata.make == "Shoebox")
        #expect(try opened.bitmap().bytes == (try Image(data: original).bitmap().bytes), "the pixels are the same")
        // A file without a place is given back as it is.
        #expect(LocationRemoval.patches(for: try image.encoded(as: format, options: ImageEncodingOptions(keepsMetadata: false))).isEmpty)
    }

    @Test("A raw file's GPS directory goes; LibRaw still reads it")
    func raw() throws {
        var metadata = Self.placed
        metadata.exposureTime = 1.0 / 100
        let writer = RawFileWriter(
            width: 64, height: 48, photosites: [UInt16](repeating: 900, count: 64 * 48), pattern: .rggb, whiteLevel: 4_095,
            make: "Shoebox", model: "Raw Place", metadata: metadata)
        let data = writer.data()
        #expect(try Image(data: data).metadata.latitude != nil)
        let cleaned = LocationRemoval.removingLocation(from: data)
        let image = try Image(data: cleaned)
        #expect(image.metadata.latitude == nil && image.metadata.longitude == nil && image.metadata.model == "Raw Place")
        #expect(image.metadata.exposureTime == 1.0 / 100)
        _ = try image.decoded()
    }

    @Test("Movies lose QuickTime's ©xyz and Apple's location keys", arguments: ["mov-udta", "mov-apple"])
    func movies(kind: String) async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var movie = SyntheticMovie(duration: 1, width: 160, height: 120)
        if kind == "mov-udta" {
            movie.metadata = ["location": "+41.8902+012.4922/", "title": "Colosseum"]
        } else {
            movie.metadata = ["com.apple.quicktime.location.ISO6709": "+41.8902+012.4922+021.000/", "com.apple.quicktime.make": "Apple"]
        }
        let url = try movie.write(to: folder.appendingPathComponent("placed.mov"))
        let before = try Self.read(url, ["GPSCoordinates", "GPSPosition", "Make", "Title"])
        #expect(before["GPSCoordinates"] != nil || before["GPSPosition"] != nil, "\(before)")
        let original = try Data(contentsOf: url)
        let cleaned = LocationRemoval.removingLocation(from: original)
        #expect(cleaned.count == original.count && cleaned != original)
        let out = folder.appendingPathComponent("clean.mov")
        try cleaned.write(to: out)
        let after = try Self.read(out, ["GPSCoordinates", "GPSPosition", "GPSLatitude", "Make", "Title"])
        #expect(after["GPSCoordinates"] == nil && after["GPSPosition"] == nil && after["GPSLatitude"] == nil, "\(after)")
        #expect(after["Make"] == before["Make"] && after["Title"] == before["Title"], "the other tags stay: \(after)")
        let probe = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "json", out.path])
        #expect(probe.status == 0 && !probe.standardOutput.contains("41.8902"), "\(probe.standardOutput)")
    }

    /// Every way a movie carries a place: what ffmpeg writes for each container (3GPP `loci` in
    /// MP4 and 3GP, `mdta` keys, Matroska and WebM tags), XMP as exiftool writes it into MP4's
    /// `uuid` box and QuickTime's `XMP_`, and a remux that copies the place on (as trims and
    /// playback renditions do).
    static let movieKinds = ["3gp-loci", "mp4-loci", "mp4-mdta", "webm-tag", "mkv-tag", "mp4-xmp", "mov-xmp", "mov-remux"]

    /// Writes a one-second movie of `kind` with a place (41.8902, 12.4922) and a title.
    static func placedMovie(_ kind: String, in folder: URL) throws -> URL {
        let ext = String(kind.prefix { $0 != "-" })
        let url = folder.appendingPathComponent("placed.\(ext)")
        let codec = ext == "webm" ? ["-c:v", "libvpx"] : ["-c:v", "libx264", "-pix_fmt", "yuv420p"]
        var arguments = ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-t", "1"] + codec
        arguments += ["-metadata", "title=Colosseum", "-metadata", "creation_time=2021-06-05T10:11:12Z"]
        if !kind.hasSuffix("xmp") { arguments += ["-metadata", "location=+41.8902+012.4922/"] }
        if kind == "mp4-mdta" { arguments += ["-movflags", "use_metadata_tags"] }
        if kind == "3gp-loci" { arguments += ["-f", "3gp"] }
        let source = kind == "mov-remux" ? folder.appendingPathComponent("source.mov") : url
        let made = try ChildProcess.run("ffmpeg", arguments + ["-y", source.path])
        try #require(made.status == 0, "\(made.standardError)")
        if kind.hasSuffix("xmp") {
            let xmp = try ChildProcess.run(
                "exiftool",
                ["-q", "-overwrite_original", "-XMP-exif:GPSLatitude=41.8902", "-XMP-exif:GPSLongitude=12.4922", "-XMP-photoshop:City=Rome", url.path])
            try #require(xmp.status == 0, "\(xmp.standardError)")
        }
        if kind == "mov-remux" {
            let remux = try ChildProcess.run("ffmpeg", ["-v", "error", "-i", source.path, "-c", "copy", "-map_metadata", "0", "-y", url.path])
            try #require(remux.status == 0, "\(remux.standardError)")
        }
        return url
    }

    /// Every tag exiftool and ffprobe read, as text.
    static func everything(_ url: URL) throws -> String {
        let exiftool = try ChildProcess.run("exiftool", ["-a", "-G1", "-s", "-n", "-ee", url.path])
        let probe = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "format_tags:stream_tags", "-of", "compact", url.path])
        return exiftool.standardOutput + probe.standardOutput
    }

    @Test("Movies lose their place in every container and box that carries one", arguments: movieKinds)
    func moviePlaces(kind: String) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try Self.placedMovie(kind, in: folder)
        let before = try Self.everything(url)
        #expect(before.contains("41.89"), "\(kind) has no place to take out: \(before)")
        let original = try Data(contentsOf: url)
        let patches = try LocationRemoval.patches(forFileAt: url)
        let cleaned = LocationRemoval.removingLocation(from: original)
        #expect(cleaned.count == original.count && cleaned != original && !patches.isEmpty)
        let out = folder.appendingPathComponent("clean.\(url.pathExtension)")
        try cleaned.write(to: out)
        let after = try Self.everything(out)
        #expect(!after.contains("41.89") && !after.contains("12.49") && !after.contains("Rome"), "\(kind) keeps its place: \(after)")
        #expect(after.contains("Colosseum") || kind.hasSuffix("xmp"), "\(kind) lost its title: \(after)")
        // Still a movie every reader opens, and nothing more to take out.
        let decode = try ChildProcess.run("ffmpeg", ["-v", "error", "-i", out.path, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.standardError.isEmpty, "\(decode.standardError)")
        #expect(LocationRemoval.patches(for: cleaned).isEmpty)
    }

    /// EXIF as cameras put it in a movie: `Exif\0\0` and a TIFF block in a maker's box in the
    /// movie's user data, or in a `uuid` box at the top. exiftool reads the block itself (cut out
    /// at the same offsets: the strip keeps every offset) before and after.
    @Test("GPS in EXIF inside a movie goes too (a maker's user-data box, a uuid box)", arguments: ["udta", "uuid"])
    func movieEXIF(container: String) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = folder.appendingPathComponent("exif.mp4")
        let made = try ChildProcess.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                "-metadata", "title=Colosseum", "-y", movie.path,
            ])
        try #require(made.status == 0, "\(made.standardError)")
        let jpeg = try SyntheticPhoto(width: 32, height: 24, seed: 5).image().writingMetadata(Self.placed).encoded(as: .jpeg)
        let exif = try #require(Self.exifSegment(jpeg), "the JPEG has an EXIF segment")
        let (placed, payload) =
            container == "uuid"
            ? try Self.addingBox("uuid", body: Data(repeating: 0x5A, count: 16) + exif, to: try Data(contentsOf: movie), inUserData: false)
            : try Self.addingBox("XEXF", body: exif, to: try Data(contentsOf: movie), inUserData: true)
        let block = { (data: Data) throws -> [String: String] in
            let url = folder.appendingPathComponent("block-\(UUID().uuidString).exif")
            try Data(data).subdata(in: payload).dropFirst(6).write(to: url)  // the TIFF block alone
            return try Self.read(url, ["GPSLatitude", "GPSLongitude", "Make"])
        }
        let before = try block(placed)
        #expect(before["GPSLatitude"]?.hasPrefix("41.89") == true && before["Make"] == "Shoebox", "the block inside has a place: \(before)")
        let cleaned = LocationRemoval.removingLocation(from: placed)
        #expect(cleaned.count == placed.count)
        let after = try block(cleaned)
        #expect(after["GPSLatitude"] == nil && after["GPSLongitude"] == nil, "the \(container) box keeps its place: \(after)")
        #expect(after["Make"] == "Shoebox", "the rest of the EXIF stays: \(after)")
        let out = folder.appendingPathComponent("clean.mp4")
        try cleaned.write(to: out)
        #expect(try Self.everything(out).contains("Colosseum"))
        let decode = try ChildProcess.run("ffmpeg", ["-v", "error", "-i", out.path, "-f", "null", "-"])
        #expect(decode.status == 0, "\(decode.standardError)")
        #expect(LocationRemoval.patches(for: cleaned).isEmpty)
    }

    /// A JPEG's APP1 EXIF segment's body: `Exif\0\0` and the TIFF block.
    static func exifSegment(_ jpeg: Data) -> Data? {
        let bytes = [UInt8](jpeg)
        var at = 2
        while at + 4 <= bytes.count, bytes[at] == 0xFF {
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            let body = at + 4..<min(bytes.count, at + 2 + length)
            if bytes[at + 1] == 0xE1, bytes[body].starts(with: Array("Exif".utf8) + [0, 0]) { return Data(bytes[body]) }
            at += 2 + length
        }
        return nil
    }

    /// `movie` with a box of `type` around `body`: at the end of the file, or (`inUserData`) at
    /// the end of the movie box's user data (the movie box, as ffmpeg writes it, last in the file,
    /// so no media offset moves). Also answers where `body`'s own bytes after `type`'s header lie.
    static func addingBox(_ type: String, body: Data, to movie: Data, inUserData: Bool) throws -> (Data, Range<Int>) {
        func size(_ data: Data, _ at: Int) -> Int { data[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        func setSize(_ data: inout Data, _ at: Int, _ value: Int) {
            for index in 0..<4 { data[at + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
        }
        func boxes(_ data: Data, _ range: Range<Int>) -> [(type: String, range: Range<Int>)] {
            var found: [(type: String, range: Range<Int>)] = []
            var at = range.lowerBound
            while at + 8 <= range.upperBound {
                var length = size(data, at)
                if length == 1 { length = data[at + 8..<at + 16].reduce(0) { $0 << 8 | Int($1) } }
                if length == 0 { length = range.upperBound - at }
                guard length >= 8, at + length <= range.upperBound else { break }
                found.append((String(decoding: data[at + 4..<at + 8], as: UTF8.self), at..<at + length))
                at += length
            }
            return found
        }
        var data = Data(movie)
        var box = Data(count: 4) + Data(type.utf8) + body
        setSize(&box, 0, box.count)
        let prefix = box.count - body.count
        guard inUserData else {
            let start = data.count
            data += box
            return (data, start + prefix + (type == "uuid" ? 16 : 0)..<data.count)
        }
        let moov = try #require(boxes(data, 0..<data.count).last { $0.type == "moov" })
        try #require(moov.range.upperBound == data.count, "the movie box is last")
        let udta = try #require(boxes(data, moov.range.lowerBound + 8..<moov.range.upperBound).first { $0.type == "udta" })
        data.insert(contentsOf: box, at: udta.range.upperBound)
        setSize(&data, udta.range.lowerBound, udta.range.count + box.count)
        setSize(&data, moov.range.lowerBound, moov.range.count + box.count)
        return (data, udta.range.upperBound + prefix..<udta.range.upperBound + box.count)
    }

    @Test("With capture details a movie also loses when and with what it was made", arguments: ["mp4-loci", "mp4-mdta", "mkv-tag"])
    func movieDetails(kind: String) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try Self.placedMovie(kind, in: folder)
        #expect(try Self.everything(url).contains("2021"))
        let cleaned = LocationRemoval.removingLocation(from: try Data(contentsOf: url), includingCaptureDetails: true)
        let out = folder.appendingPathComponent("clean.\(url.pathExtension)")
        try cleaned.write(to: out)
        let after = try Self.everything(out)
        #expect(!after.contains("2021") && !after.contains("41.89"), "\(kind) keeps a date or a place: \(after)")
        #expect(after.contains("Colosseum"), "\(kind) lost its title: \(after)")
        let decode = try ChildProcess.run("ffmpeg", ["-v", "error", "-i", out.path, "-f", "null", "-"])
        #expect(decode.status == 0, "\(decode.standardError)")
    }

    @Test("IPTC place names and XMP without its usual wrapper go too")
    func iptcAndBareXMP() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("iptc.jpg")
        try SyntheticPhoto(width: 64, height: 48, seed: 4).image().encoded(as: .jpeg).write(to: url)
        let iptc = try ChildProcess.run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-IPTC:City=Roma", "-IPTC:Sub-location=Colosseo", "-IPTC:Province-State=Lazio",
                "-IPTC:Country-PrimaryLocationName=Italia", "-IPTC:Country-PrimaryLocationCode=ITA", "-IPTC:Headline=Kept", url.path,
            ])
        try #require(iptc.status == 0, "\(iptc.standardError)")
        let cleaned = LocationRemoval.removingLocation(from: try Data(contentsOf: url))
        let out = folder.appendingPathComponent("clean.jpg")
        try cleaned.write(to: out)
        let after = try Self.everything(out)
        for name in ["Roma", "Colosseo", "Lazio", "Italia", "ITA"] { #expect(!after.contains(name), "\(name) is still there: \(after)") }
        #expect(after.contains("Kept"))
        // XMP as `x:xapmeta` and as a bare `rdf:RDF`: Shoebox reads the place of both, so both lose it.
        for wrapper in ["xapmeta", "bare"] {
            let description =
                #"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="41,53.4N" exif:GPSLongitude="12,29.5E"/></rdf:RDF>"#
            let packet = wrapper == "bare" ? description : #"<x:xapmeta xmlns:x="adobe:ns:meta/">"# + description + "</x:xapmeta>"
            var metadata = ImageMetadata()
            metadata.mergeXMP(Data(packet.utf8))
            #expect(metadata.latitude != nil, "Shoebox reads the \(wrapper) packet's place")
            let blanked = LocationRemoval.removingLocation(from: Data(("prefix " + packet + " suffix").utf8))
            var after = ImageMetadata()
            after.mergeXMP(blanked)
            #expect(after.latitude == nil && !String(decoding: blanked, as: UTF8.self).contains("41,53"), "\(wrapper)")
        }
    }

    @Test("A large file is read where it is, not copied into memory")
    func largeFilesAreNotCopied() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A JPEG with a place, then 1 GiB more (a hole in the file: no disk, all zeros). The peak is
        // the whole process's, and the tests running beside this one add to it (170 MiB was seen):
        // the file is large enough that one copy of it (4, before) stands out over that.
        let url = folder.appendingPathComponent("large.jpg")
        try SyntheticPhoto(width: 64, height: 48, seed: 5).image().writingMetadata(Self.placed).encoded(as: .jpeg).write(to: url)
        let size = 1 << 30
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
        let pid = getpid()
        try ProcessMemory.resetPeak(of: pid)
        let resident = try ProcessMemory.bytes("VmRSS", of: pid)
        let patches = try LocationRemoval.patches(forFileAt: url)
        let peak = try ProcessMemory.bytes("VmHWM", of: pid)
        #expect(!patches.isEmpty && patches.allSatisfy { $0.offset < 1 << 20 })
        // The mapped pages read count once; a copy (or four, as before) would count again.
        #expect(peak - resident < size + (512 << 20), "the peak grew by \((peak - resident) >> 20) MiB for a \(size >> 20) MiB file")
    }

    @Test("The corpus's photos with GPS all lose it and still decode")
    func corpusPhotos() throws {
        let corpus = try #require(Corpus.locate(), "the shared corpus is absent")
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var checked = 0
        for row in try corpus.expectedImages() where row.latitude != nil && row.decodesFully {
            let data = try Data(contentsOf: corpus.url(row.path))
            let cleaned = LocationRemoval.removingLocation(from: data)
            let image = try Image(data: cleaned)
            #expect(image.metadata.latitude == nil, "\(row.path) still has a place")
            #expect(image.metadata.make == (try Image(data: data)).metadata.make, "\(row.path)")
            _ = try image.decoded()
            checked += 1
        }
        #expect(checked >= 10, "only \(checked) corpus photos with a place")
    }

    /// A little-endian TIFF whose IFD0 holds a Make and `pointers` GPS pointers, each to its own
    /// GPS directory with a latitude out of line.
    static func tiff(gpsPointers pointers: Int) -> Data {
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]
        func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16) }
        let entries = 1 + pointers
        let ifdEnd = 8 + 2 + entries * 12 + 4
        let gpsSize = 2 + 12 + 4 + 24  // one entry, the next offset, three RATIONALs
        bytes += u16(entries)
        bytes += u16(0x010F) + u16(2) + u32(4) + Array("Cam\0".utf8)  // Make, inline
        for index in 0..<pointers { bytes += u16(0x8825) + u16(4) + u32(1) + u32(ifdEnd + index * gpsSize) }
        bytes += u32(0)
        for index in 0..<pointers {
            let at = ifdEnd + index * gpsSize
            bytes += u16(1) + u16(0x0002) + u16(5) + u32(3) + u32(at + 18) + u32(0)  // GPSLatitude
            bytes += u32(41) + u32(1) + u32(53) + u32(1) + u32(24) + u32(1)
        }
        return Data(bytes)
    }

    @Test("A cleaned file has nothing more to take out: every GPS pointer goes at once, a place a blanked neighbour uncovers goes too")
    func cleanedOnce() throws {
        let doubled = Self.tiff(gpsPointers: 2)
        let cleaned = LocationRemoval.removingLocation(from: doubled)
        #expect(cleaned != doubled)
        #expect(LocationRemoval.patches(for: cleaned).isEmpty)
        let reader = try #require(TIFFDirectoryReader(cleaned))
        let ifd0 = reader.directory(at: reader.firstDirectoryOffset)
        #expect(ifd0[0x8825] == nil)
        #expect(reader.string(ifd0[0x010F]) == "Cam")
        // No latitude's numbers are left anywhere.
        #expect(cleaned.range(of: Data([41, 0, 0, 0, 1, 0, 0, 0, 53])) == nil)
        // An XMP property stuck to the one before it is a name only once that one is blanked.
        let xmp = Data(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:Description photoshop:City="Rome"exif:GPSLatitude="41,53.4N"/></x:xmpmeta>"#.utf8)
        let blanked = LocationRemoval.removingLocation(from: xmp)
        #expect(LocationRemoval.patches(for: blanked).isEmpty)
        #expect(String(decoding: blanked, as: UTF8.self).contains("41") == false)
        // Patches lie apart, in order, and rebuild the cleaned file.
        let patches = LocationRemoval.patches(for: doubled)
        for (one, next) in zip(patches, patches.dropFirst()) { #expect(one.offset + one.bytes.count < next.offset) }
    }
}
