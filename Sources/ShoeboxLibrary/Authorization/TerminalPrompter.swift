import Foundation

/// Asks on the controlling terminal (`/dev/tty`), as the iOS alert does: the client's name, its
/// usage description, and Allow / Don't Allow (and Select Photos… for the library).
///
/// The dialogue, for the library (other services offer `[a] Allow   [d] Don't Allow` only):
///
/// ```
/// “Photo Booth” would like to access your photos.
/// Shows your photos.
///
/// [s] Select Photos…   [a] Allow Access to All Photos   [d] Don't Allow
/// > s
/// Asset identifiers to share, separated by spaces or commas:
/// > 8C1F…/L0/001, 77AB…/L0/001
/// ```
///
/// `a`/`allow`, `d`/`deny`/`don't allow` and (library only) `s` are accepted in any case; anything
/// else asks again. A terminal that closes before an answer is complete throws
/// ``AuthorizationError/Code/cannotPrompt``, so the status stays
/// `notDetermined` rather than recording a decision the user never made.
public struct TerminalPrompter: AuthorizationPrompter {
    /// The terminal to use; `/dev/tty` by default.
    public let devicePath: String

    /// A prompter that talks on the terminal at `devicePath`.
    public init(devicePath: String = "/dev/tty") {
        self.devicePath = devicePath
    }

    /// Asks on the terminal and waits for an answer, on a thread of its own rather than Swift's
    /// cooperative pool.
    ///
    /// - Throws: ``AuthorizationError/Code/cannotPrompt`` when there is no
    ///   terminal at ``devicePath`` or it closes before the user answers.
    public func prompt(_ prompt: AuthorizationPrompt) async throws(AuthorizationError) -> AuthorizationAnswer {
        // The user may take minutes to answer: the blocking reads run on a thread of their own, never
        // on Swift's cooperative pool (on a two-core machine one blocked thread is half of it).
        let devicePath = devicePath
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<AuthorizationAnswer, AuthorizationError>, Never>) in
            Thread.detachNewThread {
                continuation.resume(returning: Result { () throws(AuthorizationError) in try Self.converse(prompt, devicePath: devicePath) })
            }
        }
        return try outcome.get()
    }

    /// The whole dialogue, blocking until the user answers or the terminal closes.
    static func converse(_ prompt: AuthorizationPrompt, devicePath: String) throws(AuthorizationError) -> AuthorizationAnswer {
        func cannotPrompt(_ reason: String) -> AuthorizationError {
            .cannotPrompt(client: prompt.client.identifier, service: prompt.service, reason: reason)
        }
        guard let terminal = FileHandle(forUpdatingAtPath: devicePath) else { throw cannotPrompt("no terminal at \(devicePath)") }
        defer { try? terminal.close() }
        // `write(contentsOf:)` throws where the older `write(_:)` would stop the process on a
        // terminal that hung up; a failed write then shows as a failed read below.
        func say(_ text: String) { try? terminal.write(contentsOf: Data(text.utf8)) }
        var text = "\n“\(prompt.client.displayName)” would like \(prompt.service.promptPhrase).\n\(prompt.usageDescription)\n\n"
        text += prompt.offersLimitedAccess ? "[s] Select Photos…   [a] Allow Access to All Photos   [d] Don't Allow\n> " : "[a] Allow   [d] Don't Allow\n> "
        say(text)
        while true {
            guard let line = readLine(terminal) else { throw cannotPrompt("the terminal closed") }
            switch line.lowercased() {
            case "a", "allow": return .allow
            case "d", "deny", "don't allow", "dont allow": return .deny
            case "s" where prompt.offersLimitedAccess:
                say("Asset identifiers to share, separated by spaces or commas:\n> ")
                // Closing the terminal here is no answer: sharing nothing would be a decision.
                guard let list = readLine(terminal) else { throw cannotPrompt("the terminal closed") }
                return .selectPhotos(list.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init))
            default:
                say(prompt.offersLimitedAccess ? "Type s, a or d: " : "Type a or d: ")
            }
        }
    }

    /// One line without its ending (`\n`, or `\r\n` from a terminal in raw mode) and surrounding
    /// blanks; `nil` at the end of input with nothing read.
    static func readLine(_ handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while true {
            guard let byte = try? handle.read(upToCount: 1), let first = byte.first else {
                return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            if first == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
            bytes.append(first)
        }
    }
}
