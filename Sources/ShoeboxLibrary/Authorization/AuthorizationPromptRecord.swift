import Foundation

/// An authorization question as the catalog keeps it, so that every server of a library shows it
/// and any of them takes the answer: raised where the client asked, answered wherever the user
/// is (see ``CatalogPrompter``).
package struct AuthorizationPromptRecord: Sendable, Hashable, Codable {
    /// Where a question is.
    package enum State: String, Sendable, Hashable, Codable {
        /// Waiting for the user.
        case pending
        /// The user answered (``AuthorizationPromptRecord/answer``).
        case answered
        /// Nobody answered in time, or the asking side gave up.
        case expired
    }

    /// An unguessable identifier (128 random bits, hex).
    package let id: String
    /// The asking client's identifier, and its name as the user sees it.
    package let client: String
    /// The asking client's name as the user sees it (its manifest's ``ClientManifest/displayName``).
    package let clientName: String
    /// The service's policy name: `camera`, `microphone`, `photoLibrary`, `photoLibraryAdd`.
    package let service: String
    /// The client's own words for the service (its manifest's usage description).
    package let usageDescription: String
    /// Whether "Select Photos…" may be answered (library read-write only).
    package let offersLimitedAccess: Bool
    /// For a deletion question (``deletionService``), the assets the client would delete.
    package let assets: [String]?
    /// When the client asked.
    package let createdDate: Date
    /// After this the question is expired, answered or not.
    package let expiresDate: Date
    /// Whether the question waits for the user, was answered, or expired.
    package var state: State
    /// The user's answer, once ``state`` is ``State/answered``.
    package var answer: Answer?
    /// When the user answered, once ``state`` is ``State/answered``.
    package var answeredDate: Date?

    /// An answer in a form the catalog stores.
    package struct Answer: Sendable, Hashable, Codable {
        /// `allow`, `deny` or `selectPhotos`.
        package let decision: String
        /// The assets shared, for `selectPhotos`.
        package let assets: [String]

        /// The stored form of `answer`: its decision, and the assets for `selectPhotos`.
        package init(_ answer: AuthorizationAnswer) {
            switch answer {
            case .allow:
                decision = "allow"
                assets = []
            case .deny:
                decision = "deny"
                assets = []
            case .selectPhotos(let list):
                decision = "selectPhotos"
                assets = list
            }
        }

        init(decision: String, assets: [String]) {
            self.decision = decision
            self.assets = assets
        }

        /// The answer it stands for; `nil` for a decision this version does not know.
        package var authorizationAnswer: AuthorizationAnswer? {
            switch decision {
            case "allow": .allow
            case "deny": .deny
            case "selectPhotos": .selectPhotos(assets)
            default: nil
            }
        }
    }

    /// The start of a deletion question's service: a client asks the user before it deletes
    /// assets (as PhotoKit asks before an app's `deleteAssets`). The rest of the service names
    /// the set, so two servers asking about the same deletion share one question.
    package static let deletionService = "deleteAssets"

    /// Whether this asks the user to confirm a client's deletion rather than to grant a service.
    package var isDeletion: Bool { service.hasPrefix(Self.deletionService) }

    /// A question from its fields; a new one is ``State/pending`` with no answer.
    package init(
        id: String, client: String, clientName: String, service: String, usageDescription: String, offersLimitedAccess: Bool,
        assets: [String]? = nil, createdDate: Date, expiresDate: Date, state: State = .pending, answer: Answer? = nil,
        answeredDate: Date? = nil
    ) {
        self.id = id
        self.client = client
        self.clientName = clientName
        self.service = service
        self.usageDescription = usageDescription
        self.offersLimitedAccess = offersLimitedAccess
        self.assets = assets
        self.createdDate = createdDate
        self.expiresDate = expiresDate
        self.state = state
        self.answer = answer
        self.answeredDate = answeredDate
    }
}
