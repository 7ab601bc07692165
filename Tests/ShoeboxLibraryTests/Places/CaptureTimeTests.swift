import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary
@testable import ShoeboxMedia

/// A photo's time is the clock where it was taken: the catalog keeps the instant and the offset,
/// from the file or from the place's time zone.
@Suite struct CaptureTimeTests {
    /// Three cities, enough to place the photos below.
    static func smallGazetteer() throws -> Gazetteer {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("places-\(UUID().uuidString).tsv")
        try """
        41.89193\t12.51133\tRome\tIT\t07\tEurope/Rome
        34.05223\t-118.24368\tLos Angeles\tUS\tCA\tAmerica/Los_Angeles
        27.70169\t85.3206\tKathmandu\tNP\t00\tAsia/Kathmandu

        """.write(to: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: path) }
        return try Gazetteer(contentsOf: path.path)
    }

    /// A JPEG whose EXIF says when it was taken (libvips writes no GPS: photos with a place go
    /// in as data with their metadata).
    func photo(in temporary: TemporaryLibrary, _ name: String, taken: ImageMetadata.DateTime) throws -> URL {
        var metadata = ImageMetadata()
        metadata.make = "Shoebox"
        metadata.dateTimeOriginal = taken
        let url = temporary.folder.appendingPathComponent(name)
        try SyntheticPhoto(width: 64, height: 48, seed: UInt64(name.count)).image().writingMetadata(metadata).encoded(as: .jpeg).write(to: url)
        return url
    }

    static func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test func aPhotoKeepsTheClockOfWhereItWasTaken() async throws {
        let temporary = try await TemporaryLibrary(places: try Self.smallGazetteer())
        defer { temporary.remove() }
        // 15:47:53 at −05:00, as the file says.
        let withOffset = try photo(
            in: temporary, "offset.jpg", taken: .init(year: 2021, month: 4, day: 11, hour: 15, minute: 47, second: 53, utcOffset: -18_000))
        // 15:56 in Rome in July (no offset in the file; GPS says Rome, on summer time: +02:00).
        var rome = ImageMetadata()
        rome.dateTimeOriginal = .init(year: 2021, month: 7, day: 4, hour: 15, minute: 56, second: 0)
        rome.latitude = 41.9
        rome.longitude = 12.5
        let romeData = try SyntheticPhoto(width: 64, height: 48, seed: 5).image().encoded(as: .jpeg)
        // Neither offset nor place: the camera's clock, kept as it read.
        let floating = try photo(in: temporary, "floating.jpg", taken: .init(year: 2019, month: 1, day: 2, hour: 15, minute: 56, second: 0))
        let result = try await temporary.library.performChanges {
            _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: withOffset)
            _ = AssetChangeRequest.creationRequestForAsset(from: romeData, metadata: rome, filename: "rome.jpg")
            _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: floating)
        }
        let assets = try await temporary.library.fetchAssets(withLocalIdentifiers: result.created.map(\.localIdentifier)).allObjects()
        #expect(assets.count == 3)
        let (offset, roman, camera) = (assets[0], assets[1], assets[2])

        #expect(offset.creationDate == Self.utc("2021-04-11T20:47:53Z"))
        #expect(offset.timeZoneOffset == -18_000 && offset.timeZoneIdentifier == nil)
        #expect(offset.captureTime.localDateString == "2021-04-11T15:47:53")
        #expect(offset.captureTime.offsetString == "-05:00")

        #expect(roman.creationDate == Self.utc("2021-07-04T13:56:00Z"))
        #expect(roman.timeZoneOffset == 7_200 && roman.timeZoneIdentifier == "Europe/Rome")
        #expect(roman.captureTime.localDateString == "2021-07-04T15:56:00")

        #expect(camera.creationDate == Self.utc("2019-01-02T15:56:00Z"))
        #expect(camera.timeZoneOffset == nil && camera.timeZoneIdentifier == nil)
        #expect(camera.captureTime.localDateString == "2019-01-02T15:56:00")

        // The user moves the Rome photo to January: still Rome's clock, now on winter time.
        try await temporary.library.performChanges {
            AssetChangeRequest(for: roman).creationDate = Self.utc("2022-01-10T09:00:00Z")
        }
        let moved = try #require(try await temporary.library.fetchAssets(withLocalIdentifiers: [roman.localIdentifier]).firstObject)
        #expect(moved.timeZoneIdentifier == "Europe/Rome" && moved.timeZoneOffset == 3_600)
        #expect(moved.captureTime.localDateString == "2022-01-10T10:00:00")
    }

    @Test func monthSectionsFollowTheLocalClock() async throws {
        let temporary = try await TemporaryLibrary(places: nil)
        defer { temporary.remove() }
        // 23:30 on 30 April in New York is 1 May in UTC: the photo belongs to April.
        let late = try photo(in: temporary, "late.jpg", taken: .init(year: 2021, month: 4, day: 30, hour: 23, minute: 30, second: 0, utcOffset: -14_400))
        let may = try photo(in: temporary, "may.jpg", taken: .init(year: 2021, month: 5, day: 2, hour: 12, minute: 0, second: 0))
        try await temporary.library.performChanges {
            _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: late)
            _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: may)
        }
        let options = FetchOptions(sortDescriptors: [.init(key: .creationDate, ascending: true)])
        let sections = try await temporary.library.fetchMonthSections(with: options)
        #expect(sections.map(\.month) == ["2021-04", "2021-05"])
        #expect(sections.map(\.count) == [1, 1])
        // And the asset index (an album's fetch, which the summary cannot answer) agrees.
        let all = try await temporary.library.fetchAssets(with: FetchOptions()).allObjects()
        let album = try #require(
            try await temporary.library.performChanges {
                AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Spring").addAssets(all)
            }.createdCollections.first)
        var inAlbum = options
        inAlbum.predicate = .inAlbum(album)
        #expect(try await temporary.library.fetchMonthSections(with: inAlbum).map(\.month) == ["2021-04", "2021-05"])
    }

    @Test func aMovieKeepsTheOffsetQuickTimeRecords() {
        #expect(MovieInfo.parseOffset("2021-04-11T15:47:53-0500") == -18_000)
        #expect(MovieInfo.parseOffset("2021-04-11T15:47:53+05:45") == 20_700)
        #expect(MovieInfo.parseOffset("2021-04-11T20:47:53.000000Z") == nil)
        #expect(MovieInfo.parseOffset("2021-04-11T20:47:53") == nil)
    }
}
