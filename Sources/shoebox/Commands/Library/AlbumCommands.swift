import ArgumentParser
import Foundation
import ShoeboxLibrary

struct AlbumsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "albums",
        abstract: "List smart albums and albums with their counts.",
        discussion: "JSON: [{localIdentifier, title, type (smartAlbum|album), subtype, count}].")

    @OptionGroup var options: LibraryOptions
    @Flag(help: "Print JSON.") var json = false

    struct Record: Encodable {
        let localIdentifier: String
        let title: String
        let type: String
        let subtype: String
        let count: Int
    }

    func run() throws {
        let library = try options.open()
        var records: [Record] = []
        do {
            for type in [AssetCollection.CollectionType.smartAlbum, .album] {
                for collection in try library.fetchAssetCollections(with: type) {
                    records.append(Record(
                        localIdentifier: collection.localIdentifier, title: collection.localizedTitle,
                        type: type == .album ? "album" : "smartAlbum", subtype: "\(collection.assetCollectionSubtype)",
                        count: collection.estimatedAssetCount))
                }
            }
        } catch {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
        if json {
            try JSONOutput.print(records)
        } else {
            for record in records {
                print("\(record.localIdentifier)  \(record.type == "album" ? "album" : "smart")  \(record.count)  \(record.title)")
            }
        }
    }
}

struct AlbumCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "album",
        abstract: "Create, rename, delete and fill albums.",
        subcommands: [Create.self, Rename.self, Delete.self, Add.self, Remove.self])

    /// An album named by title or identifier; a title must be unique.
    static func find(_ name: String, in library: PhotoLibrary) throws -> AssetCollection {
        let albums = Array(try library.fetchAssetCollections(with: .album))
        let matches = albums.filter { $0.localIdentifier == name || $0.localizedTitle == name }
        guard matches.count == 1, let album = matches.first else {
            Terminal.standardError(matches.isEmpty ? "error: no album \(name)" : "error: several albums are called \(name); use the identifier")
            throw ExitCode.failure
        }
        return album
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make an empty album; prints its identifier.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The title.") var title: String

        func run() async throws {
            let library = try options.open()
            let result = try await library.performChanges {
                _ = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
            }
            print(result.createdCollections[0])
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename an album.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The album (title or identifier).") var album: String
        @Argument(help: "The new title.") var title: String

        func run() async throws {
            let library = try options.open()
            let collection = try AlbumCommand.find(album, in: library)
            try await library.performChanges { AssetCollectionChangeRequest(for: collection).title = title }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an album (its assets stay in the library).")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The album (title or identifier).") var album: String

        func run() async throws {
            let library = try options.open()
            let collection = try AlbumCommand.find(album, in: library)
            try await library.performChanges { AssetCollectionChangeRequest.deleteAssetCollections([collection]) }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add assets to an album.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The album (title or identifier).") var album: String
        @Argument(help: "Asset identifiers.") var identifiers: [String]

        func run() async throws {
            let library = try options.open()
            let collection = try AlbumCommand.find(album, in: library)
            let assets = try resolveAssets(identifiers, in: library)
            try await library.performChanges { AssetCollectionChangeRequest(for: collection).addAssets(assets) }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take assets out of an album (not out of the library).")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The album (title or identifier).") var album: String
        @Argument(help: "Asset identifiers.") var identifiers: [String]

        func run() async throws {
            let library = try options.open()
            let collection = try AlbumCommand.find(album, in: library)
            let assets = try resolveAssets(identifiers, in: library)
            try await library.performChanges { AssetCollectionChangeRequest(for: collection).removeAssets(assets) }
        }
    }
}
