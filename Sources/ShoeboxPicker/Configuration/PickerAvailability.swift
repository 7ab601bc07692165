import Foundation
import ShoeboxCapture
import ShoeboxLibrary

/// What this environment offers the picker: a library, the cameras on this machine, and the
/// presenter's own camera. `UIImagePickerController` asks the device with class methods; Shoebox
/// asks this value, because the answer depends on the library and presenter in use.
///
/// A capture device whose position is `back` — or, when there is none, one whose position is
/// unspecified (a USB webcam) — is the `.rear` camera; one whose position is `front` is the
/// `.front` camera.
public struct PickerAvailability: Sendable, Hashable {
    /// A camera the picker can use.
    public struct Camera: Sendable, Hashable {
        /// Whether the camera has a flash (the torch, for movies); the `.on` flash mode needs one.
        public var hasFlash: Bool
        /// What the camera can capture: photos, movies, or both.
        public var captureModes: [ImagePickerController.CameraCaptureMode]

        /// A camera with or without a flash, taking photos and movies unless `captureModes` says
        /// otherwise.
        public init(hasFlash: Bool, captureModes: [ImagePickerController.CameraCaptureMode] = [.photo, .video]) {
            self.hasFlash = hasFlash
            self.captureModes = captureModes
        }
    }

    /// Whether a library is open (the library sources need one).
    public var hasLibrary: Bool
    /// Capture devices on this machine, by picker camera.
    public var captureDevices: [ImagePickerController.CameraDevice: Camera]
    /// The presenter's own cameras (the browser's), by picker camera.
    public var presenterCameras: [ImagePickerController.CameraDevice: Camera]

    /// An environment with or without a library, and these cameras (none by default).
    public init(
        hasLibrary: Bool, captureDevices: [ImagePickerController.CameraDevice: Camera] = [:],
        presenterCameras: [ImagePickerController.CameraDevice: Camera] = [:]
    ) {
        self.hasLibrary = hasLibrary
        self.captureDevices = captureDevices
        self.presenterCameras = presenterCameras
    }

    /// The environment of a picker on `library` shown by `presenter`, with the capture devices
    /// discovered now.
    public static func current(library: PhotoLibrary?, presenter: (any PickerPresenter)?) -> PickerAvailability {
        PickerAvailability(
            hasLibrary: library != nil, captureDevices: discoveredCameras(),
            presenterCameras: presenter?.cameras ?? [:])
    }

    /// The capture devices on this machine that can be used now, by picker camera: a camera
    /// another session or program holds (`isInUseByAnotherApplication`) is not offered, so a
    /// picker on it fails at once with `cameraUnavailable` instead of waiting for frames.
    public static func discoveredCameras() -> [ImagePickerController.CameraDevice: Camera] {
        captureDevices().filter { !$0.value.isInUseByAnotherApplication }.mapValues { Camera(hasFlash: $0.hasFlash) }
    }

    /// The capture device that serves as `device`, if any.
    public static func captureDevice(for device: ImagePickerController.CameraDevice) -> CaptureDevice? {
        captureDevices()[device]
    }

    /// The environment of a picker, as ``current(library:presenter:)``, from a current listing of
    /// the machine's devices (discovered on the blocking pool when a device node came or went).
    public static func current(library: PhotoLibrary?, presenter: (any PickerPresenter)?) async -> PickerAvailability {
        PickerAvailability(
            hasLibrary: library != nil, captureDevices: await discoveredCameras(),
            presenterCameras: presenter?.cameras ?? [:])
    }

    /// The capture devices that can be used now, as ``discoveredCameras()``, from a current listing.
    public static func discoveredCameras() async -> [ImagePickerController.CameraDevice: Camera] {
        await captureDevices().filter { !$0.value.isInUseByAnotherApplication }.mapValues { Camera(hasFlash: $0.hasFlash) }
    }

    /// The capture device that serves as `device`, as ``captureDevice(for:)``, from a current listing.
    public static func captureDevice(for device: ImagePickerController.CameraDevice) async -> CaptureDevice? {
        await captureDevices()[device]
    }

