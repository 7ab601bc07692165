import Foundation
import Synchronization

/// Collects the requests made while a ``PhotoLibrary/performChanges(_:)`` closure runs.
final class ChangeTransaction: Sendable {
    @TaskLocal static var current: ChangeTransaction?

    /// One request, in the order it was made.
    enum Request: Sendable {
        case asset(AssetChangeRequest)
        case collection(AssetCollectionChangeRequest)
    }

    private let requests = Mutex<[Request]>([])

    static func record(_ request: AssetChangeRequest) {
        append(.asset(request), name: "AssetChangeRequest")
    }

    static func record(_ request: AssetCollectionChangeRequest) {
        append(.collection(request), name: "AssetCollectionChangeRequest")
    }

    private static func append(_ request: Request, name: String) {
        requireCurrent(name).requests.withLock { $0.append(request) }
    }

    /// The transaction being recorded; a request made outside one stops the program.
    @discardableResult
    static func requireCurrent(_ name: String) -> ChangeTransaction {
        guard let transaction = current else {
            preconditionFailure("\(name) must be made inside PhotoLibrary.performChanges { … }")
        }
        return transaction
    }

    var recorded: [Request] { requests.withLock { $0 } }
}

/// What a committed change did.
public struct ChangeResult: Sendable {
    /// One creation request's outcome.
    public struct Creation: Sendable, Hashable {
        /// The request's ``AssetChangeRequest/placeholderForCreatedAsset`` identifier.
        public let placeholderIdentifier: String
        /// The asset: the new one, or the existing asset holding the same bytes.
        public let localIdentifier: String
        /// Whether identical bytes were already in the library (nothing new was stored).
        public let isDuplicate: Bool
        /// Whether those bytes were an asset in Recently Deleted, which the import restored (as
        /// Photos does) so the next purge does not take the photo the user just imported again.
        public let isRestored: Bool
        /// Whether the file became a resource of the asset ``localIdentifier`` names (imported
        /// before, or in the same change): a Live Photo's movie (``AssetResource/ResourceType/pairedVideo``)
        /// or the raw file of a RAW+JPEG pair (``AssetResource/ResourceType/alternatePhoto``).
        public let isPairedResource: Bool

        /// An outcome from its parts; the library makes these when a change commits.
        public init(
            placeholderIdentifier: String, localIdentifier: String, isDuplicate: Bool, isRestored: Bool = false,
            isPairedResource: Bool = false
        ) {
            self.placeholderIdentifier = placeholderIdentifier
            self.localIdentifier = localIdentifier
            self.isDuplicate = isDuplicate
            self.isRestored = isRestored
            self.isPairedResource = isPairedResource
        }
    }

    /// The creation requests' outcomes, in the order the requests were made.
    public let created: [Creation]
    /// The identifiers of the albums created, in the order the requests were made.
    public let createdCollections: [String]
    /// Assets already in the library that became a resource of an asset this change created (a
    /// Live Photo's movie or a RAW+JPEG pair's raw imported before its photo): they are gone.
    public var pairedAssets: [String] = []
}
