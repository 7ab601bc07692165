import ArgumentParser
import Crypto
import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting

/// `shoebox-bench populate LIBRARY --count 10000`: a library of many assets for the web tests and
/// benchmarks. A few generated photos are imported the normal way (with their derivatives), then
/// their catalog rows are repeated with new identifiers, names and dates spread over five years,
/// so that every asset has a real original and thumbnail and a large library takes seconds.
///
/// Content hashes are unique in a catalog, so each repeated row gets a hash of its own (the
/// SHA-256 of its index, not of its bytes: a fixture, which `doctor --deep` would call damaged)
/// whose original and derivatives are hard links to its source photo's.
struct PopulateLibrary: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "populate",
        abstract: "Make a library of many assets (real originals, repeated rows) for web tests and benchmarks.")

    @Argument(help: "The library folder (made if missing).") var library: String
    @Option(help: "How many assets in all.") var count = 10_000
    @Option(help: "How many distinct photos to import first.") var originals = 40
    @Flag(help: "Print {\"assets\", \"seconds\"} as JSON.") var json = false

    func run() async throws {
        let start = Date()
        let url = URL(fileURLWithPath: library)
        let photos = try await PhotoLibrary.open(at: url)  // derivatives made in this process
        let inputs = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-populate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: inputs) }
        let files = try SyntheticPhoto.writeJPEGs(count: min(originals, count), width: 800, height: 600, to: inputs, quality: 0.85)
        for file in files {
            try await photos.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: file) }
        }
        await photos.waitForBackgroundWork()
        let extra = max(0, count - files.count)
        try await repeatRows(in: photos, at: url, times: extra)
        let seconds = Date().timeIntervalSince(start)
        if json {
            print(#"{"assets": \#(count), "seconds": \#(String(format: "%.2f", seconds))}"#)
        } else {
            print("\(url.path): \(count) assets (\(files.count) distinct photos) in \(String(format: "%.1f", seconds)) s")
        }
    }

    /// Repeats the imported rows `times` times in all, with new identifiers, dates and hashes,
    /// through the catalog's bulk insert.
    func repeatRows(in photos: PhotoLibrary, at library: URL, times: Int) async throws {
        guard times > 0 else { return }
        let sources = try await photos.catalog.assetRecords(afterRowID: 0, limit: Int.max)
        guard !sources.isEmpty else { return }
        var generator = SplitMix64(seed: 7)
        let base = Date(timeIntervalSince1970: 1_577_836_800)  // 2020
        var batch: [AssetRecord] = []
        for index in 0..<times {
            var record = sources[index % sources.count]
            let hash = Hex.sha256(Data("populate-\(index)".utf8))
            try Self.link(from: record.contentHash, to: hash, in: library)
            let created = base.addingTimeInterval(Double(generator.next() % 157_000_000))
            record.id = nil
            record.localIdentifier = String(format: "%08X-5EED-0000-0000-%012X/L0/001", index, index)
            record.originalFilename = String(format: "IMG_%06d.jpg", index)
            (record.creationDate, record.addedDate, record.modificationDate) = (created, created, created)
            record.contentHash = hash
            batch.append(record)
            if batch.count == 50_000 || index == times - 1 {
                _ = try await photos.catalog.insertAssets(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Hard-links a source's original and derivatives under another hash.
    static func link(from source: String, to hash: String, in library: URL) throws {
        let fileManager = FileManager.default
        for folder in ["originals", "derivatives"] {
            let from = library.appendingPathComponent(folder).appendingPathComponent(String(source.prefix(2))).appendingPathComponent(source)
            let to = library.appendingPathComponent(folder).appendingPathComponent(String(hash.prefix(2))).appendingPathComponent(hash)
            try fileManager.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: from.path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                try fileManager.createDirectory(at: to, withIntermediateDirectories: true)
                for name in try fileManager.contentsOfDirectory(atPath: from.path) where !name.hasPrefix(".") {
                    try fileManager.linkItem(at: from.appendingPathComponent(name), to: to.appendingPathComponent(name))
                }
            } else {
                try fileManager.linkItem(at: from, to: to)
            }
        }
    }
}
