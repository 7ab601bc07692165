import Foundation
import Synchronization

/// Tokens taken once each on this server until they expire (an OpenID Connect sign-in's
/// `state`, a passkey challenge): a second use of one is refused.
final class OnceTokens: Sendable {
    private let taken = Mutex<[String: Date]>([:])

    /// Takes `token`, which is good until `expires`: `false` when it was taken before.
    func take(_ token: String, until expires: Date, now: Date = Date()) -> Bool {
        taken.withLock { taken in
            taken = taken.filter { $0.value > now }
            guard taken[token] == nil else { return false }
            taken[token] = expires
            return true
        }
    }
}
