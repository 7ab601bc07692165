import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// Questions kept in the catalog, on SQLite and (with `SHOEBOX_TEST_CATALOG=postgres`) on
/// PostgreSQL: two handles on one library stand for two servers.
@Suite struct CatalogPrompterTests {
    /// Waits for the first `raised` question an event stream reports.
    func firstRaised(_ events: AsyncStream<CatalogPrompter.Event>) async -> AuthorizationPromptRecord? {
        for await event in events { if case .raised(let question) = event { return question } }
        return nil
    }

    /// A library and a second handle on it (another server), a prompter on each, an
    /// authorization asking through the first with the example client registered, and a photo.
    func twoServers() async throws -> (
        TemporaryLibrary, other: PhotoLibrary, asking: CatalogPrompter, answering: CatalogPrompter, Authorization, photo: String
    ) {
        let temporary = try await TemporaryLibrary()
        let other = try await PhotoLibrary.open(at: temporary.library.url)
        let asking = CatalogPrompter(library: temporary.library, timeout: .seconds(60))
        let answering = CatalogPrompter(library: other, timeout: .seconds(60))
        let authorization = Authorization(library: temporary.library, prompter: asking)
        try await authorization.register(AuthorizationTests.full)
        let photo = try await temporary.importFiles([try temporary.photo("a.jpg", seed: 1)])[0]
        return (temporary, other, asking, answering, authorization, photo)
    }

    @Test func aQuestionAskedOnOneHandleIsAnsweredOnTheOther() async throws {
        let (temporary, other, asking, answering, authorization, photo) = try await twoServers()
        defer { temporary.remove() }

        var watching = answering.questions().makeAsyncIterator()
        let askingWaits = EventRecorder(asking.waitingUpdates)
        let answeringWaits = EventRecorder(answering.waitingUpdates)
        // Two requests for the same service at once, through separate Authorization objects
        // (as on two servers): one question.
        let first = Task { try await authorization.requestAccess(for: .photoLibrary(.readWrite), client: "com.example.app") }
        let second = Task {
            try await Authorization(library: other, prompter: answering).requestAccess(for: .photoLibrary(.readWrite), client: "com.example.app")
        }
        guard case .raised(let question)? = await watching.next() else {
            Issue.record("no question was raised")
            return
        }
        #expect(question.client == "com.example.app" && question.clientName == "Example" && question.service == "photoLibrary")
        #expect(question.usageDescription == "Shows your photos." && question.offersLimitedAccess)
        // Both requests wait, each on its own prompter: for one question.
        #expect(await askingWaits.wait { $0.last == 1 }, "the first request does not wait")
        #expect(await answeringWaits.wait { $0.last == 1 }, "the second request does not wait")
        #expect(try await answering.pending().map(\.id) == [question.id], "one question for one client and service")

        #expect(try await answering.answer(question.id, with: .selectPhotos([photo])))
        #expect(try await first.value == .limited)
        #expect(try await second.value == .limited)
        #expect(try await authorization.limitedSelection(client: "com.example.app") == [photo])
        guard case .settled(let id)? = await watching.next() else {
            Issue.record("the answered question was not settled")
            return
        }
        #expect(id == question.id)
        // Answered once.
        #expect(try await answering.answer(question.id, with: .deny) == false)
        #expect(try await asking.pending().isEmpty)
    }

