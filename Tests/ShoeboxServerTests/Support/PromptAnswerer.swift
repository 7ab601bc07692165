import Foundation
import ShoeboxServer
import ShoeboxTesting
import Synchronization

/// The user at the web app during the authorization matrix: hears each question on the user's
/// change-event stream (its `prompt` events, as the web app does), answers those of the matrix's
/// clients with Don't Allow (so a client's deletion is declined and deletes nothing), and
/// remembers each, so a cell can tell whether its request asked the user.
final class PromptAnswerer: Sendable {
    struct Question: Sendable {
        let id: String
        let client: String
        let service: String
        let assets: [String]
    }

    private let test: TestServer
    /// Questions from clients whose identifier starts with this are answered; others are left.
    private let prefix: String
    private let exceptPrefix: String
    private let answered = Mutex<[Question]>([])
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(test: TestServer, answering prefix: String, except exceptPrefix: String) {
        self.test = test
        self.prefix = prefix
        self.exceptPrefix = exceptPrefix
    }

    /// How many questions were answered so far.
    var count: Int { answered.withLock { $0.count } }

    /// The questions answered after the first `count`.
    func questions(since count: Int) -> [Question] {
        answered.withLock { Array($0.dropFirst(count)) }
    }

    func start() async throws {
        let stream = try test.http.open("/api/events", headers: ["Authorization": "Bearer \(test.server.userKey)"])
        guard await stream.read(until: ": shoebox", timeout: 10).hasPrefix("HTTP/1.1 200") else {
            throw RawHTTP.Failure(description: "the user's event stream did not open")
        }
        let running = Task { [self] in
            var offset = 0
            while !Task.isCancelled {
                _ = await stream.read(until: "\u{0}", timeout: 0.02)
                let received = stream.received
                guard let end = received[(received.startIndex + offset)...].lastRange(of: Data("\n\n".utf8))?.upperBound else { continue }
                let text = String(decoding: received[(received.startIndex + offset)..<end], as: UTF8.self)
                offset = end - received.startIndex
                for event in text.components(separatedBy: "\n\n") where event.contains("event: prompt\n") {
                    guard let line = event.components(separatedBy: "\n").first(where: { $0.hasPrefix("data: ") }),
                        let prompt = try? JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any]
                    else { continue }
                    await answer(prompt)
                }
            }
        }
        task.withLock { $0 = running }
    }

    func stop() {
        task.withLock { $0?.cancel() }
    }

    private func answer(_ prompt: [String: Any]) async {
        guard let id = prompt["id"] as? String, let client = prompt["client"] as? String,
            client.hasPrefix(prefix), !client.hasPrefix(exceptPrefix)
        else { return }
        let question = Question(id: id, client: client, service: prompt["service"] as? String ?? "", assets: prompt["assets"] as? [String] ?? [])
        // Recorded before the answer: the client's request ends once it is answered.
        answered.withLock { $0.append(question) }
        _ = try? await test.user("POST", "/api/prompts/\(id)", json: ["answer": "deny"])
    }
}
