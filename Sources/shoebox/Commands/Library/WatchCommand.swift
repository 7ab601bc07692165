import ArgumentParser
import Foundation
import ShoeboxLibrary

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print the library's changes as they happen, from any process, until interrupted.",
        discussion: """
            One line per committed change. With --json, one JSON object per line: {sequence, \
            inserted, changed, removed, collections} (arrays of identifiers).
            """)

    @OptionGroup var options: LibraryOptions
    @Flag(help: "JSON lines.") var json = false
    @Option(help: "How often to look, in milliseconds.") var interval = 200

    struct Line: Encodable {
        let sequence: Int64
        let inserted: [String]
        let changed: [String]
        let removed: [String]
        let collections: [String]
    }

    func validate() throws {
        guard interval >= 10 else { throw ValidationError("--interval must be at least 10 ms") }
    }

    func run() async throws {
        let library = try await options.open()
        // A long-running process empties Recently Deleted of what has expired, hourly.
        let purger = Task { await library.runAutomaticPurge() }
        defer { purger.cancel() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for try await change in try await library.changes(pollingEvery: .milliseconds(interval)) {
            let line = Line(
                sequence: change.sequence, inserted: change.insertedAssetIdentifiers.sorted(),
                changed: change.changedAssetIdentifiers.sorted(), removed: change.removedAssetIdentifiers.sorted(),
                collections: change.changedCollectionIdentifiers.sorted())
            let text: String
            if json {
                text = String(decoding: try encoder.encode(line), as: UTF8.self)
            } else {
                var parts: [String] = []
                if !line.inserted.isEmpty { parts.append("inserted \(line.inserted.joined(separator: " "))") }
                if !line.changed.isEmpty { parts.append("changed \(line.changed.joined(separator: " "))") }
                if !line.removed.isEmpty { parts.append("removed \(line.removed.joined(separator: " "))") }
                if !line.collections.isEmpty { parts.append("albums \(line.collections.joined(separator: " "))") }
                text = "#\(line.sequence) " + parts.joined(separator: "; ")
            }
            // Unbuffered, so a reader sees each change as it happens.
            FileHandle.standardOutput.write(Data((text + "\n").utf8))
        }
    }
}
