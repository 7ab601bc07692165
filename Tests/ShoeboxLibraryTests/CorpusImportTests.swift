import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting
import Testing

/// The whole shared corpus imported into one library, checked against exiftool's and ffprobe's
/// readings.
@Suite(.enabled(if: corpus != nil, Comment(rawValue: corpusMissing)))
struct CorpusImportTests {
    @Test func importTheCorpus() async throws {
        let corpus = try #require(corpus)
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        var imported: [String: String] = [:]  // corpus path → localIdentifier
        var failures: [String: String] = [:]  // corpus path → code
        var duplicates = 0
        let images = try corpus.expectedImages()
        let movies = try corpus.rows("videos.tsv")
        for path in images.map(\.path) + movies.compactMap({ $0["path"] }) {
            do {
                let result = try await library.performChanges {
                    _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: corpus.url(path))
                }
                imported[path] = result.created[0].localIdentifier
                if result.created[0].isDuplicate { duplicates += 1 }
            } catch let error as LibraryError {
                failures[path] = error.code.rawValue
            }
        }
        #expect(temporary.files(in: "staging").isEmpty)

        let calendar = Calendar(identifier: .gregorian)
        for row in images {
            let deliberatelyCorrupt = row.path.hasPrefix("pngsuite/png/x")
            guard row.decodesFully, !deliberatelyCorrupt else {
                #expect(failures[row.path] != nil, "\(row.path) should fail to import")
                continue
            }
            guard let identifier = imported[row.path] else {
                Issue.record("\(row.path) failed to import: \(failures[row.path] ?? "?")")
                continue
            }
            let asset = try await #require(try library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject)
            let image = try Image(contentsOf: corpus.url(row.path))
            #expect(asset.mediaType == .image)
            #expect(asset.pixelWidth == image.pixelWidth && asset.pixelHeight == image.pixelHeight, "\(row.path)")
            if let latitude = row.latitude, let longitude = row.longitude {
                let location = try #require(asset.location, "\(row.path) has a location")
                #expect(abs(location.latitude - latitude) < 1e-5 && abs(location.longitude - longitude) < 1e-5, "\(row.path)")
            }
            if let taken = image.metadata.dateTimeOriginal, let expected = row.dateTimeOriginal {
                // The clock where it was taken (CaptureTime) is the file's own, whatever zone the
                // instant was placed in (its offset, its GPS position's zone, or none).
                _ = taken
                let text = asset.captureTime.localDateString.replacingOccurrences(of: "-", with: ":").replacingOccurrences(of: "T", with: " ")
                #expect(text == String(expected.prefix(19)), "\(row.path)")
            }
        }
        for row in movies {
            let path = try #require(row["path"])
            let identifier = try #require(imported[path], "\(path) imported")
            let asset = try await #require(try library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject)
            #expect(asset.mediaType == .video)
            #expect(abs(asset.duration - Double(row["duration_s"]!)!) < 0.001)
            let width = Int(row["width"]!)!
            let height = Int(row["height"]!)!
            let turned = ["90", "270", "-90"].contains(row["ffprobe_rotation"] ?? "")
            #expect(asset.pixelWidth == (turned ? height : width) && asset.pixelHeight == (turned ? width : height))
            if let location = row["iso6709_location"], !location.isEmpty {
                #expect(asset.location?.latitude == 48.8583 && asset.location?.longitude == 2.2945)
            }
            if let created = row["creation_time"], !created.isEmpty {
                let formatter = ISO8601DateFormatter()
                formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                #expect(asset.creationDate == formatter.date(from: created))
            }
        }
        // The corpus repeats a few files byte for byte (the orientation set's variants 0 and 1, say).
        let stored = try await library.fetchAssets(with: FetchOptions(includeHiddenAssets: true)).count
        #expect(stored == Set(imported.values).count)
        #expect(stored + duplicates == imported.count)
        #expect((try await temporary.blobs(.original)).count == stored)
    }
}
