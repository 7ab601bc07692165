import ArgumentParser
import Foundation
import ShoeboxLibrary

struct PrivacyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "privacy",
        abstract: "Clients' access to the camera, the microphone and the library (Settings › Privacy).",
        discussion: """
            Services: camera, microphone, photoLibrary (read-write), photoLibraryAdd (add only). Decisions take \
            effect at once, also for clients already running. `restricted` comes from the administrator's policy \
            file NAME.shoebox.policy.json beside the library, which Shoebox never writes.
            """,
        subcommands: [Register.self, Token.self, List.self, Grant.self, Deny.self, Reset.self, Limit.self, Remove.self, Report.self, Request.self])

    struct ServiceOption: ParsableArguments {
        @Option(help: "camera, microphone, photoLibrary or photoLibraryAdd.") var service: String

        func parsed() throws -> Authorization.Service {
            guard let service = Authorization.Service(policyName: service) else {
                throw ValidationError("unknown service \(service); use camera, microphone, photoLibrary or photoLibraryAdd")
            }
            return service
        }
    }

    static func authorization(_ options: LibraryOptions, prompter: any AuthorizationPrompter = NonInteractivePrompter()) async throws -> Authorization {
        Authorization(library: try await options.open(), prompter: prompter)
    }

    /// Runs `body`, turning library errors into one line on standard error and exit 1.
    static func reporting<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as LibraryError {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        } catch let error as AuthorizationError {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
    }

    /// Records the user's decision for one client and service.
    static func decide(_ status: Authorization.Status, options: LibraryOptions, client: String, service: ServiceOption) async throws {
        let authorization = try await authorization(options)
        let parsed = try service.parsed()
        try await reporting { try await authorization.setStatus(status, for: parsed, client: client) }
    }

    /// What `register` and `token` print with `--json`.
    struct Issued: Encodable {
        let identifier: String
        let token: String
    }

    static func printIssued(_ issued: Issued, json: Bool) throws {
        if json {
            try JSONOutput.print(issued)
        } else {
            print("\(issued.identifier)\ntoken \(issued.token)")
            Terminal.standardError("The token is shown once: give it to the app, which sends it as Authorization: Bearer TOKEN.")
        }
    }

    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register (or update) a client from its manifest JSON, and issue it a token.",
            discussion: "Prints the identifier and a new token for the app (shown once). JSON: {identifier, token}.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The manifest: {identifier, displayName, usageDescriptions: {NSCameraUsageDescription: …}}.") var manifest: String
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let authorization = try await PrivacyCommand.authorization(options)
            let issued = try await PrivacyCommand.reporting {
                let manifest = try ClientManifest(contentsOf: URL(fileURLWithPath: manifest))
                try await authorization.register(manifest)
                return Issued(identifier: manifest.identifier, token: try await authorization.issueToken(for: manifest.identifier))
            }
            try PrivacyCommand.printIssued(issued, json: json)
        }
    }

    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Issue a registered client another token (its others stay valid).",
            discussion: "JSON: {identifier, token}.")
        @OptionGroup var options: LibraryOptions
        @Option(help: "The client's identifier.") var client: String
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let authorization = try await PrivacyCommand.authorization(options)
            let token = try await PrivacyCommand.reporting { try await authorization.issueToken(for: client) }
            try PrivacyCommand.printIssued(Issued(identifier: client, token: token), json: json)
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove App: forget a client's registration, decisions, shared photos and tokens.",
            discussion: "Its report stays. Registering again starts it over, undecided.")
        @OptionGroup var options: LibraryOptions
        @Option(help: "The client's identifier.") var client: String

        func run() async throws {
            let authorization = try await PrivacyCommand.authorization(options)
            try await PrivacyCommand.reporting { try await authorization.removeClient(client) }
            print("removed \(client)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Every client with its status for each service.",
            discussion: "JSON: [{identifier, displayName, statuses: {camera, microphone, photoLibrary, photoLibraryAdd}, limitedSelection}].")
        @OptionGroup var options: LibraryOptions
        @Flag(help: "Print JSON.") var json = false

        struct Record: Encodable {
            let identifier: String
            let displayName: String
            let statuses: [String: String]
            let limitedSelection: [String]
        }

        func run() async throws {
            let authorization = try await PrivacyCommand.authorization(options)
            let records = try await PrivacyCommand.reporting {
                var records: [Record] = []
                for client in try await authorization.clients() {
                    var statuses: [String: String] = [:]
                    for service in Authorization.Service.all {
                        statuses[service.policyName] = try await authorization.status(for: service, client: client.identifier).rawValue
                    }
                    records.append(
                        Record(
                            identifier: client.identifier, displayName: client.displayName, statuses: statuses,
                            limitedSelection: try await authorization.limitedSelection(client: client.identifier)))
                }
                return records
            }
            if json {
                try JSONOutput.print(records)
                return
            }
            for record in records {
                let services = Authorization.Service.all.map { "\($0.policyName)=\(record.statuses[$0.policyName] ?? "?")" }
                print("\(record.identifier)  “\(record.displayName)”  " + services.joined(separator: "  "))
            }
        }
    }

    struct Grant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Allow a client a service.")
        @OptionGroup var options: LibraryOptions
        @Option(help: "The client's identifier.") var client: String
        @OptionGroup var service: ServiceOption

        func run() async throws {
            try await PrivacyCommand.decide(.authorized, options: options, client: client, service: service)
        }
    }

    struct Deny: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Refuse a client a service.")
        @OptionGroup var options: LibraryOptions
        @Option(help: "The client's identifier.") var client: String
        @OptionGroup var service: ServiceOption

        func run() async throws {
            try await PrivacyCommand.decide(.denied, options: options, client: client, service: service)
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Forget a client's decisions (all, or one service's): it will be asked again.")
        @OptionGroup var options: LibraryOptions
        @Option(help: "The client's identifier.") var client: String
        @Option(help: "Only this service.") var service: String?

        func run() async throws {
            let authorization = try await PrivacyCommand.authorization(options)
            let services =
                try service.map { name -> [Authorization.Service] in
                    guard let service = Authorization.Service(policyName: name) else { throw ValidationError("unknown service \(name)") }
                    return [service]
                } ?? Authorization.Service.all
            try await PrivacyCommand.reporting {
                for service in services { try await authorization.setStatus(nil, for: service, client: client) }
            }
        }
    }

    struct Limit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give a client limited library access: only these assets (and what it creates).")
        @OptionGroup var options: LibraryOptions
        @Option(help: "The client's identifier.") var client: String
        @Argument(help: "Asset identifiers to share.") var identifiers: [String] = []

        func run() async throws {
            let authorization = try await PrivacyCommand.authorization(options)
            try await PrivacyCommand.reporting {
                try await authorization.setLimitedSelection(identifiers, client: client)
                try await authorization.setStatus(.limited, for: .photoLibrary(.readWrite), client: client)
            }
        }
    }

    struct Report: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "What a client read and changed, newest first.",
            discussion:
                "JSON: [{date, client, action, localIdentifier, detail}]; actions: fetch, image, imageData, video, editingInput, create, update, delete, album."
        )
        @OptionGroup var options: LibraryOptions
        @Option(help: "The client's identifier.") var client: String
        @Option(help: "At most this many entries.") var limit = 1_000
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let authorization = try await PrivacyCommand.authorization(options)
            let entries = try await PrivacyCommand.reporting { try await authorization.accessLog(client: client, limit: limit) }
            if json {
                try JSONOutput.print(entries)
                return
            }
            let formatter = ISO8601DateFormatter()
            for entry in entries {
                print("\(formatter.string(from: entry.date))  \(entry.action)  \(entry.localIdentifier)\(entry.detail.map { "  \($0)" } ?? "")")
            }
        }
    }

    struct Request: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ask for a client now, as the client would: prompts on this terminal if undecided; prints the status.",
            discussion: """
                A client whose manifest lacks the service's usage description is stopped with a message naming the \
                missing key, as iOS terminates such an app. --non-interactive fails instead of prompting.
                """)
        @OptionGroup var options: LibraryOptions
        @Option(help: "The client's identifier.") var client: String
        @OptionGroup var service: ServiceOption
        @Flag(help: "Do not prompt: fail if undecided.") var nonInteractive = false

        func run() async throws {
            let prompter: any AuthorizationPrompter = nonInteractive ? NonInteractivePrompter() : TerminalPrompter()
            let authorization = try await PrivacyCommand.authorization(options, prompter: prompter)
            let service = try service.parsed()
            let status = try await PrivacyCommand.reporting { try await authorization.requestAccess(for: service, client: client) }
            print(status.rawValue)
        }
    }
}
