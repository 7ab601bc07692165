import Foundation
import ShoeboxImaging
import Synchronization

/// How to take one photo (`AVCapturePhotoSettings`).
public struct PhotoSettings: Sendable, Hashable {
    /// Where a photo was taken, as a caller knows it (Core Location's role): written into the
    /// photo's EXIF GPS.
    public struct Location: Sendable, Hashable {
        /// Degrees north, −90…90.
        public var latitude: Double
        /// Degrees east, −180…180.
        public var longitude: Double
        /// Metres above sea level (a height below sea level is not written: see
        /// `Image.writingMetadata(_:)`).
        public var altitude: Double?

        public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
        }
    }

    public var flashMode: CaptureDevice.FlashMode
    /// `.jpeg` (default) or `.heic` where this libvips can write it.
    public var format: ImageFormat
    /// Encoder quality, 0…1.
    public var quality: Double
    /// Where the photo is taken, written into its EXIF (`nil`: no place, the default).
    public var location: Location?

    public init(flashMode: CaptureDevice.FlashMode = .off, format: ImageFormat = .jpeg, quality: Double = 0.9, location: Location? = nil) {
        self.flashMode = flashMode
        self.format = format
        self.quality = quality
        self.location = location
    }
}

/// What a capture turned out to be (`AVCaptureResolvedPhotoSettings`).
public struct ResolvedPhotoSettings: Sendable, Hashable {
    public let uniqueID: Int64
    public let flashFired: Bool
    public let photoDimensions: PixelSize
    public let format: ImageFormat
}

/// A captured photo (`AVCapturePhoto`).
public struct CapturePhoto: Sendable {
    public let resolvedSettings: ResolvedPhotoSettings
    /// The EXIF written into the file.
    public let metadata: ImageMetadata
    /// Seconds since the session started.
    public let timestamp: Double
    /// The upright pixels.
    public let image: Image
    private let data: Data

    init(resolvedSettings: ResolvedPhotoSettings, metadata: ImageMetadata, timestamp: Double, image: Image, data: Data) {
        self.resolvedSettings = resolvedSettings
        self.metadata = metadata
        self.timestamp = timestamp
        self.image = image
        self.data = data
    }

    /// The encoded file: JPEG or HEIC with EXIF (make, model, date, orientation 1, flash, and the
    /// settings' location as GPS).
    public func fileDataRepresentation() -> Data { data }
}

/// Takes still photos from a running session (`AVCapturePhotoOutput`).
public final class PhotoOutput: CaptureOutput, @unchecked Sendable {
    private struct Request {
        let settings: PhotoSettings
        let fires: Bool
        /// Only a frame made after the request answers it (settings changed just before count).
        let requestedAt: ContinuousClock.Instant
        let continuation: CheckedContinuation<CapturePhoto, any Error>
    }

    private struct State {
        var pending: [Request] = []
        var nextID: Int64 = 0
    }

    private let state = Mutex(State())

    public override init() {}

    /// Flash modes the session's camera can do.
    public var supportedFlashModes: [CaptureDevice.FlashMode] {
        camera?.hasFlash == true ? [.off, .on, .auto] : [.off]
    }

    var camera: CaptureDevice? {
        session?.inputs.first { $0.device.mediaType == .video }?.device
    }

    override var wantsFlashOnNextFrame: Bool {
        state.withLock { $0.pending.first?.fires ?? false }
    }

    /// Takes a photo from the next frame.
    ///
    /// - Throws: ``CaptureError/notRunning(_:)`` when the session is not running (or stops first)
    ///   or the output's video connection is disabled;
    ///   ``CaptureError/unsupported(_:)`` for a flash the camera lacks or a format this machine
    ///   cannot write; ``CaptureError/deviceUnavailable(_:)`` when the camera goes away.
    public func capturePhoto(with settings: PhotoSettings = PhotoSettings()) async throws(CaptureError) -> CapturePhoto {
        guard let session, session.isRunning, let camera else { throw .notRunning("photos need a running session with a camera") }
        guard videoConnection.isEnabled else { throw .notRunning("the photo output's video connection is disabled") }
        try await session.checkStillAuthorized()
        guard supportedFlashModes.contains(settings.flashMode) else {
            throw .unsupported("\(camera.localizedName) has no flash")
        }
        guard settings.format == .jpeg || (settings.format == .heic && settings.format.canEncode) else {
            throw .unsupported("photos are written as JPEG, or HEIC where libvips can encode it, not \(settings.format.rawValue)")
        }
        guard (0...1).contains(settings.quality) else { throw .invalidArgument("quality \(settings.quality) is outside 0…1") }
        if let place = settings.location {
            guard place.latitude.isFinite, place.longitude.isFinite, abs(place.latitude) <= 90, abs(place.longitude) <= 180,
                place.altitude.map({ $0.isFinite }) ?? true
            else { throw .invalidArgument("location \(place.latitude), \(place.longitude) is not a place on Earth") }
        }
        let fires = switch settings.flashMode {
        case .off: false
        case .on: true
        case .auto: camera.backend.sceneNeedsFlash(camera)
        }
        do {
            return try await withCheckedThrowingContinuation { continuation in
                state.withLock { $0.pending.append(Request(settings: settings, fires: fires, requestedAt: .now, continuation: continuation)) }
            }
        } catch let error as CaptureError {
            throw error
        } catch {
            throw .captureFailed("\(error)")
        }
    }

    override func receive(_ frame: CaptureFrame, from device: CaptureDevice) async {
        // One request per frame, and a flash request only on a lit frame.
        let taken: (Request, Int64)? = state.withLock { state in
            guard let first = state.pending.first, first.fires == frame.flashFired, frame.capturedAt > first.requestedAt else { return nil }
            state.pending.removeFirst()
            state.nextID += 1
            return (first, state.nextID)
        }
        guard let (request, id) = taken else { return }
        request.continuation.resume(with: Result { () throws(CaptureError) -> CapturePhoto in
            try Self.photo(from: frame, device: device, settings: request.settings, id: id)
        })
    }

    static func photo(from frame: CaptureFrame, device: CaptureDevice, settings: PhotoSettings, id: Int64) throws(CaptureError) -> CapturePhoto {
        var metadata = ImageMetadata()
        metadata.make = "Shoebox"
        metadata.model = device.localizedName
        metadata.software = "Shoebox"
        metadata.dateTimeOriginal = ImageMetadata.DateTime(Date())
        metadata.flashFired = frame.flashFired
        if let place = settings.location {
            (metadata.latitude, metadata.longitude, metadata.altitude) = (place.latitude, place.longitude, place.altitude)
        }
        do {
            let image = try frame.image.writingMetadata(metadata)
            let data = try image.encoded(as: settings.format, options: ImageEncodingOptions(quality: settings.quality))
            let resolved = ResolvedPhotoSettings(uniqueID: id, flashFired: frame.flashFired, photoDimensions: image.pixelSize, format: settings.format)
            return CapturePhoto(resolvedSettings: resolved, metadata: metadata, timestamp: frame.timestamp, image: image, data: data)
        } catch {
            throw .captureFailed("cannot encode the photo: \(error.message)")
        }
    }

    override func sessionDidStop() async { failPending(.notRunning("the session stopped before the photo was taken")) }
    override func sessionDidFail(_ error: CaptureError) { failPending(error) }

    private func failPending(_ error: CaptureError) {
        let pending = state.withLock { state in
            defer { state.pending.removeAll() }
            return state.pending
        }
        pending.forEach { $0.continuation.resume(throwing: error) }
    }
}
