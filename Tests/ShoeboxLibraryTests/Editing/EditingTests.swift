import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

@Suite struct EditingTests {
    /// One imported 120×80 photo.
    func libraryWithPhoto(client: String? = nil) async throws -> (TemporaryLibrary, Asset) {
        let fixture = try await TemporaryLibrary()
        let id = try await fixture.importFiles([try fixture.photo("IMG_0001.jpg", seed: 7)])[0]
        return await (fixture, try #require(try fixture.library.fetchAssets(withLocalIdentifiers: [id]).firstObject))
    }

    @Test func editInPlaceKeepsTheOriginalAndRevertRestoresIt() async throws {
        let (fixture, asset) = try await libraryWithPhoto()
        defer { fixture.remove() }
        let library = fixture.library
        let originalBytes = try await Data(contentsOf: library.originalURL(for: asset))

        let edited = try await library.applyAdjustments(
            Adjustments(rotation: 90, crop: NormalizedRect(x: 0, y: 0, width: 1, height: 0.5)), to: asset)
        #expect(edited.hasAdjustments)
        #expect(edited.contentRevision == 1)
        // Rotated 90°: 80×120; the top half of that: 80×60.
        #expect(edited.pixelWidth == 80 && edited.pixelHeight == 60)
        #expect(edited.resources.map(\.type) == [.photo, .fullSizePhoto])
        #expect(edited.resources[1].uniformTypeIdentifier == "public.jpeg")
        #expect(edited.resources[1].originalFilename == "IMG_0001_edited.jpg")
        let render = try await Image(contentsOfFile: library.currentURL(for: edited).path)
        #expect(render.pixelSize == PixelSize(width: 80, height: 60))
        await #expect(try Data(contentsOf: library.originalURL(for: edited)) == originalBytes)
        #expect((try await fixture.blobs(.render)).count == 1)

        // The input for a Shoebox editor is the original plus the adjustments to continue from.
        let input = try await library.requestContentEditingInput(for: edited)
        #expect(try await input.fullSizeImageURL == library.originalURL(for: edited))
        let data = try #require(input.adjustmentData)
        #expect(try Adjustments(data) == Adjustments(rotation: 90, crop: NormalizedRect(x: 0, y: 0, width: 1, height: 0.5)))

        // A second edit replaces the first, and the first render goes.
        let firstRender = try await library.currentURL(for: edited)
        let reedited = try await library.applyAdjustments(Adjustments(rotation: 180), to: edited)
        #expect(reedited.pixelWidth == 120 && reedited.pixelHeight == 80)
        #expect(reedited.contentRevision == 2)
        #expect(!FileManager.default.fileExists(atPath: firstRender.path))
        #expect((try await fixture.blobs(.render)).count == 1)

        let reverted = try await library.revertAssetContentToOriginal(reedited)
        #expect(!reverted.hasAdjustments)
        #expect(reverted.pixelWidth == 120 && reverted.pixelHeight == 80)
        #expect(reverted.contentRevision == 3)
        #expect(reverted.resources.count == 1)
        #expect(try await library.currentURL(for: reverted) == library.originalURL(for: reverted))
        #expect((try await fixture.blobs(.render)).isEmpty)
        await #expect(try Data(contentsOf: library.originalURL(for: reverted)) == originalBytes)
        let afterRevert = try await library.requestContentEditingInput(for: reverted)
        #expect(afterRevert.adjustmentData == nil)
        #expect(try await library.doctor(deep: true).ok)
    }

    @Test func onlyTheCreatingClientEditsInPlaceOthersSaveAModifiedVersion() async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        let path = fixture.library.url
        let authorization = Authorization(library: fixture.library)
        for client in ["com.example.camera", "com.example.editor"] {
            try await authorization.register(ClientManifest(identifier: client, displayName: client))
            try await authorization.setStatus(.authorized, for: .photoLibrary(.readWrite), client: client)
        }
        let camera = try await PhotoLibrary.open(at: path, clientIdentifier: "com.example.camera")
        let editor = try await PhotoLibrary.open(at: path, clientIdentifier: "com.example.editor")
        let photo = try fixture.photo("shot.jpg", seed: 11)
        let result = try await camera.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: photo) }
        let asset = try await #require(try camera.fetchAssets(withLocalIdentifiers: [result.created[0].localIdentifier]).firstObject)
        #expect(asset.creatorClient == "com.example.camera")
        #expect(asset.canPerform(.content, client: "com.example.camera"))
        #expect(!asset.canPerform(.content, client: "com.example.editor"))
        #expect(asset.canPerform(.content, client: nil))
        #expect(asset.canPerform(.properties, client: "com.example.editor"))

        await #expect(throws: LibraryError.self) {
            try await editor.applyAdjustments(Adjustments(rotation: 90), to: asset)
        }
        // Through the change request too, and nothing is left behind.
        let input = try await editor.requestContentEditingInput(for: asset)
        let output = ContentEditingOutput(contentEditingInput: input)
        try await editor.render(Adjustments(rotation: 270), of: asset, into: output)
        do {
            try await editor.performChanges { AssetChangeRequest(for: asset).contentEditingOutput = output }
            Issue.record("an editor that did not create the asset edited it in place")
        } catch let error as LibraryError {
            #expect(error.code == .notEditable)
        }
        #expect((try await fixture.blobs(.render)).isEmpty)
        #expect(fixture.files(in: "staging").isEmpty)

        let copy = try await editor.saveModifiedVersion(of: asset, applying: Adjustments(rotation: 90))
        #expect(copy.localIdentifier != asset.localIdentifier)
        #expect(copy.originalAssetIdentifier == asset.localIdentifier)
        #expect(copy.creatorClient == "com.example.editor")
        #expect(copy.pixelWidth == 80 && copy.pixelHeight == 120)
        #expect(copy.creationDate == asset.creationDate)
        #expect(copy.originalFilename == "shot_edited.jpg")
        await #expect(try editor.originalAsset(of: copy)?.localIdentifier == asset.localIdentifier)
        await #expect(try editor.originalAsset(of: asset) == nil)
        // The creator can still edit its own asset, and the user's tools (client nil) can too.
        #expect(try await camera.applyAdjustments(Adjustments(rotation: 90), to: asset).hasAdjustments)
        #expect(try await fixture.library.revertAssetContentToOriginal(asset).hasAdjustments == false)
    }

    @Test func foreignAdjustmentDataIsKeptAndOnlyHandedToEditorsThatReadIt() async throws {
        let (fixture, asset) = try await libraryWithPhoto()
        defer { fixture.remove() }
        let library = fixture.library
        let input = try await library.requestContentEditingInput(for: asset)
        #expect(input.adjustmentData == nil)
        #expect(try await input.fullSizeImageURL == library.originalURL(for: asset))
        let output = ContentEditingOutput(contentEditingInput: input)
        let sepia = AdjustmentData(formatIdentifier: "com.example.sepia", formatVersion: "2.1", data: Data(#"{"amount":0.8}"#.utf8))
        try SyntheticPhoto(width: 100, height: 50, seed: 99).image().write(to: output.renderedContentURL)
        output.adjustmentData = sepia
        try await library.performChanges { AssetChangeRequest(for: asset).contentEditingOutput = output }
        let edited = try await #require(try library.fetchAssets(withLocalIdentifiers: [asset.localIdentifier]).firstObject)
        #expect(edited.pixelWidth == 100 && edited.pixelHeight == 50)

        // Shoebox's own editor cannot read it: it gets the current version, baked.
        let plain = try await library.requestContentEditingInput(for: edited)
        #expect(plain.adjustmentData == nil)
        #expect(try await plain.fullSizeImageURL == library.currentURL(for: edited))
        // The sepia editor can: it gets the original and its data back.
        let sepiaInput = try await library.requestContentEditingInput(
            for: edited, options: ContentEditingInputRequestOptions { $0.formatIdentifier == "com.example.sepia" })
        #expect(sepiaInput.adjustmentData == sepia)
        #expect(try await sepiaInput.fullSizeImageURL == library.originalURL(for: edited))
    }

    @Test func badEditOutputsFailWithTypedErrorsAndChangeNothing() async throws {
        let (fixture, asset) = try await libraryWithPhoto()
        defer { fixture.remove() }
        let library = fixture.library
        let input = try await library.requestContentEditingInput(for: asset)

        func code(_ prepare: (ContentEditingOutput) throws -> Void) async throws -> String? {
            let output = ContentEditingOutput(contentEditingInput: input)
            try prepare(output)
            do {
                try await library.performChanges { AssetChangeRequest(for: asset).contentEditingOutput = output }
                return nil
            } catch let error as LibraryError {
                return error.code.rawValue
            }
        }
        let adjustments = Adjustments(rotation: 90).adjustmentData
        // No render written.
        #expect(try await code { $0.adjustmentData = adjustments } == "invalidArgument")
        // No adjustment data.
        #expect(try await code { try SyntheticPhoto(width: 10, height: 10).image().write(to: $0.renderedContentURL) } == "invalidArgument")
        // A render that is not a photo.
        #expect(
            try await code {
                try Data("not a jpeg".utf8).write(to: $0.renderedContentURL)
                $0.adjustmentData = adjustments
            } == "renderFailed")
        // Adjustment data over the limit.
        #expect(
            try await code {
                try SyntheticPhoto(width: 10, height: 10).image().write(to: $0.renderedContentURL)
                $0.adjustmentData = AdjustmentData(formatIdentifier: "x", formatVersion: "1", data: Data(count: AdjustmentData.maximumDataSize + 1))
            } == "invalidArgument")

        let unchanged = try await #require(try library.fetchAssets(withLocalIdentifiers: [asset.localIdentifier]).firstObject)
        #expect(!unchanged.hasAdjustments && unchanged.contentRevision == 0)
        #expect((try await fixture.blobs(.render)).isEmpty && fixture.files(in: "staging").isEmpty)
        // Portable adjustments that do not fit are refused before any rendering.
        await #expect(throws: LibraryError.self) { try await library.applyAdjustments(Adjustments(rotation: 45), to: asset) }
        await #expect(throws: LibraryError.self) { try await library.applyAdjustments(Adjustments(trim: .init(start: 0, end: 1)), to: asset) }
        await #expect(throws: LibraryError.self) {
            try await library.applyAdjustments(Adjustments(crop: NormalizedRect(x: 0.5, y: 0, width: 0.8, height: 1)), to: asset)
        }
    }

    @Test func movieTrimEditAndRevert() async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        let movie = try SyntheticMovie(duration: 4).write(to: fixture.folder.appendingPathComponent("clip.mp4"))
        let id = try await fixture.importFiles([movie])[0]
        let asset = try await #require(try fixture.library.fetchAssets(withLocalIdentifiers: [id]).firstObject)
        #expect(abs(asset.duration - 4) < 0.1)

        let trimmed = try await fixture.library.applyAdjustments(Adjustments(trim: .init(start: 1, end: 3)), to: asset)
        #expect(trimmed.hasAdjustments)
        #expect(abs(trimmed.duration - 2) < 0.1, "trimmed to \(trimmed.duration) s")
        #expect(trimmed.resources.last?.type == .fullSizeVideo)
        #expect(trimmed.resources.last?.uniformTypeIdentifier == "public.mpeg-4")
        await #expect(throws: LibraryError.self) { try await fixture.library.applyAdjustments(Adjustments(rotation: 90), to: asset) }

        let reverted = try await fixture.library.revertAssetContentToOriginal(trimmed)
        #expect(abs(reverted.duration - 4) < 0.1)
        #expect((try await fixture.blobs(.render)).isEmpty)
    }

    @Test func purgingAnEditedAssetRemovesOriginalAndRender() async throws {
        let (fixture, asset) = try await libraryWithPhoto()
        defer { fixture.remove() }
        let edited = try await fixture.library.applyAdjustments(Adjustments(rotation: 90), to: asset)
        try await fixture.library.performChanges { AssetChangeRequest.deleteAssets([edited]) }
        // In Recently Deleted, nothing is removed.
        #expect(try await fixture.blobs(.original).count == 1)
        #expect(try await fixture.blobs(.render).count == 1)
        let trashed = try await #require(try fixture.library.fetchAssets(withLocalIdentifiers: [asset.localIdentifier]).firstObject)
        try await fixture.library.performChanges { AssetChangeRequest.purgeAssets([trashed]) }
        #expect(try await fixture.blobs(.original).isEmpty)
        #expect(try await fixture.blobs(.render).isEmpty)
    }

    @Test func doctorFindsOrphanAndMissingRendersAndRepairsThem() async throws {
        let (fixture, asset) = try await libraryWithPhoto()
        defer { fixture.remove() }
        let library = fixture.library
        let edited = try await library.applyAdjustments(Adjustments(rotation: 90), to: asset)
        // A render with no asset: an edit whose commit never happened.
        let stray = SyntheticPhoto(width: 20, height: 20, seed: 5)
        let strayURL = fixture.folder.appendingPathComponent("stray.jpg")
        try stray.image().write(to: strayURL)
        let hash = try #require(await PhotoLibrary.contentHash(of: strayURL))
        try await fixture.plant(strayURL, as: BlobKey(kind: .render, hash: hash))
        // The edited asset's render vanishes.
        try await fixture.lose(BlobKey(kind: .render, hash: try #require(edited.render?.hash)))

        let report = try await library.doctor()
        #expect(Set(report.problems.map(\.kind)) == ["orphanRender", "missingRender"])
        let repaired = try await library.doctor(repair: true)
        #expect(Set(repaired.repaired.map(\.kind)) == ["orphanRender", "missingRender"])
        #expect(try await library.doctor(deep: true).ok)
        let current = try await #require(try library.fetchAssets(withLocalIdentifiers: [asset.localIdentifier]).firstObject)
        await #expect(try Image(contentsOfFile: library.currentURL(for: current).path).pixelSize == PixelSize(width: 80, height: 120))
    }

    @Test func adjustmentsJSONIsThePortableFormat() throws {
        let adjustments = Adjustments(rotation: 270, crop: NormalizedRect(x: 0.25, y: 0, width: 0.5, height: 1), trim: nil)
        let data = adjustments.adjustmentData
        #expect(data.formatIdentifier == "org.shoebox.adjustments" && data.formatVersion == "1")
        #expect(String(decoding: data.data, as: UTF8.self) == #"{"crop":{"height":1,"width":0.5,"x":0.25,"y":0},"rotation":270}"#)
        // Readers ignore keys they do not know, and missing keys mean "unchanged".
        let later = AdjustmentData(
            formatIdentifier: "org.shoebox.adjustments", formatVersion: "1",
            data: Data(#"{"trim":{"start":0.5,"end":2},"vignette":3}"#.utf8))
        #expect(try Adjustments(later) == Adjustments(trim: .init(start: 0.5, end: 2)))
        #expect(throws: LibraryError.self) {
            try Adjustments(AdjustmentData(formatIdentifier: "org.shoebox.adjustments", formatVersion: "1", data: Data("{".utf8)))
        }
        #expect(throws: LibraryError.self) {
            try Adjustments(AdjustmentData(formatIdentifier: "com.other", formatVersion: "1", data: Data("{}".utf8)))
        }
    }
}
