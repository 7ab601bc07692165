import Foundation
import Synchronization

/// Creates, renames, fills, reorders and deletes user albums inside
/// ``PhotoLibrary/performChanges(_:)``: `PHAssetCollectionChangeRequest` without the prefix.
///
/// ```swift
/// try await library.performChanges {
///     let album = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Holidays")
///     album.addAssets(beachPhotos)
/// }
/// ```
public final class AssetCollectionChangeRequest: Sendable {
    enum Kind: Sendable {
        case create(title: String, placeholder: String, isFolder: Bool)
        case modify(localIdentifier: String)
        case delete([String])
    }

    /// One change to an album, as a ``CatalogStore`` applies it.
    public enum Operation: Sendable {
        /// Gives the album or folder this title (``AssetCollectionChangeRequest/title``).
        case rename(String)
        /// Assets (identifiers, or placeholders of the same change) appended in this order.
        case add([String])
        /// Takes the assets with these identifiers out of the album (not out of the library); ones
        /// not in it are ignored. A folder refuses it.
        case remove([String])
        /// The assets at these indexes moved to `to` (indexes in the order before the move).
        case move(from: [Int], to: Int)
        /// Into this folder (`nil`: the top level).
        case moveToFolder(String?)
    }

    let kind: Kind
    private let operations = Mutex<[Operation]>([])

    /// The album a creation request will make.
    public let placeholderForCreatedAssetCollection: ObjectPlaceholder?

    private init(kind: Kind) {
        self.kind = kind
        if case .create(_, let placeholder, _) = kind {
            placeholderForCreatedAssetCollection = ObjectPlaceholder(localIdentifier: placeholder)
        } else {
            placeholderForCreatedAssetCollection = nil
        }
        ChangeTransaction.record(self)
    }

    /// The longest title an album or folder may have, in characters.
    public static let maximumTitleLength = 200

    /// `title` as the library keeps it: without leading and trailing white space, 1 to
    /// ``maximumTitleLength`` characters. A change that creates or renames an album or folder with
    /// another title fails with ``LibraryError/Code/invalidArgument``; the web app, the API and
    /// the CLI all meet this one rule.
    public static func validatedTitle(_ title: String) throws(LibraryError) -> String {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= maximumTitleLength else {
            throw .invalidArgument("an album title must have 1 to \(maximumTitleLength) characters")
        }
        return trimmed
    }

    /// Makes a new, empty album.
    public static func creationRequestForAssetCollection(withTitle title: String) -> AssetCollectionChangeRequest {
        AssetCollectionChangeRequest(kind: .create(title: title, placeholder: ObjectPlaceholder.newIdentifier(), isFolder: false))
    }

    /// Makes a new, empty folder for albums (`PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle:)`).
    public static func creationRequestForFolder(withTitle title: String) -> AssetCollectionChangeRequest {
        AssetCollectionChangeRequest(kind: .create(title: title, placeholder: ObjectPlaceholder.newIdentifier(), isFolder: true))
    }

    /// Changes a user album (smart albums cannot be changed: the change fails).
    public convenience init(for collection: AssetCollection) {
        self.init(identifier: collection.localIdentifier)
    }

    /// Changes the user album or folder with this identifier.
    convenience init(identifier: String) {
        self.init(kind: .modify(localIdentifier: identifier))
    }

    /// Deletes user albums and folders; their assets stay in the library, and a folder's albums
    /// move up to the folder's own parent.
    public static func deleteAssetCollections(_ collections: [AssetCollection]) {
        _ = AssetCollectionChangeRequest(kind: .delete(collections.map(\.localIdentifier)))
    }

    /// Renames the album.
    public var title: String? {
        get {
            operations.withLock { list in
                for case .rename(let title) in list.reversed() { return title }
                if case .create(let title, _, _) = kind { return title }
                return nil
            }
        }
        set {
            if let newValue { operations.withLock { $0.append(.rename(newValue)) } }
        }
    }

    /// Appends assets (already present ones stay where they are).
    public func addAssets(_ assets: [Asset]) {
        operations.withLock { $0.append(.add(assets.map(\.localIdentifier))) }
    }

    /// Appends assets being created in the same change, by their placeholders.
    public func addAssets(_ placeholders: [ObjectPlaceholder]) {
        operations.withLock { $0.append(.add(placeholders.map(\.localIdentifier))) }
    }

    /// Takes assets out of the album (not out of the library).
    public func removeAssets(_ assets: [Asset]) {
        operations.withLock { $0.append(.remove(assets.map(\.localIdentifier))) }
    }

    /// Moves the assets at `indexes` so that they start at `index` (positions counted after
    /// they are taken out), keeping their order.
    public func moveAssets(at indexes: IndexSet, to index: Int) {
        operations.withLock { $0.append(.move(from: Array(indexes), to: index)) }
    }

    /// Puts the album or folder inside `folder` (`nil`: the top level). A folder cannot go
    /// inside itself or its own subfolders: the change fails.
    public func moveToFolder(_ folder: AssetCollection?) {
        operations.withLock { $0.append(.moveToFolder(folder?.localIdentifier)) }
    }

    /// Puts the album or folder inside a folder created in the same change.
    public func moveToFolder(_ placeholder: ObjectPlaceholder) {
        operations.withLock { $0.append(.moveToFolder(placeholder.localIdentifier)) }
    }

    var recordedOperations: [Operation] { operations.withLock { $0 } }
}
