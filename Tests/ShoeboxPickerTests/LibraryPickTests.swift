import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxMedia
import ShoeboxTesting
import Synchronization
import Testing

@testable import ShoeboxPicker

@Suite struct LibraryPickTests {
    @Test func pickingAnImageDeliversACopyAndItsReference() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let landscape = fixture.ids["landscape.jpg"]!
        let (picker, presenter) = fixture.picker { session in
            try await session.select(landscape)
            try await session.confirm()
        }
        let result = try await picker.pick()
        defer { cleanUp(result) }
        let info = try #require(result.infos.first)
        #expect(result.infos.count == 1)
        #expect(info.mediaType == .image)
        #expect(info.keys == [.mediaType, .originalImage, .referenceURL, .asset, .imageURL], "no edit, no movie, no capture metadata")
        #expect(info.originalImage?.pixelSize == PixelSize(width: 400, height: 300))
        #expect(info.asset?.localIdentifier == landscape)
        #expect(ImagePickerController.localIdentifier(fromReferenceURL: try #require(info.referenceURL)) == landscape)
        let file = try #require(info.imageURL)
        #expect(!isInside(file, fixture.library.url), "the client gets a copy, never a library file")
        await #expect(try Data(contentsOf: file) == Data(contentsOf: fixture.library.originalURL(for: fixture.asset("landscape.jpg"))))
        #expect(file.lastPathComponent == "landscape.jpg")
        let mode = try FileManager.default.attributesOfItem(atPath: file.deletingLastPathComponent().path)[.posixPermissions] as? Int
        #expect(mode == 0o700, "the picked copy's folder is readable by other users: \(String(mode ?? 0, radix: 8))")
        #expect(presenter.presentedSessions.count == 1 && presenter.dismissedSessions == presenter.presentedSessions)
        #expect(presenter.errors.isEmpty)
    }

    @Test func pickingAMovieGivesAPlayableCopy() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let clip = fixture.ids["clip.mp4"]!
        let (picker, _) = fixture.picker { session in
            try await session.select(clip)
            try await session.confirm()
        }
        try picker.setMediaTypes([.movie])
        let result = try await picker.pick()
        defer { cleanUp(result) }
        let info = try #require(result.infos.first)
        #expect(info.mediaType == .movie && info.originalImage == nil && info.imageURL == nil)
        let movie = try await MovieInfo(contentsOf: try #require(info.mediaURL))
        #expect(abs(movie.duration - 4) < 0.1)
        #expect(info.localIdentifier == clip && info.referenceURL != nil)
        #expect(!isInside(info.mediaURL, fixture.library.url))
    }

    @Test("A picked Live Photo comes with its movie: as stored for .current, playable for .compatible")
    func pickingALivePhotoDeliversItsMovieToo() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        // An iPhone's Live Photo: a JPEG and an HEVC movie with one content identifier.
        let live = SyntheticLivePhoto(identifier: UUID().uuidString, seed: 77)
        let (photo, _) = try live.write(to: fixture.folder, stem: "IMG_0077")
        let hevc = fixture.folder.appendingPathComponent("IMG_0077.MOV")
        var movie = SyntheticMovie(duration: 1, width: 160, height: 120, hasAudio: false)
        movie.metadata["com.apple.quicktime.content.identifier"] = live.identifier
        movie.codecOptions = ["-c:v", "libx265", "-tag:v", "hvc1", "-pix_fmt", "yuv420p", "-x265-params", "log-level=error"]
        try? FileManager.default.removeItem(at: hevc)
        _ = try movie.write(to: hevc)
        let result = try await fixture.library.performChanges {
            _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: photo)
            _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: hevc)
        }
        let id = result.created[0].localIdentifier
        for mode in [PickerConfiguration.AssetRepresentationMode.current, .compatible] {
            let (picker, _) = fixture.picker { session in
                try await session.select(id)
                try await session.confirm()
            }
            picker.configuration.preferredAssetRepresentationMode = mode
            let picked = try await picker.pick()
            defer { cleanUp(picked) }
            let info = try #require(picked.infos.first)
            #expect(info.mediaType == .image && info.imageURL?.lastPathComponent.lowercased() == "img_0077.jpg")
            let motion = try #require(info.livePhotoVideoURL, "\(mode)")
            #expect(info.keys.contains(.livePhoto))
            #expect(!isInside(motion, fixture.library.url))
            let delivered = try await MovieInfo(contentsOf: motion)
            if mode == .current {
                let same = try Data(contentsOf: motion) == Data(contentsOf: hevc)
                #expect(motion.lastPathComponent == "IMG_0077.mov" && same)
            } else {
                #expect(motion.pathExtension == "mp4" && delivered.videoCodec == "h264", "\(delivered.videoCodec)")
            }
        }
    }

    @Test func severalInOrderOrInTheGridsOrder() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        // Selected newest first; the grid (Recents) shows oldest first.
        let chosen = ["square.jpg", "landscape.jpg", "portrait.jpg"].map { fixture.ids[$0]! }
        for selection in [PickerConfiguration.Selection.ordered, .default] {
            let (picker, _) = fixture.picker { session in
                for id in chosen { try await session.select(id) }
                #expect(session.selection == chosen)
                try await session.confirm()
            }
            picker.configuration = PickerConfiguration(selectionLimit: 3, selection: selection)
            let result = try await picker.pick()
            defer { cleanUp(result) }
            let order = result.infos.map { $0.localIdentifier! }
            if selection == .ordered {
                #expect(order == chosen, "ordered: in the order selected")
            } else {
                #expect(order == ["landscape.jpg", "portrait.jpg", "square.jpg"].map { fixture.ids[$0]! }, "default: by creation date")
            }
        }
    }

    @Test func cancellingTellsTheDelegateAndLeavesNothing() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        final class Delegate: ImagePickerControllerDelegate, Sendable {
            let calls = EventRecorder<String>()
            func imagePickerControllerDidCancel(_ picker: ImagePickerController) async { calls.append("cancel") }
            func imagePickerController(_ picker: ImagePickerController, didFinishPickingMediaWithInfo info: ImagePickerController.Info) async {
                calls.append("pick")
            }
        }
        let delegate = Delegate()
        let landscape = fixture.ids["landscape.jpg"]!
        let (picker, _) = fixture.picker { session in
            try await session.select(landscape)
            await session.cancel()
        }
        picker.delegate = delegate
        let result = try await picker.pick()
        #expect(result.isCancelled && result.infos.isEmpty)
        let folder = try #require(picker.session?.folder)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
        #expect(await delegate.calls.first(1) == ["cancel"])
        #expect(delegate.calls.elements == ["cancel"], "told once, and of nothing picked")
        await #expect(throws: PickerError.self) { try await picker.session!.select(landscape) }
    }

    @Test func cropRectIsInOriginalPixelsAndTheEditIsBounded() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let wide = fixture.ids["wide.jpg"]!
        let landscape = fixture.ids["landscape.jpg"]!
        let (picker, _) = fixture.picker { session in
            try await session.select(wide)
            // Not square, outside, and on an unselected item: all refused.
            #expect(throws: PickerError.self) { try session.setCrop(PixelRect(x: 0, y: 0, width: 600, height: 500), for: wide) }
            #expect(throws: PickerError.self) { try session.setCrop(PixelRect(x: 2000, y: 0, width: 600, height: 600), for: wide) }
            #expect(throws: PickerError.self) { try session.setCrop(PixelRect(x: 0, y: 0, width: 10, height: 10), for: landscape) }
            try session.setCrop(PixelRect(x: 1200, y: 0, width: 600, height: 600), for: wide)
            try await session.confirm()
        }
        picker.allowsEditing = true
        try picker.setMaximumEditedImagePixelSize(256)
        let result = try await picker.pick()
        defer { cleanUp(result) }
        let info = try #require(result.infos.first)
        #expect(info.cropRect == PixelRect(x: 1200, y: 0, width: 600, height: 600))
        let edited = try #require(info.editedImage)
        #expect(edited.pixelSize == PixelSize(width: 256, height: 256), "600 px square scaled to the 256 px maximum")
        #expect(info.originalImage?.pixelSize == PixelSize(width: 2400, height: 600))
        // The edit is the crop: compare with cropping the original ourselves.
        let expected = try Image(contentsOf: try #require(info.imageURL)).croppingToSquare(info.cropRect!, maximumPixelSize: 256)
        #expect(try meanDifference(edited, expected) < 3)
        #expect(try Image(contentsOf: try #require(info.editedImageURL)).pixelSize == edited.pixelSize)
    }

    @Test func withoutACropTheEditIsTheCentredSquare() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let portrait = fixture.ids["portrait.jpg"]!
        let (picker, _) = fixture.picker { session in
            try await session.select(portrait)
            try await session.confirm()
        }
        picker.allowsEditing = true
        let result = try await picker.pick()
        defer { cleanUp(result) }
        let info = try #require(result.infos.first)
        #expect(info.cropRect == PixelRect(x: 0, y: 50, width: 300, height: 300))
        #expect(info.editedImage?.pixelSize == PixelSize(width: 300, height: 300), "smaller than the maximum: not enlarged")
    }

    @Test func trimmingIsBoundedAndTranscodedToTheQuality() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let clip = fixture.ids["clip.mp4"]!
        let (picker, _) = fixture.picker { session in
            try await session.select(clip)
            #expect(throws: PickerError.self) { try session.setTrim(0..<3, for: clip) }  // longer than 2 s
            #expect(throws: PickerError.self) { try session.setTrim(3..<5, for: clip) }  // past the end
            #expect(throws: PickerError.self) { try session.setTrim(2..<2, for: clip) }  // empty
            try session.setTrim(1..<2.5, for: clip)
            try await session.confirm()
        }
        try picker.setMediaTypes([.movie])
        picker.allowsEditing = true
        try picker.setVideoMaximumDuration(2)
        picker.videoQuality = .typeLow
        let result = try await picker.pick()
        defer { cleanUp(result) }
        let info = try #require(result.infos.first)
        let movie = try await MovieInfo(contentsOf: try #require(info.mediaURL))
        #expect(abs(movie.duration - 1.5) <= 1.0 / 30 + 0.03, "trimmed to 1.5 s, got \(movie.duration)")
        #expect(movie.pixelSize == VideoQuality.typeLow.outputSize(forDisplayed: PixelSize(width: 320, height: 240)))
        #expect(movie.videoCodec == "h264" && movie.container == "mp4")
    }

    @Test func aMovieLongerThanTheMaximumIsTrimmedEvenWithoutEditing() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let clip = fixture.ids["clip.mp4"]!
        let (picker, _) = fixture.picker { session in
            try await session.select(clip)
            try await session.confirm()
        }
        try picker.setMediaTypes([.movie])
        try picker.setVideoMaximumDuration(2.5)
        let result = try await picker.pick()
        defer { cleanUp(result) }
        let movie = try await MovieInfo(contentsOf: try #require(result.infos.first?.mediaURL))
        #expect(abs(movie.duration - 2.5) <= 0.07, "the first 2.5 s, got \(movie.duration)")
    }

    @Test func filtersMediaTypesAndLimits() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let ids = fixture.ids
        let (picker, presenter) = fixture.picker { session in
            // Images only: a movie is refused. The filter excludes screenshots.
            await #expect(throws: PickerError.self) { try await session.select(ids["clip.mp4"]!) }
            do {
                try await session.select(ids["screenshot.png"]!)
                Issue.record("a screenshot passed the filter")
            } catch let error as PickerError {
                #expect(error.code == .notAllowed)
            }
            try await session.select(ids["landscape.jpg"]!)
            await #expect(throws: PickerError.self) { try await session.confirm() }  // minimum 2
            try await session.select(ids["portrait.jpg"]!)
            do {
                try await session.select(ids["square.jpg"]!)
                Issue.record("a third item passed the limit of 2")
            } catch let error as PickerError {
                #expect(error.code == .selectionLimitReached)
            }
            try await session.deselect(ids["portrait.jpg"]!)
            try await session.select(ids["square.jpg"]!)
            try await session.confirm()
        }
        picker.configuration = PickerConfiguration(selectionLimit: 2, minimumSelectionCount: 2, filter: .not(.screenshots))
        let result = try await picker.pick()
        defer { cleanUp(result) }
        #expect(presenter.errors.isEmpty)
        #expect(Set(result.infos.compactMap(\.localIdentifier)) == [ids["landscape.jpg"]!, ids["square.jpg"]!])
    }

    @Test func aLimitOfOneReplacesTheChoice() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let ids = fixture.ids
        let (picker, _) = fixture.picker { session in
            try await session.select(ids["landscape.jpg"]!)
            try await session.select(ids["portrait.jpg"]!)
            #expect(session.selection == [ids["portrait.jpg"]!])
            try await session.confirm()
        }
        let result = try await picker.pick()
        defer { cleanUp(result) }
        #expect(result.infos.map(\.localIdentifier) == [ids["portrait.jpg"]!])
    }

    @Test func preselectionSkipsWhatTheConfigurationExcludes() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let ids = fixture.ids
        let (picker, _) = fixture.picker { session in
            #expect(session.selection == [ids["square.jpg"]!, ids["landscape.jpg"]!], "the movie is not an image; unknown ids vanish")
            try await session.confirm()
        }
        picker.configuration = PickerConfiguration(
            selectionLimit: 0, selection: .ordered,
            preselectedAssetIdentifiers: [ids["square.jpg"]!, ids["clip.mp4"]!, "NOPE/L0/001", ids["landscape.jpg"]!])
        let result = try await picker.pick()
        defer { cleanUp(result) }
        #expect(result.infos.map(\.localIdentifier) == [ids["square.jpg"]!, ids["landscape.jpg"]!])
    }

    @Test func compatibleRepresentationConvertsCopiesNotOriginals() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let heic = fixture.ids["photo.heic"]!
        let webm = fixture.ids["recording.webm"]!
        let (picker, _) = fixture.picker { session in
            try await session.select(heic)
            try await session.select(webm)
            try await session.confirm()
        }
        try picker.setMediaTypes([.image, .movie])
        picker.configuration = PickerConfiguration(selectionLimit: 0, preferredAssetRepresentationMode: .compatible)
        let result = try await picker.pick()
        defer { cleanUp(result) }
        let photo = try #require(result.infos.first { $0.mediaType == .image })
        #expect(photo.uniformTypeIdentifier == "public.jpeg" && photo.imageURL?.pathExtension == "jpg")
        #expect(try Image(contentsOf: try #require(photo.imageURL)).format == .jpeg)
        #expect(photo.originalImage?.pixelSize == PixelSize(width: 320, height: 240))
        let movie = try #require(result.infos.first { $0.mediaType == .movie })
        let info = try await MovieInfo(contentsOf: try #require(movie.mediaURL))
        #expect(info.container == "mp4" && info.videoCodec == "h264")
        // The library still holds the HEIC and the WebM.
        #expect(try await fixture.asset("photo.heic").uniformTypeIdentifier == "public.heic")
        await #expect(try Image(contentsOf: fixture.library.originalURL(for: fixture.asset("photo.heic"))).format == .heic)
        #expect(try await fixture.asset("recording.webm").uniformTypeIdentifier == "org.webmproject.webm")

        // `.current` hands the stored HEIC over as it is.
        let (current, _) = fixture.picker { session in
            try await session.select(heic)
            try await session.confirm()
        }
        current.configuration = PickerConfiguration(preferredAssetRepresentationMode: .current)
        let stored = try await current.pick()
        defer { cleanUp(stored) }
        #expect(stored.infos.first?.imageURL?.pathExtension == "heic")
    }

    @Test("A picked raw is handed over under its own type, or developed to JPEG for .compatible")
    func pickingARawKeepsItsType() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let url = fixture.folder.appendingPathComponent("DSC_0007.ARW")
        try SyntheticRaw(kind: .arw).write(to: url)
        let imported = try await fixture.library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url) }
        let id = imported.created[0].localIdentifier
        for mode in [PickerConfiguration.AssetRepresentationMode.current, .compatible] {
            let (picker, _) = fixture.picker { session in
                try await session.select(id)
                try await session.confirm()
            }
            picker.configuration = PickerConfiguration(preferredAssetRepresentationMode: mode)
            let result = try await picker.pick()
            defer { cleanUp(result) }
            let info = try #require(result.infos.first)
            let file = try #require(info.imageURL)
            #expect(info.originalImage?.pixelSize == PixelSize(width: 600, height: 400))
            if mode == .current {
                #expect(file.lastPathComponent == "DSC_0007.arw" && info.uniformTypeIdentifier == "com.sony.arw-raw-image")
                #expect(try Data(contentsOf: file) == Data(contentsOf: url))
            } else {
                #expect(file.lastPathComponent == "DSC_0007.jpg" && info.uniformTypeIdentifier == "public.jpeg")
                #expect(try Image(contentsOf: file).pixelSize == PixelSize(width: 600, height: 400))
            }
        }
    }

    @Test func continuousSelectionDeliversEachChange() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        final class Delegate: ImagePickerControllerDelegate, Sendable {
            let deliveries = EventRecorder<[String]>()
            func imagePickerController(_ picker: ImagePickerController, didFinishPicking infos: [ImagePickerController.Info]) async {
                deliveries.append(infos.compactMap(\.localIdentifier))
            }
        }
        let ids = fixture.ids
        let delegate = Delegate()
        let (picker, _) = fixture.picker { session in
            try await session.select(ids["landscape.jpg"]!)
            try await session.select(ids["square.jpg"]!)
            try await session.deselect(ids["landscape.jpg"]!)
            #expect(await delegate.deliveries.waitFor(3), "each change reached the delegate before the picker was dismissed")
            await session.dismiss()
        }
        picker.delegate = delegate
        picker.configuration = PickerConfiguration(selectionLimit: 0, selection: .continuous)
        let result = try await picker.pick()
        defer { cleanUp(result) }
        #expect(result.infos.map(\.localIdentifier) == [ids["square.jpg"]!])
        let seen = await delegate.deliveries.first(4)
        #expect(seen.prefix(3).map { Set($0) } == [[ids["landscape.jpg"]!], [ids["landscape.jpg"]!, ids["square.jpg"]!], [ids["square.jpg"]!]])
    }

    @Test func savedPhotosAlbumOffersRecentsOnly() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        // What the page offered, taken out of the presenter and checked after the pick.
        let offered = Mutex<[String]?>(nil)
        let (picker, _) = fixture.picker { session in
            let albums = try await session.selector?.albums() ?? []
            offered.withLock { $0 = albums.map(\.title) }
            await session.cancel()
        }
        try picker.setSourceType(.savedPhotosAlbum)
        let result = try await picker.pick()
        #expect(result.isCancelled)
        #expect(offered.withLock { $0 } == ["Recents"])
    }

    @Test func picksAreInTheClientsPrivacyReport() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let authorization = Authorization(library: fixture.library)
        try await authorization.register(ClientManifest(identifier: "com.example.booth", displayName: "Booth"))
        let client = try await PhotoLibrary.open(at: fixture.library.url, clientIdentifier: "com.example.booth")
        await #expect(throws: LibraryError.self) { try await client.fetchAssets() }  // no library grant…
        let square = fixture.ids["square.jpg"]!
        let presenter = ScriptedPresenter { session in
            try await session.select(square)
            try await session.confirm()
        }
        let picker = ImagePickerController(library: client, presenter: presenter, authorization: authorization)
        let result = try await picker.pick()  // …yet the picker works: the user picks.
        defer { cleanUp(result) }
        #expect(result.infos.map(\.localIdentifier) == [square])
        let log = try await authorization.accessLog(client: "com.example.booth")
        #expect(log.contains { $0.action == "picked" && $0.localIdentifier == square })
        #expect(!log.contains { $0.localIdentifier == fixture.ids["landscape.jpg"]! }, "nothing else reached the client")
    }
}

/// Mean absolute difference of two same-size images' pixels (0…255).
func meanDifference(_ left: Image, _ right: Image) throws -> Double {
    let a = try left.bitmap()
    let b = try right.bitmap()
    guard a.width == b.width, a.height == b.height, a.channels == b.channels else { return 255 }
    var total = 0
    for index in 0..<a.bytes.count { total += abs(Int(a.bytes[index]) - Int(b.bytes[index])) }
    return Double(total) / Double(a.bytes.count)
}
