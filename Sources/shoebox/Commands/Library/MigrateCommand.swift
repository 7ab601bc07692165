import ArgumentParser
import Foundation
import ShoeboxLibrary

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Move a library's catalog into PostgreSQL, or its blobs into an S3 bucket.",
        discussion: """
            --to postgres://…: copies every table of the library's catalog into the PostgreSQL database --to names \
            (empty, or one an interrupted migrate of this library filled) in one transaction, \
            verifies row counts and a SHA-256 over every asset on both sides, and only then \
            switches the library's library.json to it. The blobs stay where they are; \
            catalog.sqlite is kept as it was (a backup). Interrupted, the library is untouched. \
            --blobs s3://…: uploads every original and render to the bucket (the store checks \
            each body against its SHA-256, and each object is checked after), switches \
            library.json to the bucket, then copies what appeared meanwhile; with --delete-local \
            it then removes each local file once its object is checked again. Interrupted, \
            nothing is lost and the next run resumes (objects already there are checked, not \
            sent again). Stop servers and workers on the library first. Progress goes to \
            standard error. JSON: {"rows": {table: N}, "assetDigest", "catalog", "seconds"} for \
            --to; {"copied", "alreadyThere", "bytes", "deletedLocal", "strayFiles", "blobs", \
            "seconds"} for --blobs (both under "catalog" and "blobs" when both are given).
            """)

    @OptionGroup var options: LibraryOptions
    @Option(help: ArgumentHelp("The PostgreSQL catalog to move to (password from PGPASSWORD or ~/.pgpass).", valueName: "postgres://…"))
    var to: String?
    @Option(help: ArgumentHelp("The S3 bucket to move originals and renders to (credentials from AWS_* or ~/.aws).", valueName: "s3://…"))
    var blobs: String?
    @Flag(help: "With --blobs: remove the local copies once the library uses the bucket and each object is checked.")
    var deleteLocal = false
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        guard to != nil || blobs != nil else { throw ValidationError("give --to postgres://… (the catalog) or --blobs s3://… (the blobs), or both") }
        if deleteLocal, blobs == nil { throw ValidationError("--delete-local goes with --blobs") }
    }

    func run() async throws {
        var catalogReport: CatalogMigrationReport?
        var blobReport: BlobMigrationReport?
        let quiet = json || !ImportProgressBar.isTerminal
        do throws(LibraryError) {
            if let to {
                let target = try PostgresURL(to)
                catalogReport = try await PhotoLibrary.migrateCatalog(ofLibraryAt: options.url, to: target) { table, rows in
                    guard !quiet else { return }
                    FileHandle.standardError.write(Data("\r\(table): \(rows) rows   ".utf8))
                }
                if !quiet { FileHandle.standardError.write(Data("\n".utf8)) }
            }
            if let blobs {
                let target = try S3URL(blobs)
                blobReport = try await PhotoLibrary.migrateBlobs(ofLibraryAt: options.url, to: target, deletingLocalCopies: deleteLocal) { step in
                    guard !quiet else { return }
                    FileHandle.standardError.write(Data("\rblobs: \(step.done) of \(step.total) (\(step.bytes >> 20) MB sent)   ".utf8))
                }
                if !quiet { FileHandle.standardError.write(Data("\n".utf8)) }
            }
        } catch {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
        if json {
            switch (catalogReport, blobReport) {
            case (let catalog?, let blobs?): try JSONOutput.print(Both(catalog: catalog, blobs: blobs))
            case (let catalog?, nil): try JSONOutput.print(catalog)
            case (nil, let blobs?): try JSONOutput.print(blobs)
            case (nil, nil): break
            }
            return
        }
        if let report = catalogReport {
            let total = report.rows.values.reduce(0, +)
            print(
                "moved \(report.rows["asset"] ?? 0) assets (\(total) rows) to \(report.catalog) in \(String(format: "%.1f", report.seconds)) s; verified \(report.assetDigest.prefix(12))…"
            )
        }
        if let report = blobReport {
            var line = "blobs now in \(report.blobs): \(report.copied) uploaded (\(report.bytes >> 20) MB), \(report.alreadyThere) already there, all checked"
            if deleteLocal { line += "; \(report.deletedLocal) local copies removed" }
            print(line + " in \(String(format: "%.1f", report.seconds)) s")
            if !report.strayFiles.isEmpty {
                print("left in place (not named like blobs; see shoebox doctor): \(report.strayFiles.joined(separator: ", "))")
            }
        }
    }

    private struct Both: Encodable {
        let catalog: CatalogMigrationReport
        let blobs: BlobMigrationReport
    }
}
