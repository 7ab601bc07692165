internal import Crypto
import Foundation
import ShoeboxImaging
import Synchronization

/// Asks the user through the catalog, so several servers of one library act as one: a question
/// raised on one server (where the client asked) is listed by every server (``questions()``,
/// ``pending()``), and answered on whichever one the user's browser reaches (``answer(_:with:)``).
///
/// ```swift
/// let prompter = CatalogPrompter(library: library, timeout: .seconds(300))
/// let authorization = Authorization(library: library, prompter: prompter)
/// // Elsewhere, perhaps on another machine with the same PostgreSQL catalog:
/// for await event in CatalogPrompter(library: library, timeout: .seconds(300)).questions() {
///     if case .raised(let question) = event { print(question.clientName, question.service) }
/// }
/// ```
///
/// The answering server records the decision itself, in the transaction that answers the
/// question, so it stands even if the server that raised the question has gone away; the asking
/// side reads the answer from the catalog and returns it — at once when the answer was given in
/// this process, within 150 ms when on another server. Two servers asking for the same client and
/// service at once share one question, and a request that asks once the decision is made gets
/// it instead of a new question. A question nobody answers expires after `timeout` and the status
/// stays `notDetermined`.
package final class CatalogPrompter: AuthorizationPrompter {
    /// What ``questions()`` reports.
    package enum Event: Sendable, Hashable {
        /// A question waits for the user (raised on this server or another).
        case raised(AuthorizationPromptRecord)
        /// A question reported earlier no longer waits: answered (here or elsewhere) or expired.
        case settled(id: String)
    }

    /// The library whose catalog holds the questions and records the decisions.
    package let library: PhotoLibrary
    /// How long a question waits for the user before it expires and the request fails.
    package let timeout: Duration
    /// How often the asking side reads its question when nothing in this process woke it (an
    /// answer on another server), and watchers the pending ones.
    let answerPollInterval: Duration = .milliseconds(150)
    let watchInterval: Duration = .milliseconds(400)

    private struct Listener {
        let continuation: AsyncStream<Event>.Continuation
        var shown: Set<String> = []
    }

    private struct Watch {
        var listeners: [UUID: Listener] = [:]
        var task: Task<Void, Never>?
    }

    private let watch = Mutex(Watch())
    private let stopping = Mutex(false)
    /// Questions answered or expired, and prompters stopped, in this process: every asking side
    /// reads its question again at once.
    private static let settled = NotificationBoard()
    /// How many requests wait on this prompter for an answer.
    private let waiting = Mutex(0)
    /// Who listens to ``waitingUpdates``; told under the `waiting` lock, so in order.
    private let waitingListeners = EventFanOut<Int>()

    /// How many requests wait for an answer on this prompter now, then again at each change,
    /// until the stream is dropped: for a test to know a request has joined its question.
    var waitingUpdates: AsyncStream<Int> {
        waiting.withLock { count in waitingListeners.subscribe(replaying: [count]) }
    }

    private func changeWaiting(by change: Int) {
        waiting.withLock { count in
            count += change
            if waitingListeners.hasSubscribers { waitingListeners.yield(count) }
        }
    }

    /// Ends every wait on this prompter at once with ``AuthorizationError/Code/cannotPrompt``,
    /// now and from now on, leaving the questions pending in the catalog: a stopping server's
    /// clients ask again on another one, which finds the same question (and its answer).
    package func stopAsking() {
        stopping.withLock { $0 = true }
        Self.settled.notify()
    }

    /// A prompter asking through `library`'s catalog; its questions expire after `timeout`.
    package init(library: PhotoLibrary, timeout: Duration) {
        self.library = library
        self.timeout = timeout
    }

    /// Stores the question in the catalog (or joins the same pending one) and waits for any
    /// server to answer it.
    ///
    /// - Throws: ``AuthorizationError/Code/cannotPrompt`` when nobody answered
    ///   within ``timeout``, the question could not be stored, the answer is one this version does
    ///   not know, the task was cancelled, or ``stopAsking()`` was called.
    package func prompt(_ prompt: AuthorizationPrompt) async throws(AuthorizationError) -> AuthorizationAnswer {
        let fail = { (reason: String) in AuthorizationError.cannotPrompt(client: prompt.client.identifier, service: prompt.service, reason: reason) }
        let record = { (now: Date, expires: Date) in
            AuthorizationPromptRecord(
                id: RandomToken.hex(words: 2), client: prompt.client.identifier, clientName: prompt.client.displayName,
                service: prompt.service.policyName, usageDescription: prompt.usageDescription,
                offersLimitedAccess: prompt.offersLimitedAccess, createdDate: now, expiresDate: expires)
        }
        let answered = try await ask(record, fail: fail)
        guard let answer = answered.authorizationAnswer else { throw fail("the answer is not one this version knows") }
        return answer
    }

    /// Asks the user whether `client` may delete `assets` (to Recently Deleted, or for good with
    /// `permanently`), as PhotoKit asks before an app's deletion. Identical requests from two
    /// servers share one question.
    ///
    /// - Returns: Whether the user allowed it.
    /// - Throws: ``AuthorizationError/Code/cannotPrompt`` when nobody
    ///   answered in time or this server is stopping.
    package func confirmDeletion(by client: ClientManifest, of assets: [Asset], permanently: Bool) async throws(AuthorizationError) -> Bool {
        let identifiers = assets.map(\.localIdentifier).sorted()
        let service =
            AuthorizationPromptRecord.deletionService + (permanently ? ":purge:" : ":trash:")
            + Hex.sha256(Data(identifiers.joined(separator: "\n").utf8)).prefix(24)
        let videos = assets.filter { $0.mediaType == .video }.count
        let photos = assets.count - videos
        let things = [photos > 0 ? "\(photos) photo\(photos == 1 ? "" : "s")" : nil, videos > 0 ? "\(videos) video\(videos == 1 ? "" : "s")" : nil]
            .compactMap { $0 }.joined(separator: " and ")
        let description =
            permanently
            ? "\(things) will be deleted for good: this cannot be undone."
            : "\(things) will move to Recently Deleted, where they can be recovered for a while."
        let record = { (now: Date, expires: Date) in
            AuthorizationPromptRecord(
                id: RandomToken.hex(words: 2), client: client.identifier, clientName: client.displayName, service: service,
                usageDescription: description, offersLimitedAccess: false, assets: identifiers, createdDate: now, expiresDate: expires)
        }
        let answered = try await ask(record) { reason in
            AuthorizationError.cannotPrompt(client: client.identifier, service: .photoLibrary(.readWrite), reason: reason)
        }
        return answered.decision == "allow"
    }

    /// Stores the question `record` makes (given now and its expiry), unless the same one is
    /// pending, and waits for the user's answer.
    private func ask(
        _ record: (Date, Date) -> AuthorizationPromptRecord,
        fail: (String) -> AuthorizationError
    ) async throws(AuthorizationError) -> AuthorizationPromptRecord.Answer {
        let now = Date()
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let question: AuthorizationPromptRecord
        do {
            question = try await library.catalog.addPrompt(record(now, now.addingTimeInterval(seconds)))
        } catch {
            throw fail("the question could not be stored: \(error.message)")
        }
        // Decided since the asker read the status: that decision is the answer, and nobody is asked.
        if question.state == .answered, let answer = question.answer { return answer }
        poll()
        changeWaiting(by: 1)
        defer { changeWaiting(by: -1) }
        while true {
            // Read before the question: an answer between the read and the wait is not missed.
            let seen = Self.settled.count
            if stopping.withLock({ $0 }) { throw fail("this server is stopping: ask again (the question stays open)") }
            let current: AuthorizationPromptRecord?
            do {
                current = try await library.catalog.prompt(id: question.id)
            } catch {
                // The catalog is away for a moment (a PostgreSQL restart): ask again.
                current = question
            }
            switch current?.state {
            case .answered?:
                guard let answer = current?.answer else { throw fail("the answer is not one this version knows") }
                return answer
            case .expired?, nil:
                throw fail("nobody answered in the web app within \(timeout)")
            case .pending?:
                if Date() >= question.expiresDate {
                    // Expire it, unless an answer came in the meantime.
                    if (try? await library.catalog.expirePrompt(id: question.id)) == true {
                        poll()
                        Self.settled.notify()
                        throw fail("nobody answered in the web app within \(timeout)")
                    }
                    continue
                }
                // Until a question is settled or a prompter stopped in this process, or the poll
                // interval (an answer given on another server).
                await Self.settled.wait(beyond: seen, until: .now + answerPollInterval)
                if Task.isCancelled { throw fail("the request was cancelled") }
            }
        }
    }

    /// The questions waiting now, oldest first, from every server.
    package func pending() async throws(LibraryError) -> [AuthorizationPromptRecord] {
        try await library.catalog.pendingPrompts(now: Date())
    }

    /// The user's answer: recorded as the client's decision at once, and handed to the side that
    /// asked.
    ///
    /// - Returns: `false` when no such question waits (answered already, expired, or unknown).
    @discardableResult
    package func answer(_ id: String, with answer: AuthorizationAnswer) async throws(LibraryError) -> Bool {
        guard let question = try await library.catalog.prompt(id: id), question.state == .pending else { return false }
        if question.isDeletion {
            // A deletion question grants nothing: the asking side deletes, or not.
            guard answer == .allow || answer == .deny else { throw .invalidArgument("a deletion is answered with allow or deny") }
            guard try await library.catalog.answerPrompt(id: id, answer: AuthorizationPromptRecord.Answer(answer), now: Date(), recording: nil)
            else { return false }
            poll()
            Self.settled.notify()
            return true
        }
        guard let service = Authorization.Service(policyName: question.service) else { return false }
        // The answer and the decision it makes in one transaction: a request that reads the
        // status between the two would otherwise find neither a decision nor a question waiting.
        let decision = Authorization.decision(answer, for: service)
        guard
            try await library.catalog.answerPrompt(
                id: id, answer: AuthorizationPromptRecord.Answer(answer), now: Date(), recording: (decision.status.rawValue, decision.selection))
        else { return false }
        poll()
        Self.settled.notify()
        return true
    }

    /// Questions as they are raised and settled, on any server: first every one waiting now,
    /// then each change, until the stream is dropped.
    package func questions() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        let id = UUID()
        watch.withLock { watch in
            watch.listeners[id] = Listener(continuation: continuation)
            if watch.task == nil { watch.task = Task { [weak self] in await self?.watchLoop() } }
        }
        continuation.onTermination = { [weak self] _ in _ = self?.watch.withLock { $0.listeners.removeValue(forKey: id) } }
        poll()
        return stream
    }

    private let wake = WakeSignal()

    /// Reads the pending questions soon rather than at the next interval.
    private func poll() {
        wake.signal()
    }

    private func watchLoop() async {
        while true {
            if let pending = try? await pending() {
                let ids = Set(pending.map(\.id))
                let stop = watch.withLock { watch -> Bool in
                    guard !watch.listeners.isEmpty else {
                        watch.task = nil
                        return true
                    }
                    for (key, var listener) in watch.listeners {
                        for question in pending where !listener.shown.contains(question.id) {
                            listener.continuation.yield(.raised(question))
                        }
                        for gone in listener.shown.subtracting(ids) { listener.continuation.yield(.settled(id: gone)) }
                        listener.shown = ids
                        watch.listeners[key] = listener
                    }
                    return false
                }
                if stop { return }
            } else if watch.withLock({ watch -> Bool in
                if watch.listeners.isEmpty {
                    watch.task = nil
                    return true
                }
                return false
            }) {
                return
            }
            // Sleep until the interval passes or something here raised or settled a question.
            let interval = watchInterval
            // Cancelled (woken first), the timer wakes nothing: a wake left for the next wait
            // would make every wait return at once.
            let timer = Task { [weak self] in
                guard (try? await Task.sleep(for: interval)) != nil else { return }
                self?.poll()
            }
            await wake.wait()
            timer.cancel()
        }
    }
}
