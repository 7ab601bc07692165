import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// Issue 44 item 5: a person corrects dates, zones, places, captions, keywords and ratings of a
/// selection; what they set wins over the file, survives a re-read, and can be undone.
@Suite struct MetadataAdjustmentTests {
    /// A JPEG taken at `hour`:00 on 1 May 2020 by a clock at UTC+1, in London when `london`.
    private func photo(seed: UInt64, hour: Int, london: Bool = false) throws -> Data {
        var metadata = ImageMetadata()
        metadata.dateTimeOriginal = ImageMetadata.DateTime(year: 2020, month: 5, day: 1, hour: hour, minute: 0, second: 0, utcOffset: 3_600)
        if london {
            metadata.latitude = 51.5
            metadata.longitude = -0.12
        }
        return try Image.embeddingMetadata(metadata, in: SyntheticPhoto(width: 48, height: 32, seed: seed).image().encoded(as: .jpeg))
    }

    private func add(_ photos: [Data], to library: PhotoLibrary) async throws -> [Asset] {
        let result = try await library.performChanges {
            for (index, data) in photos.enumerated() { _ = AssetChangeRequest.creationRequestForAsset(from: data, filename: "IMG_\(index).JPG") }
        }
        return try await library.fetchAssets(withLocalIdentifiers: result.created.map(\.localIdentifier)).allObjects()
    }

    private static func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test func datesAreSetShiftedAndRezonedWithAPreviewThatIsWhatApplies() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        // 09:00, 10:00 and 12:30 (+01:00) on 1 May 2020.
        var assets = try await add([try photo(seed: 1, hour: 9), try photo(seed: 2, hour: 10), try photo(seed: 3, hour: 12)], to: library)
        assets.sort { $0.creationDate < $1.creationDate }
        #expect(assets.map(\.creationDate) == ["2020-05-01T08:00:00Z", "2020-05-01T09:00:00Z", "2020-05-01T11:00:00Z"].map(Self.utc))

