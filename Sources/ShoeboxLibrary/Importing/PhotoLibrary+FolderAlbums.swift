import Foundation

extension PhotoLibrary {
    /// Files the assets an import made or found into albums named after the folders they came
    /// from, as Photos does with "Keep folder organization": a folder that holds photos becomes
    /// an album; a folder that holds folders becomes a folder for albums; one that holds both
    /// becomes a folder holding an album of its own name for its photos. An album or folder of
    /// the same title in the same place is reused, so importing the same tree again fills the
    /// albums it made before instead of making new ones.
    ///
    /// - Parameter folders: Each folder path (its names, outermost first, as
    ///   ``ImportFileList/folders`` gives them) with the assets found in it, in import order (an
    ///   asset found twice, a Live Photo's two files, goes in once).
    /// - Returns: The albums filled, in the order of `folders`.
    func fileIntoFolderAlbums(_ folders: [(path: [String], assets: [String])]) async throws -> [String] {
        let withAssets = folders.filter { !$0.path.isEmpty && !$0.assets.isEmpty }
        guard !withAssets.isEmpty else { return [] }
        // A path is a folder for albums when another path with assets lies below it.
        var containers: Set<[String]> = []
        for entry in withAssets {
            for end in 1..<entry.path.count { containers.insert(Array(entry.path[..<end])) }
        }
        let existing = try await ExistingCollections(library: self)
        var albumIdentifiers: [String] = []
        try await performChanges {
            var madeFolders: [[String]: String] = [:]
            func folder(at path: [String]) -> String {
                if let known = madeFolders[path] { return known }
                let parent = path.count > 1 ? folder(at: Array(path.dropLast())) : nil
                let title = Self.folderAlbumTitle(path.last!)
                let identifier: String
                if let found = existing.folders[ExistingCollections.Key(parent: parent, title: title)] {
                    identifier = found
                } else {
                    let request = AssetCollectionChangeRequest.creationRequestForFolder(withTitle: title)
                    let placeholder = request.placeholderForCreatedAssetCollection!
                    if let parent { request.moveToFolder(ObjectPlaceholder(localIdentifier: parent)) }
                    identifier = placeholder.localIdentifier
                }
                madeFolders[path] = identifier
                return identifier
            }
            var madeAlbums: [[String]: String] = [:]
            for entry in withAssets {
                // A folder that also holds folders keeps its own photos in an album inside itself.
                let parent: String? =
                    containers.contains(entry.path)
                    ? folder(at: entry.path) : entry.path.count > 1 ? folder(at: Array(entry.path.dropLast())) : nil
                let title = Self.folderAlbumTitle(entry.path.last!)
                var seen: Set<String> = []
                let placeholders = entry.assets.filter { seen.insert($0).inserted }.map { ObjectPlaceholder(localIdentifier: $0) }
                if let known = madeAlbums[entry.path] ?? existing.albums[ExistingCollections.Key(parent: parent, title: title)] {
                    AssetCollectionChangeRequest(identifier: known).addAssets(placeholders)
                    madeAlbums[entry.path] = known
                    albumIdentifiers.append(known)
                    continue
                }
                let request = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
                if let parent { request.moveToFolder(ObjectPlaceholder(localIdentifier: parent)) }
                request.addAssets(placeholders)
                let identifier = request.placeholderForCreatedAssetCollection!.localIdentifier
                madeAlbums[entry.path] = identifier
                albumIdentifiers.append(identifier)
            }
        }
        var seen: Set<String> = []
        return albumIdentifiers.filter { seen.insert($0).inserted }
    }

    /// A folder's name as an album title: trimmed, and cut to
    /// ``AssetCollectionChangeRequest/maximumTitleLength`` characters; a name of white space only
    /// is "Untitled".
    static func folderAlbumTitle(_ name: String) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? "Untitled" : String(trimmed.prefix(AssetCollectionChangeRequest.maximumTitleLength))
    }

    /// The library's albums and folders by where they are and what they are called.
    private struct ExistingCollections {
        struct Key: Hashable {
            let parent: String?
            let title: String
        }

        var albums: [Key: String] = [:]
        var folders: [Key: String] = [:]

        init(library: PhotoLibrary) async throws {
            albums = try await Self.byPlace(library.fetchAssetCollections(with: .album).allObjects())
            folders = try await Self.byPlace(library.fetchAssetCollections(with: .folder).allObjects())
        }

        /// The oldest wins a title that is there twice in one place.
        private static func byPlace(_ collections: [AssetCollection]) -> [Key: String] {
            let oldestFirst = collections.sorted { ($0.creationDate ?? .distantFuture) < ($1.creationDate ?? .distantFuture) }
            var found: [Key: String] = [:]
            for collection in oldestFirst {
                let key = Key(parent: collection.parentFolderIdentifier, title: collection.localizedTitle)
                if found[key] == nil { found[key] = collection.localIdentifier }
            }
            return found
        }
    }
}
