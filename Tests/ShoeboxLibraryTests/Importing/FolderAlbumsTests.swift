import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 44 item 3: `importItems(at:recursive:albumsFromFolders:)` makes an album per source
/// folder and folders for nesting, and fills them again on a second import instead of making
/// them twice.
@Suite struct FolderAlbumsTests {
    /// Trips/ holds a photo and two folders; Trips/Europe/ a photo and Paris/.
    private func makeTree(in root: URL) throws -> URL {
        let trips = root.appendingPathComponent("Trips")
        for (seed, path) in ["a.jpg", "2019 Rome/b.jpg", "2019 Rome/c.jpg", "Europe/d.jpg", "Europe/Paris/e.jpg"].enumerated() {
            let file = trips.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try SyntheticPhoto(width: 60, height: 40, seed: UInt64(300 + seed)).image().write(to: file)
        }
        try FileManager.default.createDirectory(at: trips.appendingPathComponent("Empty"), withIntermediateDirectories: true)
        return trips
    }

    /// Every album and folder as "Parent/Title" paths, with the file names of an album's photos.
    private func layout(of library: PhotoLibrary) async throws -> [String: [String]] {
        let albums = try await library.fetchAssetCollections(with: .album).allObjects()
        let folders = try await library.fetchAssetCollections(with: .folder).allObjects()
        let byIdentifier = Dictionary(uniqueKeysWithValues: (albums + folders).map { ($0.localIdentifier, $0) })
        func path(_ collection: AssetCollection) -> String {
            guard let parent = collection.parentFolderIdentifier.flatMap({ byIdentifier[$0] }) else { return collection.localizedTitle }
            return path(parent) + "/" + collection.localizedTitle
        }
        var layout: [String: [String]] = [:]
        for folder in folders { layout[path(folder) + "/"] = [] }
        for album in albums {
            layout[path(album)] = try await library.fetchAssets(in: album).allObjects().map(\.originalFilename).sorted()
        }
        return layout
    }

    @Test func foldersBecomeAlbumsAndFoldersAndASecondImportFillsThemAgain() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let trips = try makeTree(in: temporary.folder)
        let report = await temporary.library.importItems(at: [trips], recursive: true, albumsFromFolders: true)
        #expect(report.imported == 5 && report.failed.isEmpty, "\(report)")
        #expect(report.albums.count == 4, "Trips, 2019 Rome, Europe, Paris: the empty folder makes none")
        let expected: [String: [String]] = [
            "Trips/": [], "Trips/Trips": ["a.jpg"], "Trips/2019 Rome": ["b.jpg", "c.jpg"],
            "Trips/Europe/": [], "Trips/Europe/Europe": ["d.jpg"], "Trips/Europe/Paris": ["e.jpg"],
        ]
        #expect(try await layout(of: temporary.library) == expected)

        // A new photo in Paris, imported with the rest again: no second set of albums.
        try SyntheticPhoto(width: 60, height: 40, seed: 399).image().write(to: trips.appendingPathComponent("Europe/Paris/f.jpg"))
        let again = await temporary.library.importItems(at: [trips], recursive: true, albumsFromFolders: true)
        #expect(again.imported == 1 && again.duplicates == 5)
        #expect(Set(again.albums) == Set(report.albums), "the same four albums, filled again")
        var grown = expected
        grown["Trips/Europe/Paris"] = ["e.jpg", "f.jpg"]
        #expect(try await layout(of: temporary.library) == grown)
    }

    @Test func withoutTheFlagOrRecursionFewerAlbumsAreMade() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let trips = try makeTree(in: temporary.folder)
        let plain = await temporary.library.importItems(at: [trips], recursive: true)
        #expect(plain.imported == 5 && plain.albums.isEmpty)
        #expect(try await layout(of: temporary.library).isEmpty, "no albums unless asked")

        // One level: the folder's own photo, in an album of the folder's name at the top level;
        // a file named by itself goes in none.
        let shallow = await temporary.library.importItems(
            at: [trips, trips.appendingPathComponent("Europe/d.jpg")], albumsFromFolders: true)
        #expect(shallow.duplicates == 2 && shallow.albums.count == 1, "\(shallow)")
        #expect(try await layout(of: temporary.library) == ["Trips": ["a.jpg"]])
    }

    @Test func folderNamesBecomeTitlesTheLibraryAccepts() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let root = temporary.folder.appendingPathComponent("Card")
        let long = String(repeating: "x", count: 230)
        let longFolder = root.appendingPathComponent(long)
        try FileManager.default.createDirectory(at: longFolder, withIntermediateDirectories: true)
        try SyntheticPhoto(width: 60, height: 40, seed: 310).image().write(to: longFolder.appendingPathComponent("a.jpg"))
        // "Caf\xE9": é in Latin-1, a folder name that is not UTF-8.
        let latin = Array((root.path + "/Caf").utf8) + [0xE9]
        let made = (latin.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { mkdir($0.baseAddress!, 0o755) }
        try #require(made == 0, "cannot make the folder: errno \(errno)")
        let photo = try SyntheticPhoto(width: 60, height: 40, seed: 311).image().encoded(as: .jpeg)
        let file = latin + Array("/b.jpg".utf8)
        let descriptor = (file.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        try #require(descriptor >= 0, "cannot make the file: errno \(errno)")
        photo.withUnsafeBytes { _ = write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)

        let report = await temporary.library.importItems(at: [root], recursive: true, albumsFromFolders: true)
        #expect(report.imported == 2 && report.failed.isEmpty, "\(report)")
        let titles = try await layout(of: temporary.library).keys.sorted()
        #expect(titles == ["Card/", "Card/Café", "Card/" + String(repeating: "x", count: AssetCollectionChangeRequest.maximumTitleLength)])
    }
}
