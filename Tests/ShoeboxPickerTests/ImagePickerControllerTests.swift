import Foundation
import ShoeboxCapture
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxMedia
import Testing

@testable import ShoeboxPicker

@Suite struct ImagePickerControllerTests {
    /// The info's JSON is ``PickerInfoJSON``: what the server encodes, a client decodes whole.
    @Test func anInfoEncodesAsTheWireTypeAndDecodesBack() throws {
        var info = ImagePickerController.Info(mediaType: .image)
        info.imageURL = URL(fileURLWithPath: "/tmp/picked/IMG_0001.jpg")
        info.editedImageURL = URL(fileURLWithPath: "/tmp/picked/IMG_0001-edited.jpg")
        info.cropRect = PixelRect(x: 10, y: 0, width: 300, height: 300)
        info.uniformTypeIdentifier = "public.jpeg"
        var metadata = ImageMetadata()
        metadata.make = "Shoebox"
        metadata.flashFired = true
        info.mediaMetadata = metadata
        let data = try JSONEncoder().encode(info)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["originalImage"] as? String == "/tmp/picked/IMG_0001.jpg" && object["imageURL"] as? String == "/tmp/picked/IMG_0001.jpg")
        #expect(object["editedImage"] as? String == "/tmp/picked/IMG_0001-edited.jpg")
        #expect((object["cropRect"] as? [String: Int]) == ["x": 10, "y": 0, "width": 300, "height": 300])
        #expect(object["mediaURL"] == nil && object["localIdentifier"] == nil, "absent values are left out")
        let decoded = try JSONDecoder().decode(PickerInfoJSON.self, from: data)
        #expect(decoded == PickerInfoJSON(info))
        #expect(decoded.mediaMetadata?.make == "Shoebox" && decoded.mediaMetadata?.flashFired == true)
        #expect(decoded.preferredPath == "/tmp/picked/IMG_0001-edited.jpg")
    }

    /// Two `present()` calls at once present one picker; the other is told it is presented.
    @Test func presentingTwiceAtOncePresentsOnePicker() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let (picker, _) = fixture.picker { _ in }  // the user does nothing yet
        let outcomes = await withTaskGroup(of: Result<PickerSession, PickerError>.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    do { return .success(try await picker.present()) } catch let error as PickerError { return .failure(error) } catch {
                        return .failure(PickerError(.invalidState, "\(error)"))
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let presented = outcomes.compactMap { try? $0.get() }
        #expect(presented.count == 1, "one session for one picker, not \(presented.count)")
        for case .failure(let error) in outcomes { #expect(error.code == .invalidState && error.message.contains("presented already")) }
        await picker.dismiss()
        #expect(presented.first?.isFinished == true)
        // Dismissed: it presents again.
        let again = try await picker.present()
        #expect(again.id != presented.first?.id)
        await picker.dismiss()
    }

    @Test func mediaTypesFollowTheSeedsRule() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let (picker, _) = fixture.picker { await $0.cancel() }
        #expect(picker.mediaTypes == [.image], "images only by default")
        #expect(picker.availableMediaTypes(for: .photoLibrary) == [.image, .movie])
        do {
            try picker.setMediaTypes([])
            Issue.record("empty media types were accepted")
        } catch {
            #expect(error.code == .invalidMediaTypes && error.message.contains("must not be empty"))
        }
        try picker.setMediaTypes([.movie, .image])
        #expect(picker.mediaTypes == [.movie, .image])
    }

    /// A whole request (what `shoebox pick` builds, what a client sends) is checked as a server
    /// checks it, and a refused one leaves the configuration as it was.
    @Test func aWholeRequestIsCheckedThenTaken() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let (picker, _) = fixture.picker(cameras: [.front: PickerAvailability.Camera(hasFlash: false)]) { await $0.cancel() }
        var request = PickerRequest()
        request.mediaTypes = [.image, .movie]
        request.allowsEditing = true
        request.videoMaximumDuration = 30
        request.configuration = PickerConfiguration(selectionLimit: 3, selection: .ordered)
        request.clientIdentifier = "com.example.pretender"
        try picker.setRequest(request)
        #expect(picker.mediaTypes == [.image, .movie] && picker.allowsEditing && picker.videoMaximumDuration == 30)
        #expect(picker.configuration.selectionLimit == 3 && picker.configuration.selection == .ordered)
        #expect(picker.request.clientIdentifier == picker.clientIdentifier, "a request cannot name another client")

        // Movies from the (presenter's front) camera without public.movie among the media types:
        // refused, naming the rule; nothing changed. (Not a missing camera: other suites may
        // turn the synthetic cameras on meanwhile.)
        var camera = request
        camera.sourceType = .camera
        camera.mediaTypes = [.image]
        camera.camera.device = .front
        camera.camera.captureMode = .video
        do {
            try picker.setRequest(camera)
            Issue.record("a request for movies without public.movie was taken")
        } catch {
            #expect(error.code == .invalidMediaTypes && error.message.contains("needs public.movie"), "\(error.message)")
        }
        var tooLong = request
        tooLong.videoMaximumDuration = -1
        #expect(throws: PickerError.self) { try picker.setRequest(tooLong) }
        #expect(picker.sourceType == .photoLibrary && picker.videoMaximumDuration == 30)
    }

    @Test func withoutALibraryTheLibrarySourcesAreUnavailable() async throws {
        let picker = ImagePickerController(library: nil, presenter: ScriptedPresenter { await $0.cancel() })
        #expect(!picker.isSourceTypeAvailable(.photoLibrary) && !picker.isSourceTypeAvailable(.savedPhotosAlbum))
        #expect(picker.availableMediaTypes(for: .photoLibrary) == nil)
        do {
            try picker.setSourceType(.savedPhotosAlbum)
            Issue.record("an unavailable source was accepted")
        } catch {
            #expect(error.code == .sourceTypeUnavailable && error.message.contains("no library"))
        }
        do {
            _ = try await picker.pick()  // the default source, the library, is missing
            Issue.record("a picker without a library was presented")
        } catch {
            #expect(error.code == .sourceTypeUnavailable)
        }
    }

    @Test func cameraOptionsNeedTheCameraSource() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let (picker, _) = fixture.picker { await $0.cancel() }
        let attempts: [(String, () throws -> Void)] = [
            ("cameraDevice", { try picker.setCameraDevice(.front) }), ("cameraCaptureMode", { try picker.setCameraCaptureMode(.video) }),
            ("cameraFlashMode", { try picker.setCameraFlashMode(.on) }), ("showsCameraControls", { try picker.setShowsCameraControls(false) }),
            ("cameraOverlay", { try picker.setCameraOverlay("<p>hi</p>") }), ("cameraViewTransform", { try picker.setCameraViewTransform(.scale(2)) }),
        ]
        for (name, attempt) in attempts {
            do {
                try attempt()
                Issue.record("\(name) was set on a library picker")
            } catch let error as PickerError {
                #expect(error.code == .cameraUnavailable && error.message.contains("\(name) applies to the camera, and the source type is photoLibrary"))
            }
        }
        #expect(throws: PickerError.self) { try picker.setVideoMaximumDuration(0) }
        #expect(throws: PickerError.self) { try picker.setVideoMaximumDuration(.infinity) }
        #expect(throws: PickerError.self) { try picker.setMaximumEditedImagePixelSize(8) }
        var bad = PickerConfiguration(selectionLimit: 2, minimumSelectionCount: 3)
        #expect(throws: PickerError.self) { try bad.validate() }
        bad = PickerConfiguration(filter: .all(of: [.images, .maximumDuration(-1)]))
        #expect(throws: PickerError.self) { try bad.validate() }
    }

    @Test func requestsDecodeFromPartialJSON() throws {
        let json =
            #"{"sourceType": "camera", "mediaTypes": ["public.movie"], "configuration": {"selectionLimit": 0, "filter": {"all": ["images", {"not": "screenshots"}, {"maximumDuration": 30}]}}, "camera": {"device": "front"}}"#
        let request = try JSONDecoder().decode(PickerRequest.self, from: Data(json.utf8))
        #expect(request.sourceType == .camera && request.mediaTypes == [.movie] && request.camera.device == .front)
        #expect(request.configuration.selectionLimit == 0 && request.configuration.filter == .all(of: [.images, .not(.screenshots), .maximumDuration(30)]))
        #expect(request.videoMaximumDuration == 600 && request.videoQuality == .typeMedium && !request.allowsEditing)
    }

    @Test("A request with PHPicker's configuration behaves as PHPicker; one without, and a round trip, keep theirs")
    func requestsSayWhichPickerTheyAre() throws {
        let decode = { (json: String) in try JSONDecoder().decode(PickerRequest.self, from: Data(json.utf8)) }
        #expect(try decode(#"{"mediaTypes": ["public.movie"]}"#).interface == .imagePicker)
        #expect(try decode(#"{"configuration": {"selectionLimit": 1}}"#).interface == .phPicker)
        #expect(try decode(#"{"interface": "imagePicker", "configuration": {"selectionLimit": 1}}"#).interface == .imagePicker)
        var request = PickerRequest()
        request.configuration.selectionLimit = 2  // as `shoebox pick` fills it: still UIImagePickerController
        let again = try JSONDecoder().decode(PickerRequest.self, from: JSONEncoder().encode(request))
        #expect(again.interface == .imagePicker && again.configuration.selectionLimit == 2)
        #expect(throws: DecodingError.self) { try decode(#"{"interface": "uikit"}"#) }
        let picker = ImagePickerController(library: nil, presenter: ScriptedPresenter { _ in })
        #expect(picker.request.interface == .imagePicker)
        picker.configuration = PickerConfiguration(selectionLimit: 1)
        #expect(picker.request.interface == .phPicker)
    }

    @Test func filtersMatchWhatTheCatalogSelects() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let filters: [PickerFilter] = [
            .images, .videos, .screenshots, .panoramas, .fileFormats(["public.png", "public.heic"]),
            .maximumFileSize(20_000), .maximumDuration(3), .not(.images), .any(of: [.panoramas, .videos]),
            .all(of: [.images, .not(.screenshots), .maximumFileSize(1_000_000)]),
        ]
        let everything = try await fixture.library.fetchAssets().allObjects()
        for filter in filters {
            let byCatalog = try await fixture.library.fetchAssets(with: FetchOptions(predicate: filter.predicate)).allObjects().map(\.localIdentifier)
            let byFilter = everything.filter(filter.matches).map(\.localIdentifier)
            #expect(byCatalog == byFilter, "\(filter)")
        }
        await #expect(
            try fixture.library.fetchAssets(with: FetchOptions(predicate: PickerFilter.panoramas.predicate)).allObjects().map(\.localIdentifier) == [
                fixture.ids["wide.jpg"]!
            ])
        await #expect(
            try fixture.library.fetchAssets(with: FetchOptions(predicate: PickerFilter.maximumDuration(3).predicate)).count == 7, "six photos and the 2 s WebM")
    }
}
