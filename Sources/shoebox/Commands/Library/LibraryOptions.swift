import ArgumentParser
import Foundation
import ShoeboxLibrary

/// `--library PATH`, else `$SHOEBOX_LIBRARY`, else `~/Pictures/Shoebox.shoebox`; `--user NAME`,
/// else `$SHOEBOX_USER`, else the admin: whose library the command reads and changes.
struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The library folder (default: $SHOEBOX_LIBRARY, else ~/Pictures/Shoebox.shoebox).", valueName: "path"))
    var library: String?
    @Option(name: .long, help: ArgumentHelp("Act for this person of the library (default: $SHOEBOX_USER, else the first admin).", valueName: "name"))
    var user: String?

    /// The person named by `--user` or `$SHOEBOX_USER`, if any.
    var person: String? {
        if let user { return user }
        if let environment = ProcessInfo.processInfo.environment["SHOEBOX_USER"], !environment.isEmpty { return environment }
        return nil
    }

    var url: URL {
        if let library { return URL(fileURLWithPath: library) }
        if let environment = ProcessInfo.processInfo.environment["SHOEBOX_LIBRARY"], !environment.isEmpty {
            return URL(fileURLWithPath: environment)
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("Pictures/Shoebox.shoebox")
    }

    /// Opens the library, which must exist already: a typo in the path is an error, never a new
    /// empty library (`shoebox init` makes one). `backgroundWork`: how the command's changes do
    /// their work after they commit (``PhotoLibrary/BackgroundWork``).
    func open(backgroundWork: PhotoLibrary.BackgroundWork = .inProcess) async throws -> PhotoLibrary {
        guard
            FileManager.default.fileExists(atPath: url.appendingPathComponent("library.json").path)
                || FileManager.default.fileExists(atPath: url.appendingPathComponent("catalog.sqlite").path)
        else {
            Terminal.standardError("error: no library at \(url.path) (shoebox init --library \(url.path) makes one)")
            throw ExitCode.failure
        }
        do {
            if let person { return try await PhotoLibrary.open(at: url, as: person, backgroundWork: backgroundWork) }
            return try await PhotoLibrary.open(at: url, backgroundWork: backgroundWork)
        } catch {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
    }
}

extension LibraryOptions {
    /// Runs `body` on the library opened for the person the options name (its background work
    /// on demand), closes it, and prints a library error as one line.
    func using<T>(_ body: (PhotoLibrary) async throws -> T) async throws -> T {
        let library = try await open(backgroundWork: .onDemand)
        do {
            let result = try await body(library)
            await library.close()
            return result
        } catch let error as LibraryError {
            await library.close()
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        } catch {
            await library.close()
            throw error
        }
    }
}

enum JSONOutput {
    static func print(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        Swift.print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}

/// Finds assets by identifier for the commands that take IDs, failing with one line if any is unknown.
func resolveAssets(_ identifiers: [String], in library: PhotoLibrary) async throws -> [Asset] {
    let assets = try await library.fetchAssets(withLocalIdentifiers: identifiers).allObjects()
    let known = Set(assets.map(\.localIdentifier))
    if let missing = identifiers.first(where: { !known.contains($0) }) {
        Terminal.standardError("error: no asset \(missing)")
        throw ExitCode.failure
    }
    return assets
}
