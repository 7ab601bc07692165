import Foundation
import ShoeboxLibrary
import Synchronization

/// Asks the user in the web app: a client's request for access waits here until the user answers
/// the dialog (Allow / Don't Allow / Select Photos…) or the timeout passes.
final class WebPrompter: AuthorizationPrompter {
    /// A question waiting for the user.
    struct Pending: Sendable, Encodable {
        let id: String
        let client: String
        let clientName: String
        let service: String
        let usageDescription: String
        let offersLimitedAccess: Bool
        let date: Date
    }

    private struct Waiting {
        let pending: Pending
        let continuation: CheckedContinuation<AuthorizationAnswer, any Error>
    }

    let timeout: Duration
    private let waiting = Mutex<[String: Waiting]>([:])
    private let listeners = Mutex<[UUID: AsyncStream<Pending>.Continuation]>([:])

    init(timeout: Duration) {
        self.timeout = timeout
    }

    func prompt(_ prompt: AuthorizationPrompt) async throws(AuthorizationError) -> AuthorizationAnswer {
        let pending = Pending(
            id: ServerState.randomToken(), client: prompt.client.identifier, clientName: prompt.client.displayName,
            service: prompt.service.policyName, usageDescription: prompt.usageDescription,
            offersLimitedAccess: prompt.offersLimitedAccess, date: Date())
        let timeout = self.timeout
        let expiry = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            self?.fail(pending.id, AuthorizationError.cannotPrompt(
                client: prompt.client.identifier, service: prompt.service, reason: "nobody answered in the web app within \(timeout)"))
        }
        defer { expiry.cancel() }
        do {
            return try await withCheckedThrowingContinuation { continuation in
                waiting.withLock { $0[pending.id] = Waiting(pending: pending, continuation: continuation) }
                for listener in listeners.withLock({ Array($0.values) }) { listener.yield(pending) }
            }
        } catch let error as AuthorizationError {
            throw error
        } catch {
            throw .cannotPrompt(client: prompt.client.identifier, service: prompt.service, reason: "\(error)")
        }
    }

    /// Questions waiting now, oldest first.
    var pending: [Pending] { waiting.withLock { $0.values.map(\.pending).sorted { $0.date < $1.date } } }

    /// New questions from now on.
    func questions() -> AsyncStream<Pending> {
        let (stream, continuation) = AsyncStream<Pending>.makeStream()
        let id = UUID()
        listeners.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.listeners.withLock { $0.removeValue(forKey: id) } }
        return stream
    }

    /// The user's answer.
    ///
    /// - Returns: Whether a question with that id was waiting.
    @discardableResult
    func answer(_ id: String, with answer: AuthorizationAnswer) -> Bool {
        guard let waiter = waiting.withLock({ $0.removeValue(forKey: id) }) else { return false }
        waiter.continuation.resume(returning: answer)
        return true
    }

    private func fail(_ id: String, _ error: AuthorizationError) {
        waiting.withLock { $0.removeValue(forKey: id) }?.continuation.resume(throwing: error)
    }
}
