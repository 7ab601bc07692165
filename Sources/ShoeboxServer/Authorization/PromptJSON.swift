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
    let date: Date
    let expires: Date

    init(_ record: AuthorizationPromptRecord) {
        id = record.id
        client = record.client
        clientName = record.clientName
        service = record.service
        usageDescription = record.usageDescription
        offersLimitedAccess = record.offersLimitedAccess
        date = record.createdDate
        expires = record.expiresDate
    }
}
