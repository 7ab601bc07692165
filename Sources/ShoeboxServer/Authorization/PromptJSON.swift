import Foundation
import ShoeboxLibrary

/// A question waiting for the user, as `GET /api/prompts` and the `prompt` event give it.
struct PromptJSON: Encodable {
    let id: String
    let client: String
    let clientName: String
    let service: String
    let usageDescription: String
    let offersLimitedAccess: Bool
    /// For a deletion question (`service` `deleteAssets:…`), the assets to delete.
    let assets: [String]?
    let date: Date
    let expires: Date

    init(_ record: AuthorizationPromptRecord) {
        id = record.id
        client = record.client
        clientName = record.clientName
        service = record.service
        usageDescription = record.usageDescription
        offersLimitedAccess = record.offersLimitedAccess
        assets = record.assets
        date = record.createdDate
        expires = record.expiresDate
    }
}
