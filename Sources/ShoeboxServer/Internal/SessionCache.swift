import Foundation
import ShoeboxLibrary
import Synchronization

/// Sessions and keys this server checked a moment ago. Every request with a session cookie or a
/// person's key would ask the catalog whose it is; a check is reused for ``freshness`` (one
/// second), so a person disabled or signed out, or a key revoked, on any server is refused on
/// every server within a second, and a grid's hundred thumbnail requests cost one query.
final class SessionCache: Sendable {
    /// How long a check is reused.
    static let freshness: Duration = .seconds(1)
    /// The most checks kept (the oldest go first).
    static let capacity = 4_096

    /// The checks of one kind of credential, by token.
    private final class Checks<Credential: Sendable>: Sendable {
        struct Check {
            let person: Person
            let credential: Credential
            let checked: ContinuousClock.Instant
        }

        let checks = Mutex<[String: Check]>([:])

        func check(_ token: String, lookUp: () async throws(LibraryError) -> (Person, Credential)?) async throws(APIError) -> (Person, Credential)? {
            let now = ContinuousClock.now
            if let check = checks.withLock({ $0[token] }), now - check.checked < SessionCache.freshness {
                return (check.person, check.credential)
            }
            let found: (Person, Credential)?
            do { found = try await lookUp() } catch { throw APIError(error) }
            checks.withLock { checks in
                if let (person, credential) = found {
                    if checks.count >= SessionCache.capacity { checks = checks.filter { now - $0.value.checked < SessionCache.freshness } }
                    checks[token] = Check(person: person, credential: credential, checked: now)
                } else {
                    checks[token] = nil
                }
            }
            return found
        }
    }

    private let sessionChecks = Checks<PersonSession>()
    private let keyChecks = Checks<PersonKey>()

    /// The person and session `token` stands for now, or `nil` when it stands for none.
    func person(forToken token: String, library: PhotoLibrary) async throws(APIError) -> (Person, PersonSession)? {
        try await sessionChecks.check(token) { () async throws(LibraryError) in try await library.session(forToken: token) }
    }

    /// The person and key a key's `token` stands for now, or `nil` when it stands for none.
    func person(forKeyToken token: String, library: PhotoLibrary) async throws(APIError) -> (Person, PersonKey)? {
        try await keyChecks.check(token) { () async throws(LibraryError) in try await library.person(forKeyToken: token) }
    }

    /// Forgets every check (after a change of people, sessions or keys made on this server).
    func forgetAll() {
        sessionChecks.checks.withLock { $0.removeAll() }
        keyChecks.checks.withLock { $0.removeAll() }
    }
}
