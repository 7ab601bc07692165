import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

#if canImport(Glibc)
    import Glibc
#endif

/// The user's side of a pseudo-terminal: the prompter opens ``path`` as its terminal; the test
/// reads what it prints and types the answers, as a person at the keyboard would.
final class PseudoTerminal: @unchecked Sendable {
    // @unchecked: one test drives a terminal, one call at a time.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private var master: Int32
    /// The terminal side, held open by the test as well: without it, the master reports a hang-up
    /// until the prompter opens its side, and a wait for the prompter's words would spin.
    private var slave: Int32 = -1
    /// The terminal device (`/dev/pts/N`) to hand to the prompter.
    let path: String
    /// What the prompter printed and ``read(through:timeout:)`` has not returned yet.
    private var pending = ""

    init() throws {
        // Swift's Glibc module leaves out the XSI pseudo-terminal calls (they need _XOPEN_SOURCE),
        // so they are looked up in the C library by name.
        let openpt = try Self.libc("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
        let grantpt = try Self.libc("grantpt", as: (@convention(c) (Int32) -> Int32).self)
        let unlockpt = try Self.libc("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
        let ptsname = try Self.libc("ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32).self)
        master = openpt(O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw Failure(description: "posix_openpt: errno \(errno)") }
        var name = [CChar](repeating: 0, count: 128)
        guard grantpt(master) == 0, unlockpt(master) == 0, ptsname(master, &name, name.count) == 0 else {
            Glibc.close(master)
            throw Failure(description: "cannot unlock the pseudo-terminal: errno \(errno)")
        }
        path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        slave = Glibc.open(path, O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            Glibc.close(master)
            throw Failure(description: "cannot open \(path): errno \(errno)")
        }
        // No echo: what the test types would otherwise come back mixed into what the prompter printed.
        var settings = termios()
        tcgetattr(master, &settings)
        settings.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(master, TCSANOW, &settings)
    }

    deinit { close() }

    private static func libc<Function>(_ name: String, as type: Function.Type) throws -> Function {
        guard let symbol = dlsym(nil, name) else { throw Failure(description: "the C library has no \(name)") }
        return unsafeBitCast(symbol, to: type)
    }

    /// Reads until the printed text contains `marker` (or `timeout` passes), and returns the text
    /// up to and including it; what comes after stays for the next read. Blocks on a thread of
    /// its own, off Swift's cooperative pool.
    func read(through marker: String, timeout: Double = 30) async -> String {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: self.readBlocking(through: marker, timeout: timeout)) }
        }
    }

    private func readBlocking(through marker: String, timeout: Double) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while pending.range(of: marker) == nil, Date() < deadline, master >= 0 {
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            // The test's own terminal side keeps the master from reporting a hang-up: poll sleeps
            // until the prompter prints.
            guard poll(&poller, 1, 100) > 0 else { continue }
            guard poller.revents & Int16(POLLIN) != 0 else { break }
            let count = Glibc.read(master, &buffer, buffer.count)
            if count > 0 { pending += String(decoding: buffer[0..<count], as: UTF8.self) }
        }
        guard let found = pending.range(of: marker) else {
            defer { pending = "" }
            return pending
        }
        defer { pending = String(pending[found.upperBound...]) }
        return String(pending[..<found.upperBound])
    }

    /// Types `line` and Return.
    func type(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
    }

    /// Hangs up: the prompter's side reads the end of input.
    func close() {
        if master >= 0 { Glibc.close(master) }
        if slave >= 0 { Glibc.close(slave) }
        master = -1
        slave = -1
    }
}

