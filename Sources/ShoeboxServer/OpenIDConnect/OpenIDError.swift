import Foundation
import ShoeboxSupport

/// Why signing in with the OpenID Connect provider failed: the provider could not be reached or
/// answered something that is not OpenID Connect, it refused the code, or its ID token does not
/// hold. The sign-in page shows ``message``; the log keeps it with the address.
public struct OpenIDError: ShoeboxError {
    /// A kind of failure. New codes may be added: switch with a `default`.
    public struct Code: ShoeboxErrorCode {
        /// The code's stable name, such as `invalidToken`.
        public let rawValue: String
        /// The code of this name; any name is accepted.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The provider's configuration, keys or token endpoint could not be reached or read.
        public static let provider = Code(rawValue: "provider")
        /// The provider refused the authorization code, or sent the browser back with an error.
        public static let refused = Code(rawValue: "refused")
        /// The ID token does not hold: its signature, issuer, audience, expiry or nonce.
        public static let invalidToken = Code(rawValue: "invalidToken")
    }

    /// The kind of failure, to switch on.
    public let code: Code
    /// A one-line, human-readable explanation that names the problem.
    public let message: String
    /// The error that caused this one (the HTTP client's, the decoder's), if any.
    public let underlying: (any Error)?

    /// An error of `code`, explained by `message`, caused by `underlying`.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }
}
