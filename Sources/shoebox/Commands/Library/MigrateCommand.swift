import ArgumentParser
import Foundation
import ShoeboxLibrary

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Move a library's catalog from SQLite into PostgreSQL.",
        discussion: """
            Copies every table of the library's catalog into the PostgreSQL database --to names \
            (empty, or one an interrupted migrate of this library filled) in one transaction, \
            verifies row counts and a SHA-256 over every asset on both sides, and only then \
            switches the library's library.json to it. The blobs stay where they are; \
            catalog.sqlite is kept as it was (a backup). Interrupted, the library is untouched. \
            Stop servers and workers on the library first. Progress goes to standard error. JSON: \
            {"rows": {table: N}, "assetDigest", "catalog", "seconds"}.
            """)

    @OptionGroup var options: LibraryOptions
    @Option(help: ArgumentHelp("The PostgreSQL catalog to move to (password from PGPASSWORD or ~/.pgpass).", valueName: "postgres://…"))
    var to: String
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let report: CatalogMigrationReport
        do throws(LibraryError) {
            let target = try PostgresURL(to)
            let quiet = json || !ImportProgress.isTerminal
            report = try await PhotoLibrary.migrateCatalog(ofLibraryAt: options.url, to: target) { table, rows in
                guard !quiet else { return }
                FileHandle.standardError.write(Data("\r\(table): \(rows) rows   ".utf8))
            }
            if !quiet { FileHandle.standardError.write(Data("\n".utf8)) }
        } catch {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
        if json {
            try JSONOutput.print(report)
        } else {
            let total = report.rows.values.reduce(0, +)
            print("moved \(report.rows["asset"] ?? 0) assets (\(total) rows) to \(report.catalog) in \(String(format: "%.1f", report.seconds)) s; verified \(report.assetDigest.prefix(12))…")
        }
    }
}
