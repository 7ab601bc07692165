import ArgumentParser
import Foundation
import ShoeboxLibrary

/// `shoebox partner …`: partner sharing, a person's whole library (or what was taken from a day
/// on) shared read-only with another person of the household.
struct PartnerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "partner",
        abstract: "Share your library read-only with a person of the household, and see what they share with you.",
        discussion: """
            The library acts for --user (or the key's person). A partner sees your photos and movies \
            (all of them, or those taken from --from on), never hidden or deleted ones, and never \
            changes them; they choose whether to show them in their own timeline.
            """,
        subcommands: [Share.self, Stop.self, List.self, Timeline.self, Leave.self])

    /// `shoebox partner share PERSON [--from DAY]`.
    struct Share: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Share your library with a person (again: change the first day).",
            discussion: "JSON: {sharer, partner, startDate?, inTimeline, creationDate}.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The person's sign-in name.") var person: String
        @Option(help: ArgumentHelp("Share only what was taken from this day on (YYYY-MM-DD, your time zone); left out: everything.", valueName: "day"))
        var from: String?
        @Flag(help: "Print JSON.") var json = false

        func validate() throws {
            if let from, PartnerCommand.day(from) == nil { throw ValidationError("--from is a day, YYYY-MM-DD, not \(from)") }
        }

        func run() async throws {
            let library = try await options.open()
            try await PartnerCommand.attempt {
                let share = try await library.sharePartnerLibrary(with: person, from: from.flatMap(PartnerCommand.day))
                try PartnerRecord.print([share], json: json)
            }
        }
    }

    /// `shoebox partner stop PERSON`.
    struct Stop: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop sharing your library with a person (at once).")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The person's sign-in name.") var person: String

        func run() async throws {
            let library = try await options.open()
            try await PartnerCommand.attempt { try await library.stopPartnerSharing(with: person) }
        }
    }

    /// `shoebox partner leave PERSON`: the partner's side of `stop`.
    struct Leave: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop seeing what a person shares with you.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The sharer's sign-in name.") var person: String

        func run() async throws {
            let library = try await options.open()
            try await PartnerCommand.attempt { try await library.leavePartnerShare(from: person) }
        }
    }

    /// `shoebox partner list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List with whom your library is shared, and who shares theirs with you.",
            discussion: "JSON: [{sharer, partner, startDate?, inTimeline, creationDate}], oldest first.")
        @OptionGroup var options: LibraryOptions
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let library = try await options.open()
            try await PartnerCommand.attempt { try PartnerRecord.print(try await library.partnerShares(), json: json) }
        }
    }

    /// `shoebox partner timeline PERSON on|off`.
    struct Timeline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show what a person shares with you in your own timeline (on), or only apart (off).")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The sharer's sign-in name.") var person: String
        @Argument(help: "on or off.") var shown: String

        func validate() throws {
            guard ["on", "off"].contains(shown) else { throw ValidationError("say on or off, not \(shown)") }
        }

        func run() async throws {
            let library = try await options.open()
            try await PartnerCommand.attempt { try await library.showPartnerAssetsInTimeline(shown == "on", from: person) }
        }
    }

    /// `YYYY-MM-DD` as that day's start in this machine's time zone.
    static func day(_ text: String) -> Date? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, text.count == 10, (1...12).contains(parts[1]), (1...31).contains(parts[2]) else { return nil }
        let components = DateComponents(year: parts[0], month: parts[1], day: parts[2])
        guard let date = Calendar.current.date(from: components), Calendar.current.component(.day, from: date) == parts[2] else { return nil }
        return date
    }

    /// Runs `body`; a library error is one line on standard error and exit status 1.
    static func attempt(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as LibraryError {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
    }
}

/// A partner share as `shoebox partner share` and `shoebox partner list` print it.
struct PartnerRecord: Encodable {
    let sharer: String
    let partner: String
    let startDate: Date?
    let inTimeline: Bool
    let creationDate: Date

    init(_ share: PartnerShare) {
        (sharer, partner, startDate) = (share.sharer.name, share.partner.name, share.startDate)
        (inTimeline, creationDate) = (share.isShownInTimeline, share.creationDate)
    }

    static func print(_ shares: [PartnerShare], json: Bool) throws {
        let records = shares.map(PartnerRecord.init)
        if json {
            try JSONOutput.print(records)
            return
        }
        if records.isEmpty { Swift.print("No partner sharing.") }
        for record in records {
            let what = record.startDate.map { "photos taken since \($0.formatted(date: .abbreviated, time: .omitted))" } ?? "the whole library"
            Swift.print("\(record.sharer) → \(record.partner): \(what)\(record.inTimeline ? ", in \(record.partner)'s timeline" : "")")
        }
    }
}
