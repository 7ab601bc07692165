import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// `saveImage` and `saveVideo` ask an undecided client's user for add-only access, as iOS asks
/// on `UIImageWriteToSavedPhotosAlbum` (issue 17 item 16).
@Suite struct SavingPromptTests {
    static let client = AuthorizationTests.full.identifier

    func fixture() async throws -> (TemporaryLibrary, Authorization) {
        let fixture = try await TemporaryLibrary()
        let authorization = Authorization(library: fixture.library)
        try await authorization.register(AuthorizationTests.full)
        return (fixture, authorization)
    }

    @Test func savingWhileUndecidedAsksForAddOnlyAccessOnce() async throws {
        let (fixture, authorization) = try await fixture()
        defer { fixture.remove() }
        let prompter = ScriptedPrompter(.allow)
        let app = fixture.library.forClient(Self.client, prompter: prompter)
        let photo = try await app.saveImage(try SyntheticPhoto(width: 40, height: 30, seed: 5).image(), filename: "saved.jpg")
        #expect(prompter.prompts.map(\.service) == [.photoLibrary(.addOnly)])
        #expect(prompter.prompts.first?.usageDescription == "Saves pictures.")
        #expect(try await authorization.status(for: .photoLibrary(.addOnly), client: Self.client) == .authorized)
        #expect(
            try await authorization.status(for: .photoLibrary(.readWrite), client: Self.client) == .notDetermined,
            "adding grants no reading")
        let movie = try SyntheticMovie(duration: 0.5, width: 64, height: 48).write(to: fixture.folder.appendingPathComponent("clip.mp4"))
        let video = try await app.saveVideo(at: movie)
        #expect(prompter.prompts.count == 1, "a decided client is not asked again")
        let saved = try await fixture.library.fetchAssets(withLocalIdentifiers: [photo, video]).allObjects()
        #expect(saved.map(\.creatorClient) == [Self.client, Self.client])
    }

    @Test func aVideoSavedWhileUndecidedAsksAndANoKeepsItOut() async throws {
        let (fixture, authorization) = try await fixture()
        defer { fixture.remove() }
        let prompter = ScriptedPrompter(.deny)
        let app = fixture.library.forClient(Self.client, prompter: prompter)
        let movie = try SyntheticMovie(duration: 0.5, width: 64, height: 48).write(to: fixture.folder.appendingPathComponent("clip.mp4"))
        await #expect {
            _ = try await app.saveVideo(at: movie)
        } throws: { error in
            guard let refusal = (error as? LibraryError)?.authorizationError, refusal.code == .notAuthorized else { return false }
            return refusal.service == .photoLibrary(.addOnly) && refusal.status == .denied
        }
        await #expect(throws: LibraryError.self) { _ = try await app.saveImage(try SyntheticPhoto(width: 40, height: 30, seed: 6).image()) }
        #expect(prompter.prompts.count == 1, "the answer is remembered")
        #expect(try await authorization.status(for: .photoLibrary(.addOnly), client: Self.client) == .denied)
        #expect(try await fixture.library.fetchAssets().count == 0)
    }

    @Test func readWriteAccessNeedsNoQuestionAndNobodyToAskIsAnError() async throws {
        let (fixture, authorization) = try await fixture()
        defer { fixture.remove() }
        try await authorization.setStatus(.limited, for: .photoLibrary(.readWrite), client: Self.client)
        let prompter = ScriptedPrompter(.deny)
        _ = try await fixture.library.forClient(Self.client, prompter: prompter).saveImage(try SyntheticPhoto(width: 40, height: 30, seed: 7).image())
        #expect(prompter.prompts.isEmpty, "read-write access includes adding")

        try await authorization.register(
            ClientManifest(
                identifier: "com.example.other", displayName: "Other",
                usageDescriptions: [.photoLibraryAdd: "Saves."]))
        await #expect {
            _ = try await fixture.library.forClient("com.example.other").saveImage(try SyntheticPhoto(width: 40, height: 30, seed: 8).image())
        } throws: { error in
            guard let refusal = (error as? LibraryError)?.authorizationError, refusal.code == .cannotPrompt else { return false }
            return refusal.client == "com.example.other"
        }
        #expect(try await authorization.status(for: .photoLibrary(.addOnly), client: "com.example.other") == .notDetermined)
    }

    @Test func savingWithoutTheAddUsageDescriptionStopsTheClientNamingTheKey() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let fixture = try await TemporaryLibrary()
            defer { fixture.remove() }
            try await Authorization(library: fixture.library).register(
                ClientManifest(
                    identifier: "com.example.bare", displayName: "Bare",
                    usageDescriptions: [.photoLibrary: "Shows."]))
            _ = try await fixture.library.forClient("com.example.bare", prompter: ScriptedPrompter(.allow))
                .saveImage(try SyntheticPhoto(width: 40, height: 30, seed: 9).image())
        }
        let standardError = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(standardError.contains("NSPhotoLibraryAddUsageDescription"), "\(standardError.suffix(400))")
    }
}
