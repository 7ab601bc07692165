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
            never from the URL. With --blobs s3://BUCKET/PREFIX?endpoint=URL&region=REGION the \
            originals and renders are objects in that bucket (path-style addressing when an \
            endpoint is given; AWS itself without one); credentials come from AWS_ACCESS_KEY_ID, \
            AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN or ~/.aws/credentials, never from the \
            library. --create-bucket makes the bucket first. An existing library is only opened \
            (and checked). A new library's first person is its admin: --admin NAME names them \
            (asked on a terminal; "admin" otherwise), and their password is asked too (or read \
            from one line of standard input with --password-stdin; none with --no-password). A \
            library made before people existed is its admin's, with everything in it. JSON: \
            {"library", "catalog", "blobs", "assets", "admin"}.
            """)

    @OptionGroup var options: LibraryOptions
    @Option(help: ArgumentHelp("The catalog: sqlite (default) or a postgres:// URL.", valueName: "url")) var catalog: String?
    @Option(help: ArgumentHelp("Where originals and renders live: files (default) or an s3:// URL.", valueName: "url")) var blobs: String?
    @Flag(help: "Create the --blobs bucket if it does not exist.") var createBucket = false
    @Option(help: ArgumentHelp("A new library's admin: their sign-in name (default: asked on a terminal, else admin).", valueName: "name"))
    var admin: String?
    @Flag(help: "Read the admin's password from one line of standard input.") var passwordStdin = false
    @Flag(help: "Give the admin no password yet (shoebox user passwd sets one).") var noPassword = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let url = options.url
        let exists = ["catalog.sqlite", PhotoLibrary.Configuration.fileName].contains {
            FileManager.default.fileExists(atPath: url.appendingPathComponent($0).path)
        }
        let library: PhotoLibrary
        do {
            if exists || (catalog == nil && blobs == nil) {
                let existing = try PhotoLibrary.Configuration.load(fromLibraryAt: url)
                if let catalog, catalog != Self.describe(existing) {
                    throw LibraryError.invalidArgument("\(url.path) is already a library with another catalog; use shoebox migrate to move it")
                }
                if let blobs, blobs != Self.describe(existing.blobs) {
                    throw LibraryError.invalidArgument("\(url.path) is already a library with its blobs elsewhere; use shoebox migrate --blobs to move them")
                }
                library = try await PhotoLibrary.open(at: url)
            } else {
                var configuration = try Self.configuration(catalog: catalog)
                if let blobs, blobs != "files" {
                    let s3 = try S3URL(blobs)
                    if createBucket { try await S3Client(url: s3, credentials: try AWSCredentials.find()).createBucket() }
                    configuration.blobs = .s3(s3)
                }
                library = try await PhotoLibrary.create(at: url, configuration: configuration)
            }
        } catch let error as LibraryError {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
        let adminName: String
        do {
            adminName = try await nameAdmin(of: library, isNew: !exists)
        } catch {
            await library.close()
            throw error
        }
        let count =
            (try? await library.fetchAssets(with: FetchOptions(includeHiddenAssets: true, includeTrashedAssets: true, includeAllBurstAssets: true)).count) ?? 0
        if json {
            try JSONOutput.print([
                "library": library.url.path, "catalog": Self.describe(library.configuration),
                "blobs": Self.describe(library.configuration.blobs), "assets": "\(count)", "admin": adminName,
            ])
        } else {
            let assets = count == 1 ? "1 asset" : "\(count) assets"
            print(
                "\(library.url.path): \(library.configuration.catalogDescription), blobs in \(library.configuration.blobsDescription), \(assets), admin \(adminName)"
            )
        }
        await library.close()
    }

    /// Names a new library's admin (person 1, made with the catalog) and sets their password;
    /// an existing library's `--admin` must name one of its admins. Returns the admin's name.
    private func nameAdmin(of library: PhotoLibrary, isNew: Bool) async throws -> String {
        do {
            let people = try await library.people()
            guard let first = people.first(where: { $0.role == .admin }) else { return "" }
            guard isNew else {
                if let admin, !people.contains(where: { $0.name == admin.lowercased() && $0.role == .admin }) {
                    Terminal.standardError("error: \(library.url.path) already has its admin (\(first.name)); shoebox user add --admin \(admin) adds another")
                    throw ExitCode.failure
                }
                return first.name
            }
            var name = admin
            if name == nil, isatty(STDIN_FILENO) == 1, !passwordStdin {
                FileHandle.standardError.write(Data("The library's admin (a sign-in name) [admin]: ".utf8))
                name = readLine(strippingNewline: true).flatMap { $0.isEmpty ? nil : $0 }
            }
            var person = first
            if let name, name.lowercased() != first.name { person = try await library.updatePerson(first, name: name, displayName: name) }
            if !noPassword, passwordStdin || isatty(STDIN_FILENO) == 1 {
                try await library.setPassword(try PasswordInput.read(for: person.name, fromStandardInput: passwordStdin), of: person)
            }
            return person.name
        } catch let error as LibraryError {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
    }

    static func configuration(catalog: String?) throws(LibraryError) -> PhotoLibrary.Configuration {
        guard let catalog, catalog != "sqlite" else { return PhotoLibrary.Configuration() }
        return PhotoLibrary.Configuration(catalog: .postgres(try PostgresURL(catalog)))
    }

    /// `files` or the S3 URL, as `--blobs` takes it.
    static func describe(_ blobs: PhotoLibrary.Configuration.Blobs) -> String {
        switch blobs {
        case .files: "files"
        case .s3(let url): url.description
        }
    }

    /// `sqlite` or the PostgreSQL URL, as `--catalog` takes it.
    static func describe(_ configuration: PhotoLibrary.Configuration) -> String {
        switch configuration.catalog {
        case .sqlite: "sqlite"
        case .postgres(let url): url.description
        }
    }
}
