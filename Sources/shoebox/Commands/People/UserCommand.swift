import ArgumentParser
import Foundation
import ShoeboxLibrary

/// `shoebox user …`: the people of a library (the household), each with a library of their own.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Add, list, disable, enable and remove the people of a library; set passwords and quotas.",
        discussion: """
            Each person has a library of their own in the library folder: their photos, albums, \
            edits, favorites and Recently Deleted, which no one else sees. Bytes are stored once \
            for everyone. The first person is the admin (shoebox init --admin NAME names them); \
            other commands act for a person with --user NAME (or $SHOEBOX_USER), else for the \
            first admin. Passwords are read from the terminal without echo, or from one line of \
            standard input with --password-stdin; never from an argument.
            """,
        subcommands: [
            UserListCommand.self, UserAddCommand.self, UserPasswordCommand.self, UserQuotaCommand.self, UserDisableCommand.self,
            UserEnableCommand.self, UserRoleCommand.self, UserRemoveCommand.self,
        ],
        defaultSubcommand: UserListCommand.self)

    /// The person named `name`, or a one-line error.
    static func find(_ name: String, in library: PhotoLibrary) async throws -> Person {
        guard let person = try await library.person(named: name) else {
            Terminal.standardError("error: no person named \(name) in this library (shoebox user list shows who is)")
            throw ExitCode.failure
        }
        return person
    }

    /// Runs `body` on the library (opened for its upkeep, whoever --user names), printing a
    /// library error as one line.
    static func run<T>(_ options: LibraryOptions, _ body: (PhotoLibrary) async throws -> T) async throws -> T {
        var whole = options
        whole.user = nil
        return try await whole.using(body)
    }

    /// A person as `list --json` and `add --json` print them.
    struct Record: Encodable {
        let id: String
        let name: String
        let displayName: String
        let role: String
        let state: String
        let quota: Int64?
        let hasPassword: Bool
        let createdDate: Date
        let assets: Int
        let albums: Int
        let bytes: Int64

        init(_ person: Person, usage: PersonUsage?) {
            id = person.id
            name = person.name
            displayName = person.displayName
            role = person.role.rawValue
            state = person.state.rawValue
            quota = person.quota
            hasPassword = person.hasPassword
            createdDate = person.createdDate
            assets = usage?.assetCount ?? 0
            albums = usage?.albumCount ?? 0
            bytes = usage?.byteCount ?? 0
        }
    }
}

struct UserListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Everyone, with their role, state, quota and what their library holds.",
        discussion: """
            JSON: [{"id", "name", "displayName", "role", "state", "quota", "hasPassword", \
            "createdDate", "assets", "albums", "bytes"}].
            """)

    @OptionGroup var options: LibraryOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let records = try await UserCommand.run(options) { library in
            let usage = try await library.usage()
            return try await library.people().map { UserCommand.Record($0, usage: usage[$0.id]) }
        }
        if json {
            try JSONOutput.print(records)
            return
        }
        for record in records {
            let quota = record.quota.map { " of \(ByteCount.describe($0))" } ?? ""
            let state = record.state == "active" ? "" : "  (\(record.state))"
            print(
                "\(record.name)  \(record.role)  \(record.displayName)  \(record.assets) assets, \(ByteCount.describe(record.bytes))\(quota)\(state)")
        }
    }
}

struct UserAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a person with an empty library of their own.",
        discussion: "JSON: the person, as user list --json prints each.")

    @OptionGroup var options: LibraryOptions
    @Argument(help: "Their sign-in name: 1–64 lower-case letters, digits, '.', '-' or '_'.") var name: String
    @Option(help: "The name shown to people (default: the sign-in name).") var displayName: String?
    @Flag(help: "Make them an admin (default: a member).") var admin = false
    @Option(help: ArgumentHelp("The most their photos and movies may hold: 20G, 500M, … (default: no limit).", valueName: "size"))
    var quota: String?
    @Flag(help: "Set no password (they cannot sign in with one until shoebox user passwd).") var noPassword = false
    @Flag(help: "Read the password from one line of standard input.") var passwordStdin = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let limit = try quota.map(UserQuotaCommand.parse) ?? nil
        let password = noPassword ? nil : try PasswordInput.read(for: name, fromStandardInput: passwordStdin)
        let record = try await UserCommand.run(options) { library in
            let person = try await library.addPerson(
                name: name, displayName: displayName, role: admin ? .admin : .member, password: password, quota: limit)
            return UserCommand.Record(person, usage: nil)
        }
        if json {
            try JSONOutput.print(record)
        } else {
            print("added \(record.name) (\(record.role)), with an empty library")
        }
    }
}

