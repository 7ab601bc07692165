import ArgumentParser
import Foundation
import ShoeboxLibrary

/// `shoebox key …`: a person's keys for tools (``PersonKey``).
struct KeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Make, list and revoke a person's keys for scripts and tools.",
        discussion: """
            A key lets a script or tool act as one person of the library over HTTP (send it as \
            "Authorization: Bearer TOKEN"), within its scope: read (list, search, download), \
            upload (add photos and movies, read nothing) or write (everything the person may do \
            in their library). No key manages sign-in: keys, sessions and passwords. The token is \
            printed once, when the key is made; the library keeps only its hash. Keys are the \
            person --user names (or $SHOEBOX_USER), else the first admin's.
            """,
        subcommands: [KeyListCommand.self, KeyAddCommand.self, KeyRevokeCommand.self],
        defaultSubcommand: KeyListCommand.self)

    /// Runs `body` on the library opened for the person the options name, printing a library
    /// error as one line.
    static func run<T>(_ options: LibraryOptions, _ body: (PhotoLibrary) async throws -> T) async throws -> T {
        try await options.using(body)
    }

    /// A key as `list --json` and `add --json` print it (never its token, but in `add`'s).
    struct Record: Encodable {
        let id: String
        let name: String
        let scope: String
        let prefix: String
        let createdDate: Date
        let lastUsedDate: Date?
        let token: String?

        init(_ key: PersonKey, token: String? = nil) {
            id = key.id
            name = key.name
            scope = key.scope.rawValue
            prefix = key.prefix
            createdDate = key.createdDate
            lastUsedDate = key.lastUsedDate
            self.token = token
        }
    }
}

extension PersonKey.Scope: ExpressibleByArgument {}

struct KeyListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "The person's keys, the newest first.",
        discussion: "JSON: [{\"id\", \"name\", \"scope\", \"prefix\", \"createdDate\", \"lastUsedDate\"}].")

    @OptionGroup var options: LibraryOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let keys = try await KeyCommand.run(options) { try await $0.keys() }
        if json {
            try JSONOutput.print(keys.map { KeyCommand.Record($0) })
            return
        }
        if keys.isEmpty { Terminal.standardError("no keys (shoebox key add NAME --scope read|upload|write makes one)") }
        let dates = Date.FormatStyle(date: .abbreviated, time: .shortened)
        for key in keys {
            let used = key.lastUsedDate.map { "last used \($0.formatted(dates))" } ?? "never used"
            print("\(key.id)  \(key.prefix)…  \(key.scope.rawValue)  \(key.name)  (made \(key.createdDate.formatted(dates)), \(used))")
        }
    }
}

struct KeyAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Make a key and print its token (shown this once).",
        discussion: """
            Standard output: the token alone (for a script to keep), or with --json the key with \
            its token. Keep it as a password: whoever holds it acts as the person within its scope.
            """)

    @OptionGroup var options: LibraryOptions
    @Argument(help: "What the key is for (1–100 characters), e.g. \"nightly backup\".") var name: String
    @Option(help: "What it may do: read, upload or write.") var scope: PersonKey.Scope
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let (key, token) = try await KeyCommand.run(options) { try await $0.makeKey(named: name, scope: scope) }
        if json {
            try JSONOutput.print(KeyCommand.Record(key, token: token))
        } else {
            print(token)
            Terminal.standardError("made key \(key.id) (\(key.scope.rawValue)) \"\(key.name)\"; the token above is not shown again")
        }
    }
}

struct KeyRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Revoke a key: the next request with it is refused, on every server within a second.")

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The key's id (shoebox key list shows them).") var id: String

    func run() async throws {
        let revoked = try await KeyCommand.run(options) { try await $0.revokeKey(id) }
        guard revoked else {
            Terminal.standardError("error: no key \(id) (shoebox key list shows the keys)")
            throw ExitCode.failure
        }
        Terminal.standardError("revoked key \(id)")
    }
}