    /// A request that read the status just before the user answered on another server asks
    /// after the answer: the decision is its answer, and no second question is raised (found by
    /// the two-server kill drill: the answer and the decision were two transactions, and a
    /// request between them raised a question nobody would answer). And an answer whose decision
    /// cannot be recorded leaves the question waiting.
    @Test func aRequestThatReadTheStatusBeforeTheAnswerTakesTheDecision() async throws {
        let (temporary, _, asking, answering, authorization, photo) = try await twoServers()
        defer { temporary.remove() }
        var watching = answering.questions().makeAsyncIterator()
        let first = Task { try await authorization.requestAccess(for: .photoLibrary(.readWrite), client: "com.example.app") }
        guard case .raised(let question)? = await watching.next() else {
            Issue.record("no question was raised")
            return
        }
        // A decision that cannot be recorded (an unknown asset) answers nothing.
        await #expect(throws: LibraryError.self) { try await answering.answer(question.id, with: .selectPhotos(["no/such/asset"])) }
        #expect(try await answering.pending().map(\.id) == [question.id], "the question no longer waits")
        #expect(try await authorization.status(for: .photoLibrary(.readWrite), client: "com.example.app") == .notDetermined)

        #expect(try await answering.answer(question.id, with: .selectPhotos([photo])))
        #expect(try await first.value == .limited)
        // The late request: it read `notDetermined` before the answer, and asks now.
        let manifest = AuthorizationTests.full
        let late = try await withTimeLimit(.seconds(10)) {
            try await asking.prompt(
                AuthorizationPrompt(client: manifest, service: .photoLibrary(.readWrite), usageDescription: "Shows your photos."))
        }
        #expect(late == .selectPhotos([photo]))
        #expect(try await answering.pending().isEmpty, "a second question was raised")
    }

    @Test func anUnansweredQuestionExpiresAndTheStatusStaysUndetermined() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let prompter = CatalogPrompter(library: temporary.library, timeout: .milliseconds(600))
        let authorization = Authorization(library: temporary.library, prompter: prompter)
        try await authorization.register(AuthorizationTests.full)
        await #expect(throws: AuthorizationError.self) { try await authorization.requestAccess(for: .camera, client: "com.example.app") }
        #expect(try await authorization.status(for: .camera, client: "com.example.app") == .notDetermined)
        #expect(try await prompter.pending().isEmpty)
        // The expired question is kept as such and takes no answer; a new request asks anew.
        let records = try await temporary.library.catalog.pendingPrompts(now: .distantPast)
        #expect(records.isEmpty, "an expired question is not pending even for a clock in the past: \(records)")
        var watching = prompter.questions().makeAsyncIterator()
        // Asked again with time to answer (a loaded machine may take longer than 0.6 s to).
        let patient = Authorization(library: temporary.library, prompter: CatalogPrompter(library: temporary.library, timeout: .seconds(60)))
        let again = Task { try await patient.requestAccess(for: .camera, client: "com.example.app") }
        guard case .raised(let question)? = await watching.next() else {
            Issue.record("no new question")
            return
        }
        #expect(try await prompter.answer(question.id, with: .deny))
        #expect(try await again.value == .denied)
    }

    @Test func aStoppingPrompterEndsItsWaitsAndTheQuestionStaysForAnother() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let other = try await PhotoLibrary.open(at: temporary.library.url)
        let stopping = CatalogPrompter(library: temporary.library, timeout: .seconds(60))
        let authorization = Authorization(library: temporary.library, prompter: stopping)
        try await authorization.register(AuthorizationTests.full)
        let remaining = CatalogPrompter(library: other, timeout: .seconds(60))
        var watching = remaining.questions().makeAsyncIterator()
        let asking = Task { try await authorization.requestAccess(for: .microphone, client: "com.example.app") }
        guard case .raised(let question)? = await watching.next() else {
            Issue.record("no question")
            return
        }
        stopping.stopAsking()
        await #expect(throws: AuthorizationError.self) { try await asking.value }
        #expect(try await remaining.pending().map(\.id) == [question.id])
        // The client asks again through the other server: the same question, and its answer.
        let remainingWaits = EventRecorder(remaining.waitingUpdates)
        let retry = Task { try await Authorization(library: other, prompter: remaining).requestAccess(for: .microphone, client: "com.example.app") }
        #expect(await remainingWaits.wait { $0.last == 1 }, "the retry did not join the question")
        #expect(try await remaining.pending().map(\.id) == [question.id])
        #expect(try await remaining.answer(question.id, with: .allow))
        #expect(try await retry.value == .authorized)
    }
}
