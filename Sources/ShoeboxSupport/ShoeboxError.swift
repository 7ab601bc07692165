/// What every Shoebox module's error is (``ImageError``, and `MediaError`, `LibraryError`,
/// `AuthorizationError`, `ObjectStorageError`, `CaptureError`, `PickerError` in the modules above):
/// a ``code`` to switch on, drawn from an extensible set; a ``message`` that names the problem in
/// words a user can act on; and, when another error caused it, that error as ``underlying`` —
/// the shape of GRDB's `DatabaseError` and Hummingbird's `HTTPError`.
///
/// Code that reports errors without caring which module threw them (a command line's `error:`
/// line, an HTTP API's `{"error": {"code", "message"}}`) reads them through this protocol:
///
/// ```swift
/// do {
///     _ = try Image(contentsOf: url)
/// } catch let error as any ShoeboxError {
///     print("\(error.code.rawValue): \(error.message)")
/// }
/// ```
public protocol ShoeboxError: Error, Sendable, CustomStringConvertible {
    /// The module's set of codes.
    associatedtype Code: ShoeboxErrorCode
    /// The kind of failure, to switch on (with a `default`: new codes may come).
    var code: Code { get }
    /// A one-line, human-readable explanation that names the problem.
    var message: String { get }
    /// The error that caused this one, if any.
    var underlying: (any Error)? { get }
}

extension ShoeboxError {
    /// No underlying error, unless the type keeps one.
    public var underlying: (any Error)? { nil }
    /// The ``message``.
    public var description: String { message }
}

/// A code of a ``ShoeboxError``: a stable name (`corrupt`, `notFound`, …) that the command line's
/// `--json` output and the HTTP API carry. Any name makes a code, one a newer version defines
/// too; each module names its codes as static members, compared with `==` and `switch`.
public protocol ShoeboxErrorCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible where RawValue == String {
    /// The code of this name.
    init(rawValue: String)
}

extension ShoeboxErrorCode {
    /// The ``RawRepresentable/rawValue``: the code's name.
    public var description: String { rawValue }
}