@Suite struct TerminalPrompterTests {
    static let manifest = AuthorizationTests.full
    static var client: String { manifest.identifier }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let service: Authorization.Service
        /// Answers typed in turn; all but the last are ones the prompter does not accept.
        let typed: [String]
        let expected: Authorization.Status
        /// What the prompt says: the client's display name and the service, then its usage description.
        let question: String
        let usageDescription: String
        let choices: String
        var testDescription: String { name }
    }

    static let library = "[s] Select Photos…   [a] Allow Access to All Photos   [d] Don't Allow"
    static let cases = [
        Case(
            name: "Allow Access to All Photos", service: .photoLibrary(.readWrite), typed: ["A"], expected: .authorized,
            question: "“Example” would like to access your photos.", usageDescription: "Shows your photos.", choices: library),
        Case(
            name: "Don't Allow the library, after a key it does not take", service: .photoLibrary(.readWrite), typed: ["x", "don't allow"],
            expected: .denied, question: "“Example” would like to access your photos.", usageDescription: "Shows your photos.", choices: library),
        Case(
            name: "Allow the camera", service: .camera, typed: ["allow"], expected: .authorized,
            question: "“Example” would like to access the camera.", usageDescription: "Takes pictures.", choices: "[a] Allow   [d] Don't Allow"),
        Case(
            name: "Don't Allow the camera; Select Photos is not offered", service: .camera, typed: ["s", "d"], expected: .denied,
            question: "“Example” would like to access the camera.", usageDescription: "Takes pictures.", choices: "[a] Allow   [d] Don't Allow"),
    ]

    @Test("Answering on a terminal", arguments: cases)
    func answer(_ expected: Case) async throws {
        let (fixture, authorization, _) = try await AuthorizationTests().fixture()
        defer { fixture.remove() }
        let terminal = try PseudoTerminal()
        let asking = Authorization(library: fixture.library, prompter: TerminalPrompter(devicePath: terminal.path))
        async let status = asking.requestAccess(for: expected.service, client: Self.client)

        let prompt = await terminal.read(through: "> ")
        #expect(prompt.contains(expected.question), "the prompt names the client: \(prompt)")
        #expect(prompt.contains(expected.usageDescription), "the prompt gives the client's reason: \(prompt)")
        #expect(prompt.contains(expected.choices))
        if expected.service != .photoLibrary(.readWrite) { #expect(!prompt.contains("Select Photos")) }
        for refused in expected.typed.dropLast() {
            terminal.type(refused)
            let again = await terminal.read(through: ": ")
            #expect(again.contains(expected.service == .photoLibrary(.readWrite) ? "Type s, a or d: " : "Type a or d: "))
        }
        terminal.type(expected.typed.last!)
        #expect(try await status == expected.expected)
        terminal.close()

        // Stored: another object over the same library reads it, and asking again does not prompt
        // (the terminal is gone, so a prompt would fail).
        let reopened = Authorization(library: try await PhotoLibrary.open(at: fixture.library.url), prompter: TerminalPrompter(devicePath: terminal.path))
        await #expect(try reopened.status(for: expected.service, client: Self.client) == expected.expected)
        #expect(try await reopened.requestAccess(for: expected.service, client: Self.client) == expected.expected)
        await #expect(try authorization.status(for: expected.service, client: Self.client) == expected.expected)
    }

    @Test func selectPhotosOnATerminalGivesLimitedAccessToTheTypedAssets() async throws {
        let (fixture, authorization, user) = try await AuthorizationTests().fixture()
        defer { fixture.remove() }
        let third = try await fixture.importFiles([try fixture.photo("c.jpg", seed: 3)])[0]
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        let asking = Authorization(library: fixture.library, prompter: TerminalPrompter(devicePath: terminal.path))
        async let status = asking.requestAccess(for: .photoLibrary(.readWrite), client: Self.client)

        let prompt = await terminal.read(through: "> ")
        #expect(prompt.contains("“Example” would like to access your photos.") && prompt.contains("Shows your photos."))
        terminal.type("s")
        let question = await terminal.read(through: "> ")
        #expect(question.contains("Asset identifiers to share, separated by spaces or commas:"))
        terminal.type("  \(user[0].localIdentifier),\(third)   ")
        #expect(try await status == .limited)

        await #expect(Set(try authorization.limitedSelection(client: Self.client)) == [user[0].localIdentifier, third])
        let app = try await PhotoLibrary.open(at: fixture.library.url, clientIdentifier: Self.client)
        await #expect(
            Set(try app.fetchAssets().allObjects().map(\.localIdentifier)) == [user[0].localIdentifier, third], "the client sees the chosen photos only")
    }

    @Test func aTerminalThatHangsUpMidAnswerDecidesNothing() async throws {
        let (fixture, authorization, _) = try await AuthorizationTests().fixture()
        defer { fixture.remove() }
        let terminal = try PseudoTerminal()
        let asking = Authorization(library: fixture.library, prompter: TerminalPrompter(devicePath: terminal.path))
        async let status = asking.requestAccess(for: .photoLibrary(.readWrite), client: Self.client)
        _ = await terminal.read(through: "> ")
        terminal.type("s")
        _ = await terminal.read(through: "commas:")
        terminal.close()  // before any identifier: sharing nothing is not what the user said
        do {
            let decided = try await status
            Issue.record("a hung-up terminal decided \(decided)")
        } catch let error as AuthorizationError {
            guard error.code == .cannotPrompt else { throw error }
            #expect(error.client == Self.client && error.message.contains("closed"))
        }
        await #expect(try authorization.status(for: .photoLibrary(.readWrite), client: Self.client) == .notDetermined)
        await #expect(try authorization.limitedSelection(client: Self.client).isEmpty)
    }

    @Test func noTerminalCannotPrompt() async throws {
        let (fixture, authorization, _) = try await AuthorizationTests().fixture()
        defer { fixture.remove() }
        let asking = Authorization(library: fixture.library, prompter: TerminalPrompter(devicePath: fixture.folder.appendingPathComponent("no-tty").path))
        await #expect(throws: AuthorizationError.self) { try await asking.requestAccess(for: .camera, client: Self.client) }
        await #expect(try authorization.status(for: .camera, client: Self.client) == .notDetermined)
    }
}
