import ArgumentParser
import Foundation
import ShoeboxLibrary

extension AlbumCommand {
    /// `shoebox album share ALBUM PERSON [--as viewer|contributor]`.
    struct Share: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Share one of your albums with a person of the household, or change their role.",
            discussion: "JSON: the shared album: {localIdentifier, title, owner, role, members: [{name, displayName, role}], count}.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The album (title or identifier).") var album: String
        @Argument(help: "The person's sign-in name.") var person: String
        @Option(name: .customLong("as"), help: ArgumentHelp("viewer (sees, likes, comments) or contributor (also adds photos).", valueName: "role")) var role =
            "viewer"
        @Flag(help: "Print JSON.") var json = false

        func validate() throws {
            guard ["viewer", "contributor"].contains(role) else { throw ValidationError("--as is viewer or contributor, not \(role)") }
        }

        func run() async throws {
            let library = try await options.open()
            let collection = try await AlbumCommand.find(album, in: library)
            do {
                let shared = try await library.shareAlbum(collection, with: person, as: SharedAlbum.Role(rawValue: role) ?? .viewer)
                try SharedAlbumRecord.print([shared], json: json)
            } catch {
                Terminal.standardError("error: \((error as? LibraryError)?.message ?? "\(error)")")
                throw ExitCode.failure
            }
        }
    }

    /// `shoebox album unshare ALBUM PERSON`: the owner takes a person out; naming oneself leaves.
    struct Unshare: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take a person out of a shared album (name yourself to leave one shared with you).")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The shared album's identifier (or, for your own, its title).") var album: String
        @Argument(help: "The person's sign-in name.") var person: String

        func run() async throws {
            let library = try await options.open()
            do {
                let identifier = try await AlbumCommand.sharedIdentifier(album, in: library)
                try await library.unshareAlbum(identifier, with: person)
            } catch {
                Terminal.standardError("error: \((error as? LibraryError)?.message ?? "\(error)")")
                throw ExitCode.failure
            }
        }
    }

    /// `shoebox album shared`: the albums shared with the person and their own shared ones.
    struct Shared: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the albums shared with you and those you share.",
            discussion: "JSON: [{localIdentifier, title, owner, role, members: [{name, displayName, role}], count}].")
        @OptionGroup var options: LibraryOptions
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let library = try await options.open()
            do {
                try SharedAlbumRecord.print(try await library.sharedAlbums(), json: json)
            } catch {
                Terminal.standardError("error: \((error as? LibraryError)?.message ?? "\(error)")")
                throw ExitCode.failure
            }
        }
    }

    /// A shared album's identifier: the identifier itself, or the title of one of the person's shared ones.
    static func sharedIdentifier(_ name: String, in library: PhotoLibrary) async throws -> String {
        let matches = try await library.sharedAlbums().filter { $0.id == name || ($0.role == .owner && $0.title == name) }
        guard matches.count == 1, let album = matches.first else {
            throw LibraryError(.notFound, matches.isEmpty ? "no shared album \(name)" : "several shared albums are called \(name); use the identifier")
        }
        return album.id
    }
}

/// A shared album as `shoebox album share` and `shoebox album shared` print it.
struct SharedAlbumRecord: Encodable {
    struct Member: Encodable {
        let name: String
        let displayName: String
        let role: String
    }

    let localIdentifier: String
    let title: String
    let owner: String
    let role: String
    let members: [Member]
    let count: Int

    init(_ album: SharedAlbum) {
        (localIdentifier, title, owner, role, count) = (album.id, album.title, album.owner.name, album.role.rawValue, album.count)
        members = album.members.map { Member(name: $0.name, displayName: $0.displayName, role: $0.role.rawValue) }
    }

    static func print(_ albums: [SharedAlbum], json: Bool) throws {
        let records = albums.map(SharedAlbumRecord.init)
        if json {
            try JSONOutput.print(records)
            return
        }
        for record in records {
            let people = record.members.map { "\($0.name) (\($0.role))" }.joined(separator: ", ")
            Swift.print(
                "\(record.localIdentifier)  \(record.role)  \(record.count)  \(record.title)  by \(record.owner)\(people.isEmpty ? "" : "  with \(people)")")
        }
    }
}
