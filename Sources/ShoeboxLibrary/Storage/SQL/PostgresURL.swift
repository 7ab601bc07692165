import Foundation
import NIOSSL
import PostgresNIO

/// A PostgreSQL catalog named as psql names one: `postgres://USER@HOST:PORT/DATABASE`, with
/// `?host=/run/postgresql` for a Unix socket and `?sslmode=disable|prefer|require`. The password
/// is never part of a library's configuration: it comes from `PGPASSWORD` or `~/.pgpass` (or
/// `PGPASSFILE`), as psql reads them; a URL that carries one is refused.
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    /// The role to connect as: the URL's user, else `PGUSER`, else the user running the process.
    public let user: String
    /// A host name or address, or a Unix socket folder.
    public let host: String
    /// The TCP port (5432 unless the URL names one); with a socket folder, the port in the
    /// socket's name (`.s.PGSQL.PORT`).
    public let port: Int
    /// The database's name: the URL's path without its leading slash.
    public let database: String
    /// Whether to use TLS: the URL's `sslmode`, else `disable` for a socket or loopback host and
    /// `prefer` for any other.
    public let sslMode: SSLMode

    /// The libpq `sslmode` values Shoebox accepts: `disable` (plain), `prefer` (TLS when the
    /// server offers it) and `require` (TLS or no connection). TLS verifies the server's certificate
    /// (NIOSSL's client defaults), which libpq does only with `verify-full`.
    public enum SSLMode: String, Sendable, Hashable {
        /// `disable`: never TLS; `prefer`: TLS when the server offers it, else plain; `require`: TLS or no
        /// connection. A Unix socket ignores the mode.
        case disable, prefer, require
    }

    /// Parses a `postgres://` or `postgresql://` URL.
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` naming what is wrong with it.
    public init(_ text: String) throws(LibraryError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "postgres" || scheme == "postgresql"
        else {
            throw .invalidArgument("a PostgreSQL catalog is a postgres://USER@HOST:PORT/DATABASE URL, not \(text)")
        }
        guard components.password == nil else {
            throw .invalidArgument("the catalog URL carries a password; give it in PGPASSWORD or ~/.pgpass instead, so it is never stored in the library")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        let socket = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        guard let host = socket ?? components.host.flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw .invalidArgument("the catalog URL \(text) names no host (postgres://USER@HOST:PORT/DATABASE, or ?host=/socket/folder)")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw .invalidArgument("the catalog URL \(text) names no database (postgres://USER@HOST:PORT/DATABASE)")
        }
        let user = components.user ?? ProcessInfo.processInfo.environment["PGUSER"] ?? NSUserName()
        let mode: SSLMode
        if let value = query["sslmode"] {
            guard let parsed = SSLMode(rawValue: value) else {
                throw .invalidArgument("sslmode must be disable, prefer or require, not \(value)")
            }
            mode = parsed
        } else {
            // Loopback and sockets need no TLS; anything else prefers it.
            mode = socket != nil || ["localhost", "127.0.0.1", "::1"].contains(host) ? .disable : .prefer
        }
        self.user = user
        self.host = host
        self.port = components.port ?? 5432
        self.database = database
        self.sslMode = mode
    }

    /// The URL without a password, as a library's configuration stores it.
    public var description: String {
        let userPart = user.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? user
        let database = self.database.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? self.database
        var text =
            host.hasPrefix("/")
            ? "postgres://\(userPart)@/\(database)?host=\(host)" : "postgres://\(userPart)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)"
        if sslMode != .disable || !(host.hasPrefix("/") || ["localhost", "127.0.0.1", "::1"].contains(host)) {
            text += (text.contains("?") ? "&" : "?") + "sslmode=\(sslMode.rawValue)"
        }
        return text
    }

    /// The password from `PGPASSWORD`, else the first matching line of the password file.
    var password: String? {
        let environment = ProcessInfo.processInfo.environment
        if let password = environment["PGPASSWORD"] { return password }
        let file = environment["PGPASSFILE"] ?? (NSHomeDirectory() as NSString).appendingPathComponent(".pgpass")
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        let hostField = host.hasPrefix("/") ? "localhost" : host
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = Self.passFields(String(line))
            guard fields.count == 5 else { continue }
            let wanted = [hostField, String(port), database, user]
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    /// `host:port:database:user:password`, with `\:` and `\\` escapes.
    static func passFields(_ line: String) -> [String] {
        var fields: [String] = []
        var current = ""
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }

    var clientConfiguration: PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if host.hasPrefix("/") {
            let socket = (host as NSString).appendingPathComponent(".s.PGSQL.\(port)")
            configuration = .init(unixSocketPath: socket, username: user, password: password, database: database)
        } else {
            let tls: PostgresClient.Configuration.TLS
            switch sslMode {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(.makeClientConfiguration())
            case .require: tls = .require(.makeClientConfiguration())
            }
            configuration = .init(host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(10)
        configuration.options.maximumConnections = 16
        configuration.options.keepAliveBehavior = nil
        // The catalog's queries are short: PostgreSQL's JIT, which compiles a query whose
        // estimated cost is high (a search's album branch, never run), took 300 ms of a search
        // that ran in 1 ms.
        configuration.options.additionalStartupParameters = [("jit", "off")]
        return configuration
    }

    /// A connection failure in words a user can act on.
    static func explain(_ error: any Error) -> String {
        if let failure = error as? PostgresFailure { return failure.description }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return "PostgreSQL: \(message)" }
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection:
                return "cannot reach the PostgreSQL server (\(error.underlying.map { "\($0)" } ?? "connection refused"))"
            default:
                return "PostgreSQL: \(String(reflecting: error))"
            }
        }
        return "\(error)"
    }
}
