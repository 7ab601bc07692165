import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// The `metadata` job reads originals again: a catalog that an older reader filled (wrong date,
/// no place, wrong size) catches up with the files, and a date or place the user set stays.
@Suite struct MetadataRereadTests {
    @Test func aRereadCorrectsTheCatalogAndKeepsWhatTheUserSet() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let taken = Date(timeIntervalSince1970: 1_559_390_400)  // 2019-06-01 12:00 UTC
        var urls: [URL] = []
        for seed in [1, 2] as [UInt64] {
            var metadata = ImageMetadata()
            metadata.dateTimeOriginal = ImageMetadata.DateTime(taken, timeZone: TimeZone(identifier: "UTC")!)
            let url = temporary.folder.appendingPathComponent("photo-\(seed).jpg")
            try SyntheticPhoto(width: 320, height: 240, seed: seed).image().writingMetadata(metadata)
                .write(to: url, options: ImageEncodingOptions(keepsMetadata: true))
            // The place, as a camera writes it (Shoebox writes no GPS itself).
            let tagged = try ChildProcess.run(
                "exiftool",
                [
                    "-q", "-overwrite_original", "-GPSLatitude=45.4", "-GPSLatitudeRef=N",
                    "-GPSLongitude=12.3", "-GPSLongitudeRef=E", url.path,
                ])
            #expect(tagged.status == 0, "\(tagged.standardError)")
            urls.append(url)
        }
        let ids = try await temporary.importFiles(urls)
        let imported = try #require(try await library.fetchAssets(withLocalIdentifiers: [ids[0]]).firstObject)
        // EXIF keeps degrees as rationals: close, not equal.
        let near = { (value: Double?, expected: Double) in value.map { abs($0 - expected) < 1e-4 } ?? false }
        #expect(near(imported.location?.latitude, 45.4) && imported.pixelWidth == 320)

        // What an older reader left: a wrong date, no place, a wrong size.
        let store = try #require(library.catalog as? SQLCatalogStore)
        let wrongDate = Date(timeIntervalSince1970: 946_684_800)
        _ = try await store.write { db in
            try await db.execute(
                """
                UPDATE asset SET creationDate = \(wrongDate), latitude = NULL, longitude = NULL, pixelWidth = 1, pixelHeight = 1
                WHERE localIdentifier IN \(list: ids)
                """)
        }
        // The user dates and places the second photo by hand.
        let userDate = Date(timeIntervalSince1970: 1_600_000_000)
        let userPlace = Asset.Location(latitude: -33.9, longitude: 151.2)
        let second = try #require(try await library.fetchAssets(withLocalIdentifiers: [ids[1]]).firstObject)
        try await library.performChanges {
            let change = AssetChangeRequest(for: second)
            change.creationDate = userDate
            change.location = userPlace
        }
        let before = try await library.currentChangeToken

        #expect(try await library.enqueueMetadataReread() == 2)
        #expect(try await library.enqueueMetadataReread(of: [ids[0]]) == 0, "one queued job per asset")
        let worker = JobWorker(library: library, options: .init(concurrency: 1, pollInterval: .milliseconds(50)))
        let running = Task { await worker.run() }
        try await JobQueueTests.drain(library, worker: worker, kinds: [.metadata])
        running.cancel()
        #expect(try await library.jobCounts().filter { $0.kind == .metadata }.isEmpty, "no metadata job failed")

        let after = try await library.fetchAssets(withLocalIdentifiers: ids).allObjects()
        let first = try #require(after.first { $0.localIdentifier == ids[0] })
        let edited = try #require(after.first { $0.localIdentifier == ids[1] })
        #expect(first.creationDate == taken, "the file's date: \(first.creationDate)")
        #expect(near(first.location?.latitude, 45.4) && near(first.location?.longitude, 12.3), "the file's place: \(String(describing: first.location))")
        #expect(first.pixelWidth == 320 && first.pixelHeight == 240)
        #expect(edited.creationDate == userDate, "the user's date stays: \(edited.creationDate)")
        #expect(edited.location?.latitude == -33.9, "the user's place stays: \(String(describing: edited.location))")
        #expect(edited.pixelWidth == 320, "sizes come from the file")
        // Observers hear of both as updates.
        var changed = Set<String>()
        for try await change in try await library.changes(since: before, pollingEvery: .milliseconds(20)) {
            changed.formUnion(change.changedAssetIdentifiers)
            if changed.isSuperset(of: ids) { break }
        }
        #expect(changed.isSuperset(of: ids), "\(changed)")

        await #expect(throws: LibraryError.self) { try await library.enqueueMetadataReread(of: ["no-such-asset"]) }
    }
}
