import Foundation
import ShoeboxImaging
import Testing

/// Builds little-endian or big-endian EXIF blocks by hand, including broken ones.
struct EXIFBuilder {
    enum Value {
        case ascii(String)
        case short(UInt16)
        case long(UInt32)
        case rationals([(UInt32, UInt32)])
        case byte(UInt8)
        case undefined([UInt8])
    }

    var bigEndian = false
    var ifd0: [(UInt16, Value)] = []
    var exif: [(UInt16, Value)] = []
    var gps: [(UInt16, Value)] = []

    private func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private func u32(_ v: UInt32) -> [UInt8] {
        let b = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        return bigEndian ? b : b.reversed()
    }

    /// Lays out IFD0, then the Exif IFD, then the GPS IFD, each followed by its out-of-line values.
    func build(preamble: Bool = true) -> Data {
        var out: [UInt8] = bigEndian ? [0x4D, 0x4D] + u16(42) + u32(8) : [0x49, 0x49] + u16(42) + u32(8)
        var directories = [ifd0, exif, gps]
        let pointerTags: [UInt16] = [0x8769, 0x8825]
        // Reserve pointer entries in IFD0.
        if !exif.isEmpty { directories[0].append((0x8769, .long(0))) }
        if !gps.isEmpty { directories[0].append((0x8825, .long(0))) }
        var pointerPositions: [UInt16: Int] = [:]
        var starts: [Int] = []
        for (index, directory) in directories.enumerated() where index == 0 || !directory.isEmpty {
            starts.append(out.count)
            let entriesStart = out.count + 2
            let dataStart = entriesStart + directory.count * 12 + 4
            var data: [UInt8] = []
            out += u16(UInt16(directory.count))
            for (entryIndex, (tag, value)) in directory.enumerated() {
                let (type, count, bytes): (UInt16, UInt32, [UInt8]) =
                    switch value {
                    case .ascii(let s): (2, UInt32(s.utf8.count + 1), Array(s.utf8) + [0])
                    case .short(let v): (3, 1, u16(v))
                    case .long(let v): (4, 1, u32(v))
                    case .byte(let v): (1, 1, [v])
                    case .undefined(let bytes): (7, UInt32(bytes.count), bytes)
                    case .rationals(let list): (5, UInt32(list.count), list.flatMap { u32($0.0) + u32($0.1) })
                    }
                out += u16(tag) + u16(type) + u32(count)
                if pointerTags.contains(tag), index == 0 { pointerPositions[tag] = entriesStart + entryIndex * 12 + 8 }
                if bytes.count <= 4 {
                    out += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
                } else {
                    out += u32(UInt32(dataStart + data.count))
                    data += bytes
                    if data.count % 2 == 1 { data.append(0) }
                }
            }
            out += u32(0) + data
        }
        var next = 1
        for tag in pointerTags {
            guard let position = pointerPositions[tag], next < starts.count else { continue }
            let value = u32(UInt32(starts[next]))
            out.replaceSubrange(position..<position + 4, with: value)
            next += 1
        }
        return Data((preamble ? Array("Exif".utf8) + [0, 0] : []) + out)
    }
}

@Suite struct ImageMetadataTests {
    static let full: EXIFBuilder = {
        var builder = EXIFBuilder()
        builder.ifd0 = [(0x010F, .ascii("Canon  ")), (0x0110, .ascii("EOS R5")), (0x0112, .short(6))]
        builder.exif = [
            (0x9003, .ascii("2024:07:01 18:30:05")), (0x9011, .ascii("-05:30")), (0x9291, .ascii("25")),
            (0x829A, .rationals([(1, 250)])), (0x829D, .rationals([(28, 10)])), (0x8827, .short(400)),
            (0x920A, .rationals([(50, 1)])), (0xA434, .ascii("RF50mm F1.8 STM")), (0x9209, .short(0x19)),
        ]
        builder.gps = [
            (0x0001, .ascii("S")), (0x0002, .rationals([(33, 1), (51, 1), (3540, 100)])),
            (0x0003, .ascii("W")), (0x0004, .rationals([(151, 1), (12, 1), (3000, 100)])),
            (0x0005, .byte(1)), (0x0006, .rationals([(125, 10)])),
        ]
        return builder
    }()

