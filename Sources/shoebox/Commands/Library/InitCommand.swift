import ArgumentParser
import Foundation
import ShoeboxLibrary

struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a library (or check that one opens).",
        discussion: """
            Without --catalog the catalog is SQLite in the library folder (catalog.sqlite). With \
            --catalog postgres://USER@HOST:PORT/DATABASE it is that PostgreSQL database (empty, \
            or a Shoebox catalog already); the folder keeps library.json naming it, and every \
            command given the folder uses it. The password comes from PGPASSWORD or ~/.pgpass, \
            never from the URL. An existing library is only opened (and checked). JSON: \
            {"library", "catalog", "assets"}.
            """)

    @OptionGroup var options: LibraryOptions
    @Option(help: ArgumentHelp("The catalog: sqlite (default) or a postgres:// URL.", valueName: "url")) var catalog: String?
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let url = options.url
        let exists = ["catalog.sqlite", PhotoLibrary.Configuration.fileName].contains {
            FileManager.default.fileExists(atPath: url.appendingPathComponent($0).path)
        }
        let library: PhotoLibrary
        do {
            if exists || catalog == nil {
                if let catalog, catalog != Self.describe(try PhotoLibrary.Configuration.load(fromLibraryAt: url)) {
                    throw LibraryError.invalidArgument("\(url.path) is already a library with another catalog; use shoebox migrate to move it")
                }
                library = try await PhotoLibrary.open(at: url)
            } else {
                library = try await PhotoLibrary.create(at: url, configuration: try Self.configuration(catalog: catalog))
            }
        } catch let error as LibraryError {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
        let count = (try? await library.fetchAssets(with: FetchOptions(includeHiddenAssets: true, includeTrashedAssets: true)).count) ?? 0
        if json {
            try JSONOutput.print(["library": library.url.path, "catalog": Self.describe(library.configuration), "assets": "\(count)"])
        } else {
            print("\(library.url.path): \(library.configuration.catalogDescription), \(count) assets")
        }
        await library.close()
    }

    static func configuration(catalog: String?) throws(LibraryError) -> PhotoLibrary.Configuration {
        guard let catalog, catalog != "sqlite" else { return PhotoLibrary.Configuration() }
        return PhotoLibrary.Configuration(catalog: .postgres(try PostgresURL(catalog)))
    }

    /// `sqlite` or the PostgreSQL URL, as `--catalog` takes it.
    static func describe(_ configuration: PhotoLibrary.Configuration) -> String {
        switch configuration.catalog {
        case .sqlite: "sqlite"
        case .postgres(let url): url.description
        case .custom(let store): store.location
        }
    }
}
