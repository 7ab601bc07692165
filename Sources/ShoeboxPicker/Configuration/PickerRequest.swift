import Foundation
import ShoeboxImaging
import ShoeboxMedia

/// Everything one presentation of the picker needs to know: what ``ImagePickerController``'s
/// properties say, as a value. The HTTP API takes it as JSON to create a picker session.
///
/// ```json
/// {"sourceType": "photoLibrary", "mediaTypes": ["public.image", "public.movie"],
///  "allowsEditing": true, "configuration": {"selectionLimit": 3, "selection": "ordered"}}
/// ```
///
/// Every key is optional in JSON; missing ones take the defaults below.
public struct PickerRequest: Sendable, Hashable, Codable {
    /// Where the picker gets media (``ImagePickerController/SourceType``).
    public typealias SourceType = ImagePickerController.SourceType
    /// A kind of media, by Uniform Type Identifier (``ImagePickerController/MediaType``).
    public typealias MediaType = ImagePickerController.MediaType

    /// The camera's settings, used when ``sourceType`` is `.camera`.
    public struct Camera: Sendable, Hashable, Codable {
        /// The camera that opens (`cameraDevice`); default `.rear`.
        public var device: ImagePickerController.CameraDevice = .rear
        /// Photos or movies (`cameraCaptureMode`); default `.photo`.
        public var captureMode: ImagePickerController.CameraCaptureMode = .photo
        /// The flash, or the torch for movies (`cameraFlashMode`); default `.auto`.
        public var flashMode: ImagePickerController.CameraFlashMode = .auto
        /// Where pictures come from; default `.automatic`: the presenter's camera when it offers this
        /// one, else a capture device on this machine.
        public var source: ImagePickerController.CameraSource = .automatic
        /// Standard controls (shutter, Retake / Use Photo review). Without them the client drives
        /// the camera with `takePicture()` and may take several pictures.
        public var showsControls = true
        /// Web content drawn over the live preview (HTML without scripts). Elements with
        /// `data-picker-action="takePicture|startVideoCapture|stopVideoCapture|cancel|done"`
        /// trigger those actions.
        public var overlay: String?
        /// The live preview's transform (`cameraViewTransform`); default the identity.
        public var viewTransform: ImagePickerController.ViewTransform = .identity
        /// The largest photo the camera takes (as `AVCapturePhotoOutput.maxPhotoDimensions`):
        /// `nil`, the default, takes photos at the camera's largest still size (3840 × 2160 on a
        /// 4K camera) while the preview streams at up to 1920 × 1080; a size picks the largest
        /// of the camera's 4K, 1080p, 720p and VGA formats that fits inside it (either way
        /// round), else 480 × 360.
        public var maxPhotoDimensions: PixelSize?

        /// The default camera: rear, photos, automatic flash and source, standard controls, no
        /// overlay, an untransformed preview and photos at the camera's largest still size.
        public init() {}