    @Test("Reads every field, in either byte order", arguments: [false, true])
    func readsFields(bigEndian: Bool) throws {
        var builder = Self.full
        builder.bigEndian = bigEndian
        let metadata = ImageMetadata(exif: builder.build())
        #expect(metadata.make == "Canon")
        #expect(metadata.model == "EOS R5")
        #expect(metadata.orientation == .right)
        #expect(metadata.dateTimeOriginal?.iso8601String == "2024-07-01T18:30:05-05:30")
        #expect(metadata.dateTimeOriginal?.fractionalSecond == 0.25)
        #expect(metadata.exposureTime == 0.004)
        #expect(metadata.fNumber == 2.8)
        #expect(metadata.isoSpeed == 400)
        #expect(metadata.focalLength == 50)
        #expect(metadata.lensModel == "RF50mm F1.8 STM")
        #expect(metadata.flashFired == true)
        let latitude = try #require(metadata.latitude)
        let longitude = try #require(metadata.longitude)
        #expect(abs(latitude - -(33 + 51.0 / 60 + 35.4 / 3600)) < 1e-9)
        #expect(abs(longitude - -(151 + 12.0 / 60 + 30.0 / 3600)) < 1e-9)
        #expect(metadata.altitude == -12.5)
    }

    @Test func dateWithOffsetIsAnInstant() throws {
        let metadata = ImageMetadata(exif: Self.full.build())
        let date = try #require(metadata.dateTimeOriginal?.date())
        // 18:30:05.25 at -05:30 is 00:00:05.25 UTC the next day.
        #expect(abs(date.timeIntervalSince1970 - 1_719_878_405.25) < 0.001)
    }

    @Test(
        "Garbage reads as nil, not as values",
        arguments: [
            "0000:00:00 00:00:00", "    :  :     :  :  ", "2024:13:01 10:00:00", "yesterday", "2024:02:30 25:00:00",
        ])
    func garbageDates(_ text: String) {
        var builder = EXIFBuilder()
        builder.exif = [(0x9003, .ascii(text))]
        #expect(ImageMetadata(exif: builder.build()).dateTimeOriginal == nil)
    }

    @Test func zeroDenominatorsAndBadOrientationsAreNil() {
        var builder = EXIFBuilder()
        builder.ifd0 = [(0x0112, .short(9)), (0x010F, .ascii("\u{01}\u{02}junk"))]
        builder.exif = [(0x829A, .rationals([(1, 0)])), (0x829D, .rationals([(0, 0)]))]
        builder.gps = [(0x0002, .rationals([(91, 0), (0, 0), (0, 0)])), (0x0004, .rationals([(200, 1), (0, 1), (0, 1)]))]
        let metadata = ImageMetadata(exif: builder.build())
        #expect(metadata.orientation == nil)
        #expect(metadata.make == nil)
        #expect(metadata.exposureTime == nil)
        #expect(metadata.fNumber == nil)
        #expect(metadata.latitude == nil)
        #expect(metadata.longitude == nil, "200° is not a longitude")
    }

    @Test func truncatedAndHostileBlocksNeverFail() {
        let good = Self.full.build()
        // Every prefix, and a block whose IFD points at itself.
        for length in stride(from: 0, through: good.count, by: 3) {
            _ = ImageMetadata(exif: good.prefix(length))
        }
        var looping = Array(good)
        looping.replaceSubrange(10..<14, with: [8, 0, 0, 0])
        _ = ImageMetadata(exif: Data(looping))
        let huge = Data("Exif\0\0II*\0".utf8) + Data([0xFF, 0xFF, 0xFF, 0x7F])
        #expect(ImageMetadata(exif: huge) == ImageMetadata())
        #expect(ImageMetadata(exif: Data("not exif".utf8)) == ImageMetadata())
    }

