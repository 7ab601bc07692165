import Foundation
import PostgresNIO

/// The catalog's PostgreSQL server did not answer a call: it is down or restarting (the
/// connection was lost or refused), or it did not answer within the call's deadline. What
/// ``SQLCatalogStore`` turns into ``LibraryError/Code/catalogUnavailable``; the server answers
/// `503` with `Retry-After` for it.
package struct CatalogUnavailable: Error, CustomStringConvertible {
    enum Reason: Sendable {
        /// The connection closed (or was closed) under the statement.
        case connectionLost
        /// No connection could be had within the pool's wait (the server refuses or is away).
        case noConnection(Duration)
        /// The statement had no answer within its deadline.
        case deadline(Duration)
        /// The server said it is shutting down, starting or in recovery (SQLSTATE 57P0x, 08xxx).
        case server(String)
    }

    /// Where the catalog is: `host:port` (or the socket folder), never credentials.
    let location: String
    let reason: Reason

    /// Whether the connection was lost under the call (a read may be tried again at once).
    var isConnectionLost: Bool {
        if case .connectionLost = reason { return true }
        return false
    }

    package var description: String {
        switch reason {
        case .connectionLost:
            "the catalog (PostgreSQL at \(location)) closed the connection during a call; it is probably restarting"
        case .noConnection(let wait):
            "the catalog (PostgreSQL at \(location)) gave no connection within \(Self.seconds(wait)) s; it is down or unreachable"
        case .deadline(let wait):
            "the catalog (PostgreSQL at \(location)) did not answer within \(Self.seconds(wait)) s"
        case .server(let message):
            "the catalog (PostgreSQL at \(location)) is not available: \(message)"
        }
    }

    /// What `error` (an outage, ``isOutage(_:)``) says happened, in words a person reads: the
    /// server's own message and SQLSTATE when it gave one (under a closed connection too, as
    /// "terminating connection due to administrator command (SQLSTATE 57P01)" is), else what
    /// became of the connection; never postgres-nio's dump of the error and its query.
    static func words(for error: any Error) -> String {
        guard var current = (error as? PostgresFailure)?.underlying ?? (error as? PSQLError) else { return "\(error)" }
        for _ in 0..<4 {
            if let message = current.serverInfo?[.message] {
                return message + (current.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
            }
            guard let next = current.underlying as? PSQLError else { break }
            current = next
        }
        switch current.code {
        case .connectionError: return "no connection could be made"
        case .serverClosedConnection, .uncleanShutdown: return "the server closed the connection"
        case .clientClosedConnection: return "the connection was closed during a call"
        case .poolClosed: return "the connection pool is closed"
        default: return "the connection failed (\(current.code))"
        }
    }

    static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }

    /// Whether `error`, as postgres-nio or the server reports it, means the server is away
    /// (lost or refused connections; SQLSTATE class 08, connection exceptions, and 57P01–57P03,
    /// shutting down or starting) rather than a statement's own failure.
    static func isOutage(_ error: any Error) -> Bool {
        if error is CatalogUnavailable { return true }
        if let failure = error as? PostgresFailure { return failure.isOutage }
        guard let error = error as? PSQLError else { return false }
        if let state = error.serverInfo?[.sqlState] { return isOutage(sqlState: state) }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
            return true
        default:
            return false
        }
    }

    static func isOutage(sqlState: String) -> Bool {
        sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
    }
}
