import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting
import Synchronization
import Testing

/// `PhotoLibrary.importItems(at:recursive:albumsFromFolders:progress:)`: a folder's files each in a change of
/// their own, sidecars skipped, sub-folders named or read, a damaged file failing alone.
@Suite struct FolderImportTests {
    @Test func aFolderImportsFileByFileAndReportsEach() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let folder = temporary.folder.appendingPathComponent("Card")
        let inner = folder.appendingPathComponent("DCIM")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        try SyntheticPhoto(width: 120, height: 80, seed: 61).image().write(to: folder.appendingPathComponent("a.jpg"))
        try SyntheticPhoto(width: 120, height: 80, seed: 62).image().write(to: inner.appendingPathComponent("b.jpg"))
        try Data("<plist/>".utf8).write(to: folder.appendingPathComponent("a.aae"))
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16]).write(to: folder.appendingPathComponent("broken.jpg"))
        try Data("hidden".utf8).write(to: folder.appendingPathComponent(".DS_Store"))

        let seen = Reports()
        let flat = await temporary.library.importItems(at: [folder]) { seen.add($0) }
        #expect(flat.imported == 1 && flat.assets.count == 1)
        #expect(flat.skipped.map { ($0 as NSString).lastPathComponent } == ["a.aae"])
        #expect(flat.skippedFolders == [inner.path])
        #expect(flat.failed.map(\.code) == ["corrupt"] && flat.failed.first?.path.hasSuffix("broken.jpg") == true)
        let reports = seen.value
        #expect(reports.count == 4, "the totals first, then every file it tried")
        #expect(reports.first?.file == nil && reports.first?.totalFiles == 3 && reports.first?.completedFiles == 0)
        let sizes = ["a.jpg", "a.aae", "broken.jpg"].map {
            ((try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent($0).path)[.size]) as? Int) ?? -1
        }
        #expect(reports.first?.totalBytes == sizes.reduce(0, +), "the three files' bytes, the hidden one left out")
        #expect(reports.dropFirst().map(\.completedFiles) == [1, 2, 3])
        #expect(Set(reports.dropFirst().compactMap { $0.file?.lastPathComponent }) == ["a.jpg", "a.aae", "broken.jpg"])
        #expect(reports.last?.completedBytes == reports.last?.totalBytes && reports.last?.fractionCompleted == 1)

        let deep = await temporary.library.importItems(at: [folder], recursive: true)
        #expect(deep.imported == 1 && deep.duplicates == 1 && deep.skippedFolders.isEmpty, "\(deep)")
        #expect(try await temporary.library.fetchAssets().count == 2)
    }

    @Test("A recursive import follows a link to a folder once; a link back to a folder read already is named, not followed")
    func linksToFoldersAreFollowedOnce() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        // Card/ holds only links: to Photos/ (whose Trip/ links back up to Photos/, a loop) and to Photos/Trip/ again.
        let photos = temporary.folder.appendingPathComponent("Photos")
        let trip = photos.appendingPathComponent("Trip")
        let card = temporary.folder.appendingPathComponent("Card")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
        try SyntheticPhoto(width: 120, height: 80, seed: 71).image().write(to: photos.appendingPathComponent("a.jpg"))
        try SyntheticPhoto(width: 120, height: 80, seed: 72).image().write(to: trip.appendingPathComponent("b.jpg"))
        let files = FileManager.default
        try files.createSymbolicLink(atPath: card.appendingPathComponent("photos").path, withDestinationPath: "../Photos")
        try files.createSymbolicLink(atPath: card.appendingPathComponent("trip").path, withDestinationPath: trip.path)
        try files.createSymbolicLink(atPath: trip.appendingPathComponent("up").path, withDestinationPath: "..")

        let report = await temporary.library.importItems(at: [card], recursive: true)
        #expect(report.imported == 2 && report.failed.isEmpty, "\(report)")
        // Trip/ is read once (by Card/trip, given beside Card/photos), and its link back up is named.
        #expect(report.skippedLinks == [card.appendingPathComponent("trip/up").path], "\(report)")
        #expect(try await temporary.library.fetchAssets().count == 2)
        // The link itself given: its folder is read as any folder is.
        let given = await temporary.library.importItems(at: [card.appendingPathComponent("photos")])
        #expect(given.duplicates == 1 && given.skippedFolders == [card.appendingPathComponent("photos/Trip").path], "\(given)")
    }

    @Test func aMissingPathIsAFailureNotACrash() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let report = await temporary.library.importItems(at: [temporary.folder.appendingPathComponent("nowhere.jpg")])
        #expect(report.imported == 0 && report.failed.map(\.code) == ["io"])
    }
}

/// The progress reports, gathered from any task.
private final class Reports: Sendable {
    private let reports = Mutex<[ImportProgress]>([])
    func add(_ report: ImportProgress) { reports.withLock { $0.append(report) } }
    var value: [ImportProgress] { reports.withLock { $0 } }
}
