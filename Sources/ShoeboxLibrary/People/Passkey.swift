import Foundation

/// A passkey a person registered to sign in without a password (WebAuthn): the authenticator
/// (a phone, a security key, the browser's password manager) keeps the private key; the catalog
/// keeps the public key, and the count of signatures the authenticator reports, to notice a
/// cloned authenticator.
public struct Passkey: Sendable, Hashable, Codable, Identifiable {
    /// The credential's id (base64url, as the authenticator gave it).
    public let id: String
    /// The person's ``Person/rowID``.
    package let personID: Int64
    /// The name its person gave it ("Phone").
    public let name: String
    /// When it was registered.
    public let createdDate: Date
    /// When it last signed in, `nil` before the first time.
    public let lastUsedDate: Date?
    /// The public key: for ES256, the uncompressed P-256 point (65 bytes); for EdDSA, the
    /// Ed25519 key (32 bytes).
    package let publicKey: Data
    /// The COSE algorithm of ``publicKey``: -7 (ES256) or -8 (EdDSA).
    package let algorithm: Int
    /// The signature count the authenticator last reported (0 for those that count nothing).
    package let signCount: UInt32

    /// The most passkeys a person may have.
    public static let maximumPerPerson = 20

    package init(
        id: String, personID: Int64, name: String, createdDate: Date, lastUsedDate: Date?, publicKey: Data, algorithm: Int, signCount: UInt32
    ) {
        self.id = id
        self.personID = personID
        self.name = name
        self.createdDate = createdDate
        self.lastUsedDate = lastUsedDate
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.signCount = signCount
    }
}
