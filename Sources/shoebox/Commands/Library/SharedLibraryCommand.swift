import ArgumentParser
import Foundation
import ShoeboxLibrary

/// `shoebox shared-library …`: the household's Shared Library — who is in it, invitations,
/// joining with what to move in, moving photos in and out, and leaving.
struct SharedLibraryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shared-library",
        abstract: "Share one library with up to five others of the household: all of you add, edit and delete its photos alike.",
        discussion: """
            The library acts for --user (or the key's person). The first invitation makes the \
            Shared Library with you in it. Each person chooses what to move in and whether new \
            imports go there; leaving keeps a copy of everything, or of what you added.
            """,
        subcommands: [Status.self, Invite.self, Withdraw.self, Join.self, Decline.self, Move.self, Defaults.self, Leave.self])

    /// `shoebox shared-library status`.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show who is in the Shared Library and who is invited.",
            discussion: "JSON: {participants: [{name, displayName, hasJoined, movesNewAssets, invitedDate, joinedDate?}]} or null.")
        @OptionGroup var options: LibraryOptions
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let library = try await options.open()
            try await PartnerCommand.attempt { try SharedLibraryRecord.print(try await library.sharedLibrary(), json: json) }
        }
    }

    /// `shoebox shared-library invite PERSON`.
    struct Invite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Invite a person (the first invitation makes the Shared Library).")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The person's sign-in name.") var person: String
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let library = try await options.open()
            try await PartnerCommand.attempt { try SharedLibraryRecord.print(try await library.inviteToSharedLibrary(person), json: json) }
        }
    }

    /// `shoebox shared-library withdraw PERSON`.
    struct Withdraw: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take back an invitation not yet answered.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The person's sign-in name.") var person: String

        func run() async throws {
            let library = try await options.open()
            try await PartnerCommand.attempt { try await library.withdrawSharedLibraryInvitation(person) }
        }
    }

    /// What to move in: `--everything`, `--from DAY`, or ids.
    struct Contribution: ParsableArguments {
        @Flag(help: "Move in everything of yours that is neither hidden nor deleted.") var everything = false
        @Option(help: ArgumentHelp("Move in what was taken from this day on (YYYY-MM-DD, your time zone).", valueName: "day")) var from: String?
        @Argument(help: "Asset identifiers to move in (a burst's key photo brings its frames).") var assets: [String] = []

        func validate() throws {
            if let from, PartnerCommand.day(from) == nil { throw ValidationError("--from is a day, YYYY-MM-DD, not \(from)") }
            guard [everything, from != nil, !assets.isEmpty].filter({ $0 }).count <= 1 else {
                throw ValidationError("say one of --everything, --from DAY or asset identifiers")
            }
        }

        var contribution: SharedLibrary.Contribution {
            if everything { return .everything }
            if let from, let day = PartnerCommand.day(from) { return .takenFrom(day) }
            return assets.isEmpty ? .nothing : .chosen(assets)
        }
    }

    /// `shoebox shared-library join [--everything | --from DAY | ID…] [--new-photos-here]`.
    struct Join: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Join the Shared Library you are invited to, moving in what you say (nothing by default).")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var what: Contribution
        @Flag(help: "Send your new imports and captures to the Shared Library.") var newPhotosHere = false

        func run() async throws {
            let library = try await options.open()
            try await PartnerCommand.attempt {
                let moved = try await library.joinSharedLibrary(moving: what.contribution, movesNewAssets: newPhotosHere)
                Swift.print("Joined the Shared Library; \(moved) moved in.")
            }
        }
    }

    /// `shoebox shared-library decline`.
    struct Decline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Decline the invitation to the Shared Library.")
        @OptionGroup var options: LibraryOptions

        func run() async throws {
            let library = try await options.open()
            try await PartnerCommand.attempt { try await library.declineSharedLibraryInvitation() }
        }
    }

    /// `shoebox shared-library move [--out] …`.
    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move photos into the Shared Library, or (--out) those you added back to your own library.",
            discussion: "JSON: {moved}.")
        @OptionGroup var options: LibraryOptions
        @OptionGroup var what: Contribution
        @Flag(help: "Move the asset identifiers given back to your personal library.") var out = false
        @Flag(help: "Print JSON.") var json = false

        func validate() throws {
            if out, what.assets.isEmpty || what.everything || what.from != nil {
                throw ValidationError("--out moves the asset identifiers given, and only those")
            }
            if !out, case .nothing = what.contribution { throw ValidationError("say what to move: --everything, --from DAY or asset identifiers") }
        }

        func run() async throws {
            let library = try await options.open()
            try await PartnerCommand.attempt {
                let moved = out ? try await library.moveToPersonalLibrary(what.assets) : try await library.moveToSharedLibrary(what.contribution)
                struct Moved: Encodable { let moved: Int }
                if json { try JSONOutput.print(Moved(moved: moved)) } else { Swift.print("\(moved) moved to your \(out ? "personal" : "Shared") Library.") }
            }
        }
    }

    /// `shoebox shared-library defaults new-photos on|off`.
    struct Defaults: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "new-photos", abstract: "Send your new imports and captures to the Shared Library (on) or keep them personal (off).")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "on or off.") var shown: String

        func validate() throws {
            guard ["on", "off"].contains(shown) else { throw ValidationError("say on or off, not \(shown)") }
        }

        func run() async throws {
            let library = try await options.open()
            try await PartnerCommand.attempt { try await library.setSharedLibraryMovesNewAssets(shown == "on") }
        }
    }

    /// `shoebox shared-library leave --keep everything|mine`.
    struct Leave: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Leave the Shared Library, keeping a copy of everything or of what you added.")
        @OptionGroup var options: LibraryOptions
        @Option(help: ArgumentHelp("everything or mine.", valueName: "what")) var keep: String

        func validate() throws {
            guard ["everything", "mine"].contains(keep) else { throw ValidationError("--keep is everything or mine, not \(keep)") }
        }

        func run() async throws {
            let library = try await options.open()
            try await PartnerCommand.attempt {
                let copies = try await library.leaveSharedLibrary(keeping: keep == "mine" ? .ownContributions : .everything)
                Swift.print("Left the Shared Library; \(copies) copied into your library.")
            }
        }
    }
}

/// The Shared Library as `shoebox shared-library status` prints it.
struct SharedLibraryRecord: Encodable {
    struct Participant: Encodable {
        let name: String
        let displayName: String
        let hasJoined: Bool
        let movesNewAssets: Bool
        let invitedDate: Date
        let joinedDate: Date?
    }

    let participants: [Participant]

    static func print(_ library: SharedLibrary?, json: Bool) throws {
        let record = library.map { library in
            SharedLibraryRecord(
                participants: library.participants.map {
                    Participant(
                        name: $0.person.name, displayName: $0.person.displayName, hasJoined: $0.hasJoined, movesNewAssets: $0.movesNewAssets,
                        invitedDate: $0.invitedDate, joinedDate: $0.joinedDate)
                })
        }
        if json {
            try JSONOutput.print(record)
            return
        }
        guard let record else {
            Swift.print("You are in no Shared Library.")
            return
        }
        for participant in record.participants {
            let state = participant.hasJoined ? "in it\(participant.movesNewAssets ? ", new photos go there" : "")" : "invited"
            Swift.print("\(participant.name) (\(participant.displayName)): \(state)")
        }
    }
}
