import Foundation
import ShoeboxImaging

/// Why object storage refused or failed a request, in words a user can act on.
public struct ObjectStorageError: ShoeboxError, Hashable {
    /// What kind of failure it is: an extensible set of names, compared with the static members.
    public struct Code: ShoeboxErrorCode {
        /// The code's name (`bucketMissing`, `throttled`, …).
        public let rawValue: String
        /// The code of this name; the known ones are the static members.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The bucket does not exist.
        public static let bucketMissing = Code(rawValue: "bucketMissing")
        /// No credentials were found.
        public static let credentialsMissing = Code(rawValue: "credentialsMissing")
        /// The credentials were refused (unknown key, wrong secret, no permission).
        public static let credentialsRefused = Code(rawValue: "credentialsRefused")
        /// The endpoint cannot be reached.
        public static let unreachable = Code(rawValue: "unreachable")
        /// This machine's clock is too far from the server's for a signature to hold.
        public static let clockSkew = Code(rawValue: "clockSkew")
        /// The server asked to slow down, and kept asking after retries.
        public static let throttled = Code(rawValue: "throttled")
        /// The server failed (500, 502, 504), and kept failing after retries.
        public static let serverError = Code(rawValue: "serverError")
        /// The server refused the bytes: their checksum did not match.
        public static let checksumRefused = Code(rawValue: "checksumRefused")
        /// The object is not there.
        public static let notFound = Code(rawValue: "notFound")
        /// The bytes read back do not hash to the blob's name.
        public static let corrupt = Code(rawValue: "corrupt")
        /// Anything else the server answered.
        public static let failed = Code(rawValue: "failed")
    }

    /// What kind of failure it is.
    public let code: Code
    /// What went wrong and, where the user can act, what to do (the error's ``ObjectStorageError/description``).
    public let message: String
    /// The HTTP status, when the server answered.
    public let status: Int?

    /// An error of `code` with `message` for the user, and the HTTP status when the server answered.
    public init(_ code: Code, _ message: String, status: Int? = nil) {
        self.code = code
        self.message = message
        self.status = status
    }

}
