import ArgumentParser
import Foundation
import ShoeboxLibrary

struct AlbumsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "albums",
        abstract: "List smart albums and albums with their counts.",
        discussion:
            "JSON: [{localIdentifier, title, type (smartAlbum|album|folder), subtype, count, folder}]; a folder's count is how many albums and folders it holds."
    )

    @OptionGroup var options: LibraryOptions
    @Flag(help: "Print JSON.") var json = false

    struct Record: Encodable {
        let localIdentifier: String
        let title: String
        let type: String
        let subtype: String
        let count: Int
        /// The enclosing folder's identifier.
        let folder: String?
    }

    func run() async throws {
        let library = try await options.open()
        var records: [Record] = []
        do {
            for type in [AssetCollection.CollectionType.smartAlbum, .folder, .album] {
                for collection in try await library.fetchAssetCollections(with: type).allObjects() {
                    records.append(
                        Record(
                            localIdentifier: collection.localIdentifier, title: collection.localizedTitle,
                            type: "\(type)", subtype: "\(collection.assetCollectionSubtype)",
                            count: collection.estimatedAssetCount, folder: collection.parentFolderIdentifier))
                }
            }
        } catch {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
        if json {
            try JSONOutput.print(records)
        } else {
            let titles = Dictionary(records.map { ($0.localIdentifier, $0.title) }, uniquingKeysWith: { first, _ in first })
            for record in records {
                let kind = record.type == "smartAlbum" ? "smart" : record.type
                let place = record.folder.flatMap { titles[$0] }.map { "  (in \($0))" } ?? ""
                print("\(record.localIdentifier)  \(kind)  \(record.count)  \(record.title)\(place)")
            }
        }
    }
}

struct AlbumCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "album",
        abstract: "Create, rename, delete, fill and file albums and folders.",
        subcommands: [Create.self, CreateFolder.self, Rename.self, Delete.self, Add.self, Remove.self, Move.self, Share.self, Unshare.self, Shared.self])

    /// An album (or, with `folders`, a folder) named by title or identifier; a title must be unique.
    static func find(_ name: String, in library: PhotoLibrary, folders: Bool = false) async throws -> AssetCollection {
        var albums = try await library.fetchAssetCollections(with: .album).allObjects()
        if folders { albums += try await library.fetchAssetCollections(with: .folder).allObjects() }
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
        @Option(help: "Put it in this folder (title or identifier).") var folder: String?

        func run() async throws {
            try await AlbumCommand.create(
                title: title, inFolder: folder, options: options, makeRequest: AssetCollectionChangeRequest.creationRequestForAssetCollection)
        }
    }

    struct CreateFolder: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create-folder", abstract: "Make an empty folder for albums; prints its identifier.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The title.") var title: String
        @Option(help: "Put it in this folder (title or identifier).") var folder: String?

        func run() async throws {
            try await AlbumCommand.create(title: title, inFolder: folder, options: options, makeRequest: AssetCollectionChangeRequest.creationRequestForFolder)
        }
    }

    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Put an album or folder in a folder, or back at the top level.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The album or folder (title or identifier).") var album: String
        @Option(help: "The destination folder (title or identifier).") var to: String?
        @Flag(help: "Move it to the top level.") var topLevel = false

        func validate() throws {
            guard (to == nil) != (!topLevel) else { throw ValidationError("give either --to FOLDER or --top-level") }
        }

        func run() async throws {
            let library = try await options.open()
            let collection = try await AlbumCommand.find(album, in: library, folders: true)
            var destination: AssetCollection?
            if let to { destination = try await AlbumCommand.findFolder(to, in: library) }
            do {
                try await library.performChanges { AssetCollectionChangeRequest(for: collection).moveToFolder(destination) }
            } catch let error as LibraryError {
                Terminal.standardError("error: \(error.message)")
                throw ExitCode.failure
            }
        }
    }

    /// Makes an album or folder, optionally inside a folder, and prints its identifier.
    static func create(
        title: String, inFolder folder: String?, options: LibraryOptions,
        makeRequest: @escaping (String) -> AssetCollectionChangeRequest
    ) async throws {
        let library = try await options.open()
        var parent: AssetCollection?
        if let folder { parent = try await Self.findFolder(folder, in: library) }
        let result = try await library.performChanges {
            let request = makeRequest(title)
            if let parent { request.moveToFolder(parent) }
        }
        print(result.createdCollections[0])
    }

    static func findFolder(_ name: String, in library: PhotoLibrary) async throws -> AssetCollection {
        let folders = try await library.fetchAssetCollections(with: .folder).allObjects().filter { $0.localIdentifier == name || $0.localizedTitle == name }
        guard folders.count == 1, let folder = folders.first else {
            Terminal.standardError(folders.isEmpty ? "error: no folder \(name)" : "error: several folders are called \(name); use the identifier")
            throw ExitCode.failure
        }
        return folder
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename an album or folder.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The album (title or identifier).") var album: String
        @Argument(help: "The new title.") var title: String

        func run() async throws {
            let library = try await options.open()
            let collection = try await AlbumCommand.find(album, in: library, folders: true)
            try await library.performChanges { AssetCollectionChangeRequest(for: collection).title = title }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an album or folder (assets stay in the library; a folder's albums move up a level).")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The album (title or identifier).") var album: String

        func run() async throws {
            let library = try await options.open()
            let collection = try await AlbumCommand.find(album, in: library, folders: true)
            try await library.performChanges { AssetCollectionChangeRequest.deleteAssetCollections([collection]) }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add assets to an album.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The album (title or identifier).") var album: String
        @Argument(help: "Asset identifiers.") var identifiers: [String]

        func run() async throws {
            let library = try await options.open()
            let collection = try await AlbumCommand.find(album, in: library)
            let assets = try await resolveAssets(identifiers, in: library)
            try await library.performChanges { AssetCollectionChangeRequest(for: collection).addAssets(assets) }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take assets out of an album (not out of the library).")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The album (title or identifier).") var album: String
        @Argument(help: "Asset identifiers.") var identifiers: [String]

        func run() async throws {
            let library = try await options.open()
            let collection = try await AlbumCommand.find(album, in: library)
            let assets = try await resolveAssets(identifiers, in: library)
            try await library.performChanges { AssetCollectionChangeRequest(for: collection).removeAssets(assets) }
        }
    }
}
