import Foundation
import ShoeboxSupport
import Testing

@testable import ShoeboxLibrary
@testable import ShoeboxServer

/// The listings' JSON is written byte by byte (issue 43): it must be exactly what
/// `JSONEncoder` wrote before, so clients, caches and the web app see no change.
@Suite struct JSONBytesTests {
    /// The shapes the routes answered with through `JSONEncoder`.
    struct Page: Encodable {
        let assets: [AssetJSON]
        let next: String?
    }

    struct FetchPage: Encodable {
        let offset: Int
        let count: Int
        let assets: [AssetJSON]
    }

    /// A deterministic generator, so a failure names the same asset on every run.
    struct Generator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func chance(_ one: UInt64) -> Bool { next() % one == 0 }

        mutating func pick<T>(_ values: [T]) -> T { values[Int(next() % UInt64(values.count))] }

        /// Instants from 1200 to 9999, fractions and all, and the odd exact second.
        mutating func date() -> Date {
            let seconds = Double(Int64(next() % 277_000_000_000) - 24_000_000_000)
            let fraction = chance(3) ? 0 : Double(next() % 1_000_000) / 1_000_000
            return Date(timeIntervalSince1970: seconds + fraction)
        }

        mutating func double() -> Double {
            switch next() % 6 {
            case 0: return Double(Int64(next() % 200_000)) - 100_000
            case 1: return -0.0
            case 2: return Double(bitPattern: next() & 0x7FEF_FFFF_FFFF_FFFF) * (chance(2) ? -1 : 1)
            case 3: return Double(next() % 18_000_000) / 100_000 - 90
            case 4: return 9_007_199_254_740_992 * Double(next() % 4 + 1)
            default: return Double(next() % 1_000_000) / 7
            }
        }