    @Test("Merging takes every field the other metadata holds (a field added to the type and left out of the merge fails here)")
    func mergingTakesEveryField() {
        var full = ImageMetadata()
        full.orientation = .left
        (full.make, full.model, full.lensMake, full.lensModel) = ("Make", "Model", "Lens Make", "Lens")
        (full.bodySerialNumber, full.software, full.colorProfileName) = ("123", "Software", "Display P3")
        full.dateTimeOriginal = ImageMetadata.DateTime(year: 2020, month: 1, day: 2, hour: 3, minute: 4, second: 5)
        (full.latitude, full.longitude, full.altitude) = (1, 2, 3)
        (full.exposureTime, full.fNumber, full.isoSpeed, full.focalLength, full.flashFired) = (0.01, 2, 100, 50, true)
        (full.contentIdentifier, full.burstIdentifier, full.continuousDrive) = ("C", "B", true)
        let unset = Mirror(reflecting: full).children.filter { "\($0.value)" == "nil" }.map { $0.label ?? "?" }
        #expect(unset.isEmpty, "this test sets every field: \(unset) left out")
        #expect(ImageMetadata().merging(full) == full)
        var other = ImageMetadata()
        other.model = "Other"
        #expect(full.merging(other).model == "Other" && full.merging(other).make == "Make")
    }

    @Test("EXIF tags a writer put in IFD0 itself (paint.net's TIFFs) are read; an Exif IFD's stand over them")
    func exifTagsInIFD0() {
        var builder = EXIFBuilder()
        builder.ifd0 = [
            (0x010F, .ascii("CASIO")), (0x9003, .ascii("2006:02:14 22:00:58")), (0x829A, .rationals([(1, 160)])),
            (0x829D, .rationals([(62, 10)])), (0x8827, .short(50)),
        ]
        let flat = ImageMetadata(exif: builder.build())
        #expect(flat.dateTimeOriginal?.exifString == "2006:02:14 22:00:58")
        #expect(flat.exposureTime == 1.0 / 160 && flat.fNumber == 6.2 && flat.isoSpeed == 50)
        builder.exif = [(0x8827, .short(400))]
        let both = ImageMetadata(exif: builder.build())
        #expect(both.isoSpeed == 400 && both.fNumber == 6.2, "the Exif IFD's ISO, IFD0's f-number")
    }

    @Test func withoutPreamble() {
        #expect(ImageMetadata(exif: Self.full.build(preamble: false)).model == "EOS R5")
    }

    @Test func offsets() {
        var builder = EXIFBuilder()
        builder.exif = [(0x9003, .ascii("2024:07:01 18:30:05")), (0x9011, .ascii("+09:00"))]
        #expect(ImageMetadata(exif: builder.build()).dateTimeOriginal?.utcOffset == 9 * 3600)
        builder.exif = [(0x9003, .ascii("2024:07:01 18:30:05")), (0x9011, .ascii("bogus"))]
        let dateTime = ImageMetadata(exif: builder.build()).dateTimeOriginal
        #expect(dateTime?.utcOffset == nil)
        #expect(dateTime?.iso8601String == "2024-07-01T18:30:05")
    }

    /// `Int("+0")` and `Int("-9")` parse: an offset's hours and minutes must be digits (found by
    /// `scripts/fuzz xmp`, which read `+09:+0` as nine hours).
    @Test(arguments: ["+09:+0", "+-9:00", "-+1:30", "+0-:30", "+09:-5"])
    func offsetsWithSignsInsideAreNotOffsets(_ text: String) {
        var builder = EXIFBuilder()
        builder.exif = [(0x9003, .ascii("2024:07:01 18:30:05")), (0x9011, .ascii(text))]
        #expect(ImageMetadata(exif: builder.build()).dateTimeOriginal?.utcOffset == nil)
        var metadata = ImageMetadata()
        metadata.mergeXMP(Data("<exif:DateTimeOriginal>2024-07-01T18:30:05\(text)</exif:DateTimeOriginal>".utf8))
        #expect(metadata.dateTimeOriginal == nil, "an XMP date with a damaged offset is no moment")
    }
}
