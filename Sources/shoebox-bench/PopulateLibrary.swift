import ArgumentParser
import Crypto
import Foundation
import GRDB
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
        let photos = try await PhotoLibrary.open(at: url)
        photos.generatesDerivativesInBackground = true
        let inputs = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-populate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: inputs) }
        let files = try SyntheticPhoto.writeJPEGs(count: min(originals, count), width: 800, height: 600, to: inputs, quality: 0.85)
        for file in files {
            try await photos.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: file) }
        }
        await photos.waitForBackgroundWork()
        let extra = max(0, count - files.count)
        try repeatRows(in: url, times: extra)
        let seconds = Date().timeIntervalSince(start)
        if json {
            print(#"{"assets": \#(count), "seconds": \#(String(format: "%.2f", seconds))}"#)
        } else {
            print("\(url.path): \(count) assets (\(files.count) distinct photos) in \(String(format: "%.1f", seconds)) s")
        }
    }

    /// Repeats the imported rows `times` times in all, with new identifiers, dates and hashes.
    func repeatRows(in library: URL, times: Int) throws {
        guard times > 0 else { return }
        let queue = try DatabaseQueue(path: library.appendingPathComponent("catalog.sqlite").path)
        var generator = SplitMix64(seed: 7)
        let base = Date(timeIntervalSince1970: 1_577_836_800)  // 2020
        try queue.write { db in
            let sources = try Row.fetchAll(db, sql: "SELECT * FROM asset ORDER BY id")
            guard !sources.isEmpty else { return }
            let columns = sources[0].columnNames.filter {
                ![
                    "id", "localIdentifier", "originalFilename", "creationDate", "addedDate",
                    "modificationDate", "contentHash",
                ].contains($0)
            }
            let names = (["localIdentifier", "originalFilename", "creationDate", "addedDate", "modificationDate", "contentHash"] + columns)
                .joined(separator: ", ")
            let marks = Array(repeating: "?", count: 6 + columns.count).joined(separator: ", ")
            let statement = try db.makeStatement(sql: "INSERT INTO asset (\(names)) VALUES (\(marks))")
            for index in 0..<times {
                let source = sources[index % sources.count]
                let sourceHash: String = source["contentHash"]
                let hash = Hex.sha256(Data("populate-\(index)".utf8))
                try Self.link(from: sourceHash, to: hash, in: library)
                let created = base.addingTimeInterval(Double(generator.next() % 157_000_000))
                var values: [(any DatabaseValueConvertible)?] = [
                    String(format: "%08X-5EED-0000-0000-%012X/L0/001", index, index), String(format: "IMG_%06d.jpg", index),
                    created, created, created, hash,
                ]
                for column in columns { values.append(source[column] as DatabaseValue) }
                try statement.execute(arguments: StatementArguments(values))
            }
        }
        try queue.close()
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