struct UserPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passwd", abstract: "Set a person's password (their sessions end: they sign in again).")

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The person's sign-in name.") var name: String
    @Flag(help: "Read the password from one line of standard input.") var passwordStdin = false

    func run() async throws {
        let password = try PasswordInput.read(for: name, fromStandardInput: passwordStdin)
        try await UserCommand.run(options) { library in
            try await library.setPassword(password, of: try await UserCommand.find(name, in: library))
        }
        print("set \(name)'s password")
    }
}

struct UserQuotaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quota",
        abstract: "Set how much a person's photos and movies may hold (20G, 500M, none).",
        discussion: """
            Originals, paired files and edited versions count in full for each person, even when \
            someone else holds the same bytes. A lower quota than what they hold keeps everything \
            and refuses their next import.
            """)

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The person's sign-in name.") var name: String
    @Argument(help: "The size (20G, 500M, 1.5T, a number of bytes) or none.") var size: String

    static func parse(_ text: String) throws -> Int64? {
        guard let bytes = ByteCount.parse(text) else {
            Terminal.standardError("error: \(text) is not a size (write 20G, 500M, 1.5T, a number of bytes, or none)")
            throw ExitCode.failure
        }
        return bytes
    }

    func run() async throws {
        let limit = try Self.parse(size)
        try await UserCommand.run(options) { library in
            try await library.updatePerson(try await UserCommand.find(name, in: library), quota: .some(limit))
        }
        print(limit.map { "\(name) may hold \(ByteCount.describe($0))" } ?? "\(name) has no quota")
    }
}

struct UserDisableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable", abstract: "Stop a person signing in (their sessions end at once; their library is kept).")

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The person's sign-in name.") var name: String

    func run() async throws {
        try await UserCommand.run(options) { library in
            try await library.setState(.disabled, of: try await UserCommand.find(name, in: library))
        }
        print("disabled \(name)")
    }
}

struct UserEnableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "enable", abstract: "Let a disabled person sign in again.")

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The person's sign-in name.") var name: String

    func run() async throws {
        try await UserCommand.run(options) { library in
            try await library.setState(.active, of: try await UserCommand.find(name, in: library))
        }
        print("enabled \(name)")
    }
}

struct UserRoleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "role", abstract: "Make a person an admin or a member.")

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The person's sign-in name.") var name: String
    @Argument(help: "admin or member.") var role: String

    func run() async throws {
        guard let role = Person.Role(rawValue: role) else {
            Terminal.standardError("error: a role is admin or member, not \(role)")
            throw ExitCode.failure
        }
        try await UserCommand.run(options) { library in
            try await library.updatePerson(try await UserCommand.find(name, in: library), role: role)
        }
        print("\(name) is now \(role == .admin ? "an admin" : "a member")")
    }
}

struct UserRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a person whose library is empty (or, with --delete-library, delete it first).",
        discussion: """
            Without --delete-library a person who still has photos, movies or albums is not \
            removed (disable them instead, or export their library first). With it, their photos, \
            movies and albums are deleted for good; bytes someone else also holds stay.
            """)

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The person's sign-in name.") var name: String
    @Flag(help: "Delete their photos, movies and albums for good first.") var deleteLibrary = false

    func run() async throws {
        try await UserCommand.run(options) { library in
            try await library.removePerson(try await UserCommand.find(name, in: library), deletingTheirLibrary: deleteLibrary)
        }
        print("removed \(name)")
    }
}
