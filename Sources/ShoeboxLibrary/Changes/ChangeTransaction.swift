import Foundation
import Synchronization

/// Collects the requests made while a ``PhotoLibrary/performChanges(_:)`` closure runs.
final class ChangeTransaction: Sendable {
    @TaskLocal static var current: ChangeTransaction?

    private let requests = Mutex<[AssetChangeRequest]>([])

    static func record(_ request: AssetChangeRequest) {
        guard let transaction = current else {
            preconditionFailure("AssetChangeRequest must be made inside PhotoLibrary.performChanges { … }")
        }
        transaction.requests.withLock { $0.append(request) }
    }

    var recorded: [AssetChangeRequest] { requests.withLock { $0 } }
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
    }

    /// The creation requests' outcomes, in the order the requests were made.
    public let created: [Creation]
}