        /// Decodes JSON in which every key is optional.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init()
            device = try container.decodeIfPresent(ImagePickerController.CameraDevice.self, forKey: .device) ?? device
            captureMode = try container.decodeIfPresent(ImagePickerController.CameraCaptureMode.self, forKey: .captureMode) ?? captureMode
            flashMode = try container.decodeIfPresent(ImagePickerController.CameraFlashMode.self, forKey: .flashMode) ?? flashMode
            source = try container.decodeIfPresent(ImagePickerController.CameraSource.self, forKey: .source) ?? source
            showsControls = try container.decodeIfPresent(Bool.self, forKey: .showsControls) ?? showsControls
            overlay = try container.decodeIfPresent(String.self, forKey: .overlay)
            viewTransform = try container.decodeIfPresent(ImagePickerController.ViewTransform.self, forKey: .viewTransform) ?? viewTransform
            maxPhotoDimensions = try container.decodeIfPresent(PixelSize.self, forKey: .maxPhotoDimensions)
        }
    }

    /// Which Apple picker the page behaves as, where the two differ: what a click on a movie does
    /// when one item is asked for without editing.
    public enum Interface: String, Sendable, Hashable, Codable, CaseIterable {
        /// `UIImagePickerController`: a still is picked by its click, a movie opens its preview
        /// with Play, Cancel and Choose, and only Choose picks it.
        case imagePicker
        /// `PHPickerViewController`: a click picks a still or a movie alike.
        case phPicker
    }

    /// Which Apple picker the page behaves as (``Interface``); default `.imagePicker`. In JSON,
    /// a request without `interface` that carries a `configuration` is a PHPicker's (`.phPicker`);
    /// setting ``ImagePickerController/configuration`` makes it one too.
    public var interface: Interface = .imagePicker
    /// Where the picker gets media (`sourceType`); default `.photoLibrary`.
    public var sourceType: SourceType = .photoLibrary
    /// Default: images only (as `UIImagePickerController`).
    public var mediaTypes: [MediaType] = [.image]
    /// Whether the user crops photos to a square and trims movies before choosing
    /// (`allowsEditing`); default `false`.
    public var allowsEditing = false
    /// How many items, which ones, in what order and in which representation (PHPicker's
    /// configuration); default a single pick.
    public var configuration = PickerConfiguration()
    /// The camera's settings, used when ``sourceType`` is `.camera`.
    public var camera = Camera()
    /// Movies picked with editing, and recorded movies, are transcoded to this preset.
    public var videoQuality: VideoQuality = .typeMedium
    /// The longest movie the picker delivers, in seconds (default 600, the seeds' ten minutes).
    public var videoMaximumDuration: Double = 600
    /// The largest side of an edited (square-cropped) image, in pixels.
    public var maximumEditedImagePixelSize: Int = ImagePickerController.defaultMaximumEditedImagePixelSize
    /// Whether camera captures are also saved to the library.
    public var savesCapturedMedia = false
    /// The client asking, shown to the user ("Booth wants a photo").
    public var clientIdentifier: String?
    /// The client's name as the picker shows it; `nil` shows ``clientIdentifier``.
    /// ``ImagePickerController/present()`` fills it from the client's manifest when it can.
    public var clientDisplayName: String?

    /// A request with every default: the whole library, images only, no editing, a single pick.
    public init() {}

    /// Decodes JSON in which every key is optional (missing ones take the defaults); the values
    /// are checked by ``validate(in:)``, not here.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var request = PickerRequest()
        request.sourceType = try container.decodeIfPresent(SourceType.self, forKey: .sourceType) ?? request.sourceType
        request.mediaTypes = try container.decodeIfPresent([MediaType].self, forKey: .mediaTypes) ?? request.mediaTypes
        request.allowsEditing = try container.decodeIfPresent(Bool.self, forKey: .allowsEditing) ?? request.allowsEditing
        request.configuration = try container.decodeIfPresent(PickerConfiguration.self, forKey: .configuration) ?? request.configuration
        request.interface =
            try container.decodeIfPresent(Interface.self, forKey: .interface)
            ?? (container.contains(.configuration) ? .phPicker : .imagePicker)
        request.camera = try container.decodeIfPresent(Camera.self, forKey: .camera) ?? request.camera
        request.videoQuality = try container.decodeIfPresent(VideoQuality.self, forKey: .videoQuality) ?? request.videoQuality
        request.videoMaximumDuration = try container.decodeIfPresent(Double.self, forKey: .videoMaximumDuration) ?? request.videoMaximumDuration
        request.maximumEditedImagePixelSize =
            try container.decodeIfPresent(Int.self, forKey: .maximumEditedImagePixelSize)
            ?? request.maximumEditedImagePixelSize
        request.savesCapturedMedia = try container.decodeIfPresent(Bool.self, forKey: .savesCapturedMedia) ?? request.savesCapturedMedia
        request.clientIdentifier = try container.decodeIfPresent(String.self, forKey: .clientIdentifier)
        request.clientDisplayName = try container.decodeIfPresent(String.self, forKey: .clientDisplayName)
        self = request
    }

    /// Checks the request against what this environment offers, as `UIImagePickerController`
    /// does when it is presented.
    ///
    /// - Throws: ``PickerError/Code/sourceTypeUnavailable`` for a source the environment lacks;
    ///   ``PickerError/Code/invalidMediaTypes`` for empty media types or types the source lacks;
    ///   ``PickerError/Code/cameraUnavailable`` for a camera device or capture mode that does not
    ///   exist; ``PickerError/Code/invalidArgument`` for numbers out of range.
    public func validate(in availability: PickerAvailability) throws(PickerError) {
        guard availability.isSourceTypeAvailable(sourceType) else {
            throw PickerError(.sourceTypeUnavailable, "source type \(sourceType.rawValue) is not available: \(availability.reasonUnavailable(sourceType))")
        }
        try Self.validate(mediaTypes: mediaTypes, for: sourceType, in: availability)
        try configuration.validate()
        guard videoMaximumDuration.isFinite, videoMaximumDuration > 0 else {
            throw PickerError(.invalidArgument, "videoMaximumDuration must be a positive number of seconds, not \(videoMaximumDuration)")
        }
        guard maximumEditedImagePixelSize >= ImagePickerController.minimumEditedImagePixelSize else {
            throw PickerError(
                .sizeTooSmall,
                "maximumEditedImagePixelSize \(maximumEditedImagePixelSize) is below the minimum of \(ImagePickerController.minimumEditedImagePixelSize) pixels"
            )
        }
        if sourceType == .camera {
            guard availability.isCameraDeviceAvailable(camera.device) else {
                throw PickerError(.cameraUnavailable, "there is no \(camera.device.rawValue) camera")
            }
            let modes = availability.availableCaptureModes(for: camera.device)
            guard modes.contains(camera.captureMode) else {
                throw PickerError(.cameraUnavailable, "the \(camera.device.rawValue) camera cannot capture \(camera.captureMode.rawValue)")
            }
            let wanted: MediaType = camera.captureMode == .photo ? .image : .movie
            guard mediaTypes.contains(wanted) else {
                throw PickerError(.invalidMediaTypes, "capture mode \(camera.captureMode.rawValue) needs \(wanted.rawValue) in mediaTypes")
            }
            guard camera.viewTransform.isFinite else {
                throw PickerError(.invalidArgument, "cameraViewTransform must be finite")
            }
            if let size = camera.maxPhotoDimensions, !size.isPositive {
                throw PickerError(.invalidArgument, "camera.maxPhotoDimensions \(size) must be positive on both sides")
            }
        }
    }

    /// The seeds' rule: `mediaTypes` must not be empty and must only name types the source has.
    static func validate(mediaTypes: [MediaType], for sourceType: SourceType, in availability: PickerAvailability) throws(PickerError) {
        guard !mediaTypes.isEmpty else {
            throw PickerError(
                .invalidMediaTypes,
                "mediaTypes must not be empty; \(sourceType.rawValue) offers \(availability.availableMediaTypes(for: sourceType).map(\.rawValue))")
        }
        let offered = availability.availableMediaTypes(for: sourceType)
        if let missing = mediaTypes.first(where: { !offered.contains($0) }) {
            throw PickerError(.invalidMediaTypes, "\(missing.rawValue) is not available from \(sourceType.rawValue), which offers \(offered.map(\.rawValue))")
        }
    }
}
