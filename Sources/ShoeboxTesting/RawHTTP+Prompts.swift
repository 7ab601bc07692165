import Foundation

extension RawHTTP {
    /// The question waiting for the user's answer on the server at ``port`` — from `client`, or
    /// any — once it waits: the user's event stream (`/api/events`: questions waiting now, then
    /// each as it is raised) wakes the caller, and the list (`/api/prompts`) is read again at
    /// each `prompt` event, so nothing polls.
    ///
    /// - Parameters:
    ///   - client: The asking client's identifier; `nil` takes the first question of anyone's.
    ///   - userKey: The server's key, which the user's requests carry as a bearer token.
    ///   - timeout: Seconds to wait at most.
    /// - Throws: ``Failure`` when no such question came within `timeout`.
    public func awaitPrompt(from client: String? = nil, userKey: String, timeout: Double = 60) async throws -> [String: Any] {
        let user = ["Authorization": "Bearer \(userKey)"]
        let events = try open("/api/events", headers: user)
        let deadline = Date().addingTimeInterval(timeout)
        var heard = 0
        while Date() < deadline {
            let waiting = try await send("GET", "/api/prompts", headers: user).array()
            if let prompt = waiting.first(where: { client == nil || $0["client"] as? String == client }) { return prompt }
            heard += 1
            _ = await events.read(until: "event: prompt\n", occurrences: heard, timeout: deadline.timeIntervalSinceNow)
        }
        throw Failure(description: "no question\(client.map { " from \($0)" } ?? "") reached the user in \(timeout) s")
    }
}