        /// Text with what JSON escapes: quotes, backslashes, slashes, control characters,
        /// and characters beyond ASCII.
        mutating func text() -> String {
            let pieces = ["IMG_0001", "\"", "\\", "/", "\n", "\t", "\r", "\u{8}", "\u{c}", "\u{0}", "\u{1f}", "\u{7f}", "é", "東京", "🏔️", " ", "a/b"]
            return (0..<Int(next() % 6)).map { _ in pick(pieces) }.joined()
        }
    }

    static func asset(_ index: Int, _ random: inout Generator) -> AssetJSON {
        let taken = random.date()
        var record = AssetRecord(
            id: Int64(index + 1), localIdentifier: "\(index)-\(random.text())/L0/001", mediaType: random.chance(4) ? 2 : 1,
            mediaSubtypes: Int(random.next() % 16), pixelWidth: Int(random.next() % 10_000), pixelHeight: Int(random.next() % 10_000),
            creationDate: taken, modificationDate: random.date(), addedDate: random.date(),
            latitude: random.chance(2) ? random.double() : nil, longitude: random.chance(2) ? random.double() : nil,
            altitude: random.chance(3) ? random.double() : nil, duration: random.chance(2) ? 0 : random.double(),
            isFavorite: random.chance(2), isHidden: random.chance(5), trashedDate: random.chance(3) ? random.date() : nil,
            originalFilename: random.text() + ".HEIC", contentHash: String(format: "%064llx", random.next()),
            uniformTypeIdentifier: random.pick(["public.heic", "public.jpeg", "com.apple.quicktime-movie"]),
            fileSize: Int(random.next() % 5_000_000_000), creatorClient: random.chance(3) ? random.text() : nil)
        if random.chance(4) {
            record.renderHash = String(format: "%064llx", random.next())
            record.renderUniformTypeIdentifier = "public.jpeg"
            record.renderFileSize = 1_000
            record.contentRevision = Int(random.next() % 5)
        }
        record.originalAssetIdentifier = random.chance(5) ? random.text() : nil
        if random.chance(2) {
            record.timeZoneOffset = Int(random.next() % 100_000) - 50_000
            record.timeZoneIdentifier = random.chance(2) ? random.pick(["Europe/Rome", "Asia/Tokyo", "America/St_Johns"]) : nil
        }
        if random.chance(4) {
            record.companionType = "pairedVideo"
            record.companionHash = String(format: "%064llx", random.next())
            record.companionUniformTypeIdentifier = "com.apple.quicktime-movie"
            record.companionFilename = "IMG.MOV"
            record.companionFileSize = 10
        }
        if random.chance(3) {
            record.burstIdentifier = random.text() + "burst"
            record.representsBurst = random.chance(2)
        }
        if random.chance(3) {
            record.title = random.text()
            record.caption = random.text() + "\n\"é\u{1}"
            record.keywords = [random.text(), "Places/Italy/Rome"].joined(separator: "\n")
            record.rating = Int(random.next() % 5) + 1
            record.label = random.text()
            record.userEditedFields = Int(random.next() % 4)
        }
        var json = AssetJSON(record.asset)
        if json.representsBurst == true, random.chance(2) { json.burstCount = Int(random.next() % 40) }
        if random.chance(3) { json.thumbnailPending = true }
        let owner = { (random: inout Generator) in AssetJSON.Owner(id: random.text(), name: random.text(), displayName: random.text()) }
        if random.chance(4) { json.sharedBy = owner(&random) }
        if random.chance(3) {
            json.library = "shared"
            if random.chance(2) { json.addedBy = owner(&random) }
            if random.chance(2) { json.deletedBy = owner(&random) }
        }
        return json
    }

    @Test("An asset page is the bytes JSONEncoder wrote: every optional present and absent, escapes, numbers and dates")
    func pagesAreWhatTheEncoderWrote() throws {
        var random = Generator(state: 43)
        for round in 0..<400 {
            let assets = (0..<Int(random.next() % 4)).map { Self.asset(round * 10 + $0, &random) }
            for asset in assets {
                let expected = try JSONResponse.encoder.encode(asset)
                var json = JSONBytes()
                asset.encode(into: &json)
                #expect(String(decoding: json.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
            }
            let next = random.chance(2) ? random.text() : nil
            let page = try JSONResponse.encoder.encode(Page(assets: assets, next: next))
            #expect(Data(AssetJSON.pageBytes(assets, next: next)) == page)
            let offset = Int(random.next() % 1_000)
            let count = offset + Int(random.next() % 1_000)
            let fetchPage = try JSONResponse.encoder.encode(FetchPage(offset: offset, count: count, assets: assets))
            #expect(Data(AssetJSON.fetchPageBytes(assets, offset: offset, count: count)) == fetchPage)
        }
    }

    @Test("Numbers are printed as JSONEncoder prints them: whole ones without a fraction, -0, and the shortest text")
    func numbers() throws {
        var random = Generator(state: 7)
        let fixed: [Double] = [
            0, -0.0, 1, -1, 0.1, 1e-7, 1e21, 1e22, 123456789012345.6, 9_007_199_254_740_991, 9_007_199_254_740_992, -9_007_199_254_740_993,
            .leastNonzeroMagnitude, .greatestFiniteMagnitude, 41.8902, 12.4922,
        ]
        for value in fixed + (0..<20_000).map({ _ in random.double() }) {
            var json = JSONBytes()
            json.beginArray()
            json.double(value)
            json.int(Int(truncatingIfNeeded: random.next()))
            json.endArray()
            let text = String(decoding: json.bytes, as: UTF8.self)
            let ints = text.dropFirst().dropLast().split(separator: ",", maxSplits: 1)
            let expected = try JSONResponse.encoder.encode([value])
            #expect("[\(ints[0])]" == String(decoding: expected, as: UTF8.self), "\(value)")
            #expect(Int(ints[1]) != nil)
        }
    }

    @Test("Dates as ISO 8601 in UTC: the calendar's own text for every instant, before the Gregorian calendar's start included")
    func dates() throws {
        var random = Generator(state: 1_583)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let edges = [-12_212_553_600.0, -12_212_553_600.5, -12_212_553_601, 253_402_300_799.9, 253_402_300_800, 0, -0.5, -1, 951_782_400, 951_868_800]
        for seconds in edges + (0..<20_000).map({ _ in random.date().timeIntervalSince1970 }) {
            let date = Date(timeIntervalSince1970: seconds)
            var json = JSONBytes()
            json.date(date)
            let expected = try JSONResponse.encoder.encode([date])
            #expect(String(decoding: json.bytes, as: UTF8.self) == String(decoding: expected.dropFirst().dropLast(), as: UTF8.self), "\(seconds)")
            if let text = ISO8601Text.string(date) {
                let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
                let formatted = String(
                    format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!)
                #expect(text == formatted, "\(seconds)")
            } else {
                #expect(seconds < -12_212_553_600 || seconds >= 253_402_300_800, "only far dates are left to Foundation: \(seconds)")
            }
        }
    }
}