        // Set: the earliest goes to 14:30 on 3 June 2019 in its own zone; the others keep their spacing.
        let set = MetadataAdjustment.DateChange.set(.init(year: 2019, month: 6, day: 3, hour: 14, minute: 30, second: 0), timeZone: nil)
        let preview = try library.previewDates(set, of: assets)
        #expect(preview.map(\.after.localDateString) == ["2019-06-03T14:30:00", "2019-06-03T15:30:00", "2019-06-03T17:30:00"])
        #expect(preview.map(\.before.date) == assets.map(\.creationDate))
        #expect(
            try await library.fetchAssets(withLocalIdentifiers: assets.map(\.localIdentifier)).allObjects().map(\.creationDate) == assets.map(\.creationDate),
            "a preview changes nothing")
        #expect(try await library.adjustMetadata(of: assets, MetadataAdjustment(date: set)) == 3)
        var after = try await library.fetchAssets(withLocalIdentifiers: assets.map(\.localIdentifier)).allObjects().sorted { $0.creationDate < $1.creationDate }
        #expect(after.map(\.captureTime) == preview.map(\.after))
        #expect(after.allSatisfy { $0.userSetFields == [.creationDate] && $0.timeZoneOffset == 3_600 })

        // Shift: every one 90 minutes earlier.
        try await library.adjustMetadata(of: after, MetadataAdjustment(date: .shift(seconds: -5_400)))
        after = try await library.fetchAssets(withLocalIdentifiers: assets.map(\.localIdentifier)).allObjects().sorted { $0.creationDate < $1.creationDate }
        #expect(after.map(\.captureTime.localDateString) == ["2019-06-03T13:00:00", "2019-06-03T14:00:00", "2019-06-03T16:00:00"])

        // The camera was on Tokyo time: the clock's reading stays, the instant moves 8 hours earlier.
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        try await library.adjustMetadata(of: [after[0]], MetadataAdjustment(date: .timeZone(tokyo)))
        let rezoned = try #require(try await library.fetchAssets(withLocalIdentifiers: [after[0].localIdentifier]).firstObject)
        #expect(rezoned.captureTime.localDateString == "2019-06-03T13:00:00")
        #expect(rezoned.timeZoneOffset == 32_400 && rezoned.timeZoneIdentifier == "Asia/Tokyo")
        #expect(rezoned.creationDate == Self.utc("2019-06-03T04:00:00Z"))

        // Set with a zone given: every asset takes it.
        let rome = try #require(TimeZone(identifier: "Europe/Rome"))
        let inRome = try library.previewDates(.set(.init(year: 2021, month: 1, day: 10, hour: 8, minute: 0, second: 0), timeZone: rome), of: after)
        #expect(inRome.allSatisfy { $0.after.timeZoneIdentifier == "Europe/Rome" && $0.after.timeZoneOffset == 3_600 })
        #expect(inRome.map(\.after.date).min() == Self.utc("2021-01-10T07:00:00Z"))

        // A time outside 1800…9999 is refused, and nothing changes.
        await #expect(throws: LibraryError.self) {
            try await library.adjustMetadata(of: after, MetadataAdjustment(date: .shift(seconds: -300 * 365.25 * 86_400)))
        }
        #expect(try await library.fetchAssets(withLocalIdentifiers: [after[1].localIdentifier]).firstObject?.creationDate == after[1].creationDate)
    }

    @Test func whatThePersonSetSurvivesAReReadAndRevertsToTheFile() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let asset = try #require(try await add([try photo(seed: 11, hour: 9, london: true)], to: library).first)
        #expect(asset.userSetFields.isEmpty && abs((asset.location?.latitude ?? 0) - 51.5) < 1e-9)

        let rome = Asset.Location(latitude: 41.9, longitude: 12.5)
        try await library.adjustMetadata(
            of: [asset], MetadataAdjustment(date: .shift(seconds: 86_400), location: .some(rome)))
        try await library.rereadMetadata(of: asset.localIdentifier)
        let kept = try #require(try await library.fetchAssets(withLocalIdentifiers: [asset.localIdentifier]).firstObject)
        #expect(kept.userSetFields == [.creationDate, .location])
        #expect(kept.creationDate == Self.utc("2020-05-02T08:00:00Z") && kept.location?.latitude == 41.9, "reading the file again keeps the person's values")

        // Only the place back: the date stays the person's.
        try await library.adjustMetadata(of: [kept], MetadataAdjustment(revertsToFileValues: .location))
        let placeBack = try #require(try await library.fetchAssets(withLocalIdentifiers: [asset.localIdentifier]).firstObject)
        #expect(placeBack.userSetFields == [.creationDate] && abs((placeBack.location?.latitude ?? 0) - 51.5) < 1e-9)
        #expect(placeBack.creationDate == kept.creationDate)

        // Removing the place is the person's too, and reverts.
        try await library.adjustMetadata(of: [placeBack], MetadataAdjustment(location: .some(nil), revertsToFileValues: .creationDate))
        let noPlace = try #require(try await library.fetchAssets(withLocalIdentifiers: [asset.localIdentifier]).firstObject)
        #expect(noPlace.location == nil && noPlace.userSetFields == [.location])
        #expect(noPlace.creationDate == asset.creationDate && noPlace.timeZoneOffset == asset.timeZoneOffset, "the file's time and zone are back")
        try await library.adjustMetadata(of: [noPlace], MetadataAdjustment(revertsToFileValues: [.creationDate, .location]))
        let original = try #require(try await library.fetchAssets(withLocalIdentifiers: [asset.localIdentifier]).firstObject)
        #expect(original.userSetFields.isEmpty && original.location == asset.location && original.captureTime == asset.captureTime)
    }

    @Test func keywordsCaptionsAndRatingsAreSetForASelectionAndFound() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let assets = try await add([try photo(seed: 21, hour: 9), try photo(seed: 22, hour: 10), try photo(seed: 23, hour: 11)], to: library)
        try await library.adjustMetadata(of: assets, MetadataAdjustment(keywords: .replace(["Places/Italy/Rome", "Family"])))
        try await library.adjustMetadata(of: [assets[0]], MetadataAdjustment(caption: "Grandma's birthday", keywords: .add(["family", "Cake"]), rating: 5))
        try await library.adjustMetadata(of: [assets[1]], MetadataAdjustment(keywords: .remove(["places/italy/rome"]), label: "Red"))
        try await library.adjustMetadata(of: [assets[2]], MetadataAdjustment(keywords: .add(["Places/Italy Trip"]), rating: 3))

        let fresh = Dictionary(
            uniqueKeysWithValues: try await library.fetchAssets(withLocalIdentifiers: assets.map(\.localIdentifier)).allObjects().map {
                ($0.localIdentifier, $0)
            })
        let (first, second, third) = (fresh[assets[0].localIdentifier]!, fresh[assets[1].localIdentifier]!, fresh[assets[2].localIdentifier]!)
        #expect(first.keywords == ["Places/Italy/Rome", "Family", "Cake"], "a keyword it has (case aside) is not added twice")
        #expect(first.caption == "Grandma's birthday" && first.rating == 5)
        #expect(second.keywords == ["Family"] && second.label == "Red" && second.rating == 0)
        #expect(third.keywords == ["Places/Italy/Rome", "Family", "Places/Italy Trip"] && third.rating == 3)

        let keywords = try await library.fetchKeywords()
        #expect(keywords.map(\.keyword) == ["Cake", "Family", "Places/Italy Trip", "Places/Italy/Rome"])
        #expect(keywords.map(\.count) == [1, 3, 1, 2])

        func ids(_ predicate: FetchOptions.Predicate) async throws -> Set<String> {
            Set(try await library.fetchAssets(with: FetchOptions(predicate: predicate)).allObjects().map(\.localIdentifier))
        }
        #expect(try await ids(.keyword("places/italy")) == [first.localIdentifier, third.localIdentifier], "a parent finds its children")
        #expect(try await ids(.keyword("Places/Italy Trip")) == [third.localIdentifier])
        #expect(try await ids(.keyword("Places/It")) == [], "not a prefix of a word")
        #expect(try await ids(.keyword("50%_off")) == [], "LIKE's wildcards are letters")
        #expect(try await ids(.text("birthday")) == [first.localIdentifier])
        #expect(try await ids(.text("cake")) == [first.localIdentifier])

        // Out of range or empty: a clear error, nothing changed.
        for bad in [
            MetadataAdjustment(rating: 6), MetadataAdjustment(), MetadataAdjustment(location: .some(.init(latitude: 91, longitude: 0))),
            MetadataAdjustment(date: .shift(seconds: 60), revertsToFileValues: .creationDate),
        ] {
            await #expect(throws: LibraryError.self) { try await library.adjustMetadata(of: [first], bad) }
        }
        #expect(try await library.fetchAssets(withLocalIdentifiers: [first.localIdentifier]).firstObject == first)
    }

    @Test func wallClocksAndZonesAreReadAsPeopleTypeThem() {
        #expect(MetadataAdjustment.wallClock("2019-06-12T14:30")?.iso8601String == "2019-06-12T14:30:00")
        #expect(MetadataAdjustment.wallClock("2019-06-12 14:30:15")?.iso8601String == "2019-06-12T14:30:15")
        #expect(MetadataAdjustment.wallClock("2019-06-12T14:30+02:00")?.utcOffset == 7_200)
        #expect(MetadataAdjustment.wallClock("2020-02-29T10:00") != nil)
        for bad in ["2019-02-29T10:00", "2019-02-30T10:00", "2019-06-12", "12/06/2019 14:30", "2019-06-12T25:00", "2019-06-12T14:30+2", ""] {
            #expect(MetadataAdjustment.wallClock(bad) == nil, "\(bad)")
        }
        #expect(MetadataAdjustment.timeZone("Asia/Tokyo")?.identifier == "Asia/Tokyo")
        #expect(MetadataAdjustment.timeZone("-05:30")?.secondsFromGMT() == -19_800)
        #expect(MetadataAdjustment.timeZone("UTC")?.secondsFromGMT() == 0)
        #expect(MetadataAdjustment.timeZone("Mars/Olympus") == nil && MetadataAdjustment.timeZone("Tokyo") == nil)
    }
}
