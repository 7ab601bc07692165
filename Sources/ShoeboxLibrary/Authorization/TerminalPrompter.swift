import Foundation

/// Asks on the controlling terminal (`/dev/tty`), as the iOS alert does: the client's name, its
/// usage description, and Allow / Don't Allow (and Select Photos… for the library).
public struct TerminalPrompter: AuthorizationPrompter {
    /// The terminal to use; `/dev/tty` by default.
    public let devicePath: String

    public init(devicePath: String = "/dev/tty") {
        self.devicePath = devicePath
    }

    public func prompt(_ prompt: AuthorizationPrompt) async throws(AuthorizationError) -> AuthorizationAnswer {
        guard let terminal = FileHandle(forUpdatingAtPath: devicePath) else {
            throw .cannotPrompt(client: prompt.client.identifier, service: prompt.service, reason: "no terminal at \(devicePath)")
        }
        defer { try? terminal.close() }
        var text = "\n“\(prompt.client.displayName)” would like \(prompt.service.promptPhrase).\n\(prompt.usageDescription)\n\n"
        text += prompt.offersLimitedAccess ? "[s] Select Photos…   [a] Allow Access to All Photos   [d] Don't Allow\n> " : "[a] Allow   [d] Don't Allow\n> "
        terminal.write(Data(text.utf8))
        while true {
            guard let line = Self.readLine(terminal) else {
                throw .cannotPrompt(client: prompt.client.identifier, service: prompt.service, reason: "the terminal closed")
            }
            switch line.lowercased() {
            case "a", "allow": return .allow
            case "d", "deny", "don't allow", "dont allow": return .deny
            case "s" where prompt.offersLimitedAccess:
                terminal.write(Data("Asset identifiers to share, separated by spaces or commas:\n> ".utf8))
                let ids = (Self.readLine(terminal) ?? "").split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
                return .selectPhotos(ids)
            default:
                terminal.write(Data((prompt.offersLimitedAccess ? "Type s, a or d: " : "Type a or d: ").utf8))
            }
        }
    }

    static func readLine(_ handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while true {
            guard let byte = try? handle.read(upToCount: 1), let first = byte.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if first == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces) }
            bytes.append(first)
        }
    }
}
