import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting

let corpus = Corpus.locate()
let corpusMissing = "the shared corpus (../shared/corpus or $SHOEBOX_CORPUS) is absent"

/// A new, empty library in a temporary folder; `remove()` deletes it.
struct TemporaryLibrary {
    let folder: URL
    let library: PhotoLibrary

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-library-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        library = try PhotoLibrary.open(at: folder.appendingPathComponent("Test.shoebox"))
    }

    /// Writes a small generated JPEG (distinct per seed) and returns its URL.
    func photo(_ name: String, seed: UInt64, width: Int = 120, height: Int = 80) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try SyntheticPhoto(width: width, height: height, seed: seed).image().write(to: url)
        return url
    }

    /// Imports files one change each; returns their identifiers.
    func importFiles(_ urls: [URL]) async throws -> [String] {
        var identifiers: [String] = []
        for url in urls {
            let result = try await library.performChanges {
                _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url)
            }
            identifiers.append(result.created[0].localIdentifier)
        }
        return identifiers
    }

    func files(in subfolder: String) -> [String] {
        let root = library.url.appendingPathComponent(subfolder)
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        var found: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { found.append(url.path) }
        }
        return found
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
