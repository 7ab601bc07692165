import Foundation

extension PhotoLibrary {
    /// What a sign-in came to.
    package enum SignInOutcome: Sendable {
        /// The person, their new session, and its token (for the cookie; the catalog keeps only
        /// its hash).
        case signedIn(Person, PersonSession, token: String)
        /// Wrong name or password, a disabled person, or no password: the caller cannot tell which.
        case refused
        /// Too many failures lately for this name or from this address: try again after this long.
        case throttled(retryAfter: TimeInterval)
    }

    /// Failed sign-ins in ``signInWindow`` after which a name is refused until the window passes.
    package static let signInFailuresPerName = 5
    /// Failed sign-ins in ``signInWindow`` after which an address is refused until it passes.
    package static let signInFailuresPerAddress = 20
    /// The window failures are counted in: 15 minutes.
    package static let signInWindow: TimeInterval = 15 * 60

    /// Signs a person in with their password, throttled per name and per address across every
    /// server of the library (the failures are kept in the catalog), and starts a session.
    package func signIn(name: String, password: String, address: String, userAgent: String, now: Date = Date()) async throws(LibraryError)
        -> SignInOutcome
    {
        let name = name.lowercased()
        let failures = try await catalog.signInFailures(name: name, address: address, since: now.addingTimeInterval(-Self.signInWindow))
        if failures.forName >= Self.signInFailuresPerName || failures.fromAddress >= Self.signInFailuresPerAddress {
            return .throttled(retryAfter: Self.signInWindow)
        }
        guard let person = try await authenticate(name: name, password: password) else {
            try await catalog.logSignInFailure(name: name, address: address, date: now)
            return .refused
        }
        let (session, token) = try await startSession(for: person, address: address, userAgent: userAgent, now: now)
        return .signedIn(person, session, token: token)
    }

    /// Starts a session for `person` (who has signed in some way: a password, a passkey, OpenID
    /// Connect). Returns it and its token.
    package func startSession(for person: Person, address: String, userAgent: String, now: Date = Date()) async throws(LibraryError) -> (
        PersonSession, String
    ) {
        let token = RandomToken.base64URL()
        let session = PersonSession(
            id: RandomToken.hex(words: 1), personID: person.rowID, epoch: try await catalog.sessionEpoch(of: person.rowID), createdDate: now,
            lastSeenDate: now, expiresDate: now.addingTimeInterval(PersonSession.lifetime), address: address,
            userAgent: String(userAgent.prefix(200)))
        try await catalog.addSession(session, tokenHash: Hex.sha256(Data(token.utf8)))
        return (session, token)
    }

    /// The person and session a session token stands for, while the session lasts: not expired,
    /// the person active, and their epoch what it was when the session began. A session used
    /// again more than an hour after its last recorded use is extended.
    package func session(forToken token: String, now: Date = Date()) async throws(LibraryError) -> (Person, PersonSession)? {
        guard let (session, person, epoch) = try await catalog.session(tokenHash: Hex.sha256(Data(token.utf8))),
            session.expiresDate > now, person.state == .active, session.epoch == epoch
        else { return nil }
        if now.timeIntervalSince(session.lastSeenDate) > 3_600 {
            try await catalog.touchSession(id: session.id, lastSeen: now, expires: now.addingTimeInterval(PersonSession.lifetime))
        }
        return (person, session)
    }

    /// A person's sessions that have not ended, the most recently used first.
    package func sessions(of person: Person, now: Date = Date()) async throws(LibraryError) -> [PersonSession] {
        try await catalog.sessions(of: person.rowID, now: now)
    }

    /// Ends one of a person's sessions; `false` when they have none with `id`.
    package func endSession(_ id: String, of person: Person) async throws(LibraryError) -> Bool {
        try await catalog.removeSession(id: id, of: person.rowID)
    }
}
