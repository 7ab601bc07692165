import Foundation

/// The authorization questions the user has yet to answer, or has answered.
///
/// One concern of ``CatalogStore``; every requirement is `async` and never blocks its caller.
package protocol PromptCatalog: Sendable {
    /// Adds a question, unless one for the same client and service is still pending: then that
    /// one is returned (two servers asking at once ask the user once). Questions past their
    /// expiry are marked expired first, and ones settled over a day ago removed. When the client
    /// already has a decision for the service (answered since the asker read its status), no
    /// question is added: the returned one, not stored, is answered with that decision.
    func addPrompt(_ prompt: AuthorizationPromptRecord) async throws(LibraryError) -> AuthorizationPromptRecord
    /// The question with this id, in whatever state; `nil` when unknown or removed (settled
    /// questions go after a day).
    func prompt(id: String) async throws(LibraryError) -> AuthorizationPromptRecord?
    /// Questions waiting for the user at `now`, oldest first.
    func pendingPrompts(now: Date) async throws(LibraryError) -> [AuthorizationPromptRecord]
    /// Records the user's answer to a pending, unexpired question and, in the same transaction,
    /// the decision it makes (`grant`: the status, and a limited selection); `false` when it was
    /// not pending (answered already, expired or unknown), and then nothing is recorded.
    func answerPrompt(
        id: String, answer: AuthorizationPromptRecord.Answer, now: Date, recording grant: (status: String, selection: [String]?)?
    ) async throws(LibraryError) -> Bool
    /// Marks a pending question expired; `false` when it was not pending.
    func expirePrompt(id: String) async throws(LibraryError) -> Bool
}