    /// The capture device that serves as each picker camera, from one discovery: the rear camera
    /// is a back-facing device, else one that faces no known way; the front camera a front-facing
    /// one. Synchronous callers get the last listing of the machine's devices.
    package static func captureDevices() -> [ImagePickerController.CameraDevice: CaptureDevice] {
        pickerCameras(among: cameraSearch.devices)
    }

    /// ``captureDevices()`` from a current listing, awaited without holding a thread.
    package static func captureDevices() async -> [ImagePickerController.CameraDevice: CaptureDevice] {
        pickerCameras(among: await cameraSearch.currentDevices)
    }

    private static let cameraSearch = CaptureDevice.DiscoverySession(
        deviceTypes: [.builtInWideAngleCamera, .external], mediaType: .video, position: .unspecified)

    private static func pickerCameras(among all: [CaptureDevice]) -> [ImagePickerController.CameraDevice: CaptureDevice] {
        var devices: [ImagePickerController.CameraDevice: CaptureDevice] = [:]
        devices[.rear] = all.first { $0.position == .back } ?? all.first { $0.position == .unspecified }
        devices[.front] = all.first { $0.position == .front }
        return devices
    }

    /// Whether `sourceType` can be used (`UIImagePickerController.isSourceTypeAvailable(_:)`): the
    /// library sources need a library, the camera a capture device or a presenter camera.
    public func isSourceTypeAvailable(_ sourceType: ImagePickerController.SourceType) -> Bool {
        switch sourceType {
        case .photoLibrary, .savedPhotosAlbum: hasLibrary
        case .camera: !captureDevices.isEmpty || !presenterCameras.isEmpty
        }
    }

    /// Why `sourceType` is not available (for error messages).
    func reasonUnavailable(_ sourceType: ImagePickerController.SourceType) -> String {
        switch sourceType {
        case .photoLibrary, .savedPhotosAlbum: "no library is open"
        case .camera:
            "no capture device on this machine is free (another app or program is using it, or there is none: try SHOEBOX_SYNTHETIC_CAMERA=1) and the presenter offers no camera (the user's browser last reported no camera: open a page of the web app in a browser that has one)"
        }
    }

    /// The media types `sourceType` offers, empty when it is not available.
    public func availableMediaTypes(for sourceType: ImagePickerController.SourceType) -> [ImagePickerController.MediaType] {
        guard isSourceTypeAvailable(sourceType) else { return [] }
        switch sourceType {
        case .photoLibrary, .savedPhotosAlbum:
            return [.image, .movie]
        case .camera:
            let modes = Set((captureDevices.values.flatMap(\.captureModes)) + presenterCameras.values.flatMap(\.captureModes))
            return (modes.contains(.photo) ? [.image] : []) + (modes.contains(.video) ? [.movie] : [])
        }
    }

    /// Whether the rear or front camera exists, on this machine or in the presenter
    /// (`UIImagePickerController.isCameraDeviceAvailable(_:)`).
    public func isCameraDeviceAvailable(_ device: ImagePickerController.CameraDevice) -> Bool {
        captureDevices[device] != nil || presenterCameras[device] != nil
    }

    /// What `device` can capture, its capture device's and the presenter camera's modes together,
    /// photo first; empty when there is no such camera.
    public func availableCaptureModes(for device: ImagePickerController.CameraDevice) -> [ImagePickerController.CameraCaptureMode] {
        let modes = Set((captureDevices[device]?.captureModes ?? []) + (presenterCameras[device]?.captureModes ?? []))
        return ImagePickerController.CameraCaptureMode.allCases.filter(modes.contains)
    }

    /// Whether `device` has a flash, on this machine's capture device or the presenter's camera
    /// (`UIImagePickerController.isFlashAvailable(for:)`).
    public func isFlashAvailable(for device: ImagePickerController.CameraDevice) -> Bool {
        captureDevices[device]?.hasFlash == true || presenterCameras[device]?.hasFlash == true
    }
}
