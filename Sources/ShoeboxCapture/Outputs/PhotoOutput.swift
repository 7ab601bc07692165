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

        /// A place at `latitude` and `longitude` in degrees, `altitude` metres above sea level (`nil`:
        /// not known); ``PhotoOutput/capturePhoto(with:)`` refuses one that is not on Earth.
        public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
        }
    }

    /// How much time a photo may take for quality (`AVCapturePhotoOutput.QualityPrioritization`).
    public enum QualityPrioritization: Int, Sendable, Hashable, Comparable, Codable, CaseIterable {
        /// The next frame, whatever focus and exposure are doing.
        case speed = 1
        /// The next frame once focus and exposure have settled (at most eight frames' wait).
        case balanced = 2
        /// Four settled frames averaged: a quarter of the noise's variance, four frames' time.
        /// Subjects that move between the frames blur; a flash photo is one frame.
        case quality = 3

        /// Orders by the time a photo may take: `.speed` < `.balanced` < `.quality`.
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

        /// Frames averaged into the photo.
        var frameCount: Int { self == .quality ? 4 : 1 }
    }

    /// Whether the flash fires (`.off` by default); `.on` and `.auto` need a camera with a flash
    /// (``PhotoOutput/supportedFlashModes``).
    public var flashMode: CaptureDevice.FlashMode
    /// `.jpeg` (default) or `.heic` where this libvips can write it: the processed photo's format.
    public var format: ImageFormat
    /// Encoder quality, 0…1.
    public var quality: Double
    /// Where the photo is taken, written into its EXIF (`nil`: no place, the default).
    public var location: Location?
    /// Speed or quality: `.balanced` by default, at most the output's
    /// ``PhotoOutput/maxPhotoQualityPrioritization``.
    public var photoQualityPrioritization: QualityPrioritization
    /// A RAW photo's Bayer format, one of ``PhotoOutput/availableRawPhotoPixelFormatTypes``: the
    /// photo is then a DNG of the sensor's photosites (`nil`: a processed photo, the default).
    public var rawPhotoPixelFormatType: CaptureDevice.Format.PixelFormat?
    /// With a RAW photo, whether a processed photo in ``format`` comes too
    /// (``CapturedPhoto/processedFileDataRepresentation()``).
    public var includesProcessedPhoto: Bool

    /// Settings for a processed photo, no RAW: by default JPEG at quality 0.9, no flash, no location,
    /// `.balanced`.
    public init(
        flashMode: CaptureDevice.FlashMode = .off, format: ImageFormat = .jpeg, quality: Double = 0.9, location: Location? = nil,
        photoQualityPrioritization: QualityPrioritization = .balanced
    ) {
        self.flashMode = flashMode
        self.format = format
        self.quality = quality
        self.location = location
        self.photoQualityPrioritization = photoQualityPrioritization
        self.rawPhotoPixelFormatType = nil
        self.includesProcessedPhoto = false
    }

    /// A RAW photo in `rawPixelFormatType` (`AVCapturePhotoSettings(rawPixelFormatType:processedFormat:)`),
    /// with a processed photo in `processedFormat` too when one is given.
    public init(
        rawPixelFormatType: CaptureDevice.Format.PixelFormat, processedFormat: ImageFormat? = nil, flashMode: CaptureDevice.FlashMode = .off,
        location: Location? = nil
    ) {
        self.init(flashMode: flashMode, format: processedFormat ?? .jpeg, location: location, photoQualityPrioritization: .speed)
        rawPhotoPixelFormatType = rawPixelFormatType
        includesProcessedPhoto = processedFormat != nil
    }
}

/// What a capture turned out to be (`AVCaptureResolvedPhotoSettings`).
public struct ResolvedPhotoSettings: Sendable, Hashable {
    /// The photo's number on its output, in the order photos are taken: 1 for the first, counting up.
    public let uniqueID: Int64
    /// Whether the flash lit the frame the photo was taken from (`.auto` may leave it dark).
    public let flashFired: Bool
    /// The processed picture's size.
    public let photoDimensions: PixelSize
    /// The processed picture's format (``ImageFormat/dng`` for a RAW photo without one).
    public let format: ImageFormat
    /// A RAW photo's sensor size (`rawPhotoDimensions`); zero otherwise.
    public let rawPhotoDimensions: PixelSize
    /// The frames averaged into the processed picture.
    public let framesCombined: Int
}

/// The name ``CapturedPhoto`` had before: code written against it goes on compiling, with a
/// warning that names the new one.
@available(*, deprecated, renamed: "CapturedPhoto")
public typealias CapturePhoto = CapturedPhoto

/// A captured photo (`AVCapturePhoto`).
public struct CapturedPhoto: Sendable {
    /// What the capture turned out to be: its number, the flash, the sizes, the format and the
    /// frames combined.
    public let resolvedSettings: ResolvedPhotoSettings
    /// The EXIF written into the file.
    public let metadata: ImageMetadata
    /// Seconds since the session started.
    public let timestamp: Double
    /// The upright pixels (for a RAW photo, the processed picture of the same frame).
    public let image: Image
    /// Whether ``fileDataRepresentation()`` is a DNG of the sensor's photosites.
    public let isRawPhoto: Bool
    private let data: Data
    private let processed: Data?

    init(
        resolvedSettings: ResolvedPhotoSettings, metadata: ImageMetadata, timestamp: Double, image: Image, data: Data,
        isRawPhoto: Bool = false, processed: Data? = nil
    ) {
        self.resolvedSettings = resolvedSettings
        self.metadata = metadata
        self.timestamp = timestamp
        self.image = image
        self.data = data
        self.isRawPhoto = isRawPhoto
        self.processed = processed
    }

    /// The encoded file: JPEG or HEIC with EXIF (make, model, date, orientation 1, flash, and the
    /// settings' location as GPS); for a RAW photo, a DNG (the photosites as read, 16 bits each,
    /// the connection's turn as its orientation, the processed picture as its preview).
    public func fileDataRepresentation() -> Data { data }

    /// A RAW photo's processed photo, when the settings asked for one
    /// (``PhotoSettings/includesProcessedPhoto``); `nil` otherwise.
    public func processedFileDataRepresentation() -> Data? { processed }
}

/// Takes still photos from a running session (`AVCapturePhotoOutput`).
public final class PhotoOutput: CaptureOutput, @unchecked Sendable {
    private struct Request {
        let settings: PhotoSettings
        let fires: Bool
        /// Only a frame made after the request answers it (settings changed just before count).
        let requestedAt: ContinuousClock.Instant
        /// Resumed once, with the photo or the reason there is none (a `Result` rather than a
        /// throwing continuation: the error stays typed all the way, with no casts).
        let continuation: CheckedContinuation<Result<CapturedPhoto, CaptureError>, Never>
        /// Frames gathered for a `.quality` photo, and frames passed over while the camera settled.
        var frames: [CaptureFrame] = []
        var waited = 0
    }

    private struct State {
        var pending: [Request] = []
        var nextID: Int64 = 0
        var maxPrioritization = PhotoSettings.QualityPrioritization.balanced
    }

    private let state = Mutex(State())

    /// An output that takes photos once it is in a running session with a camera.
    public override init() {}

    /// Flash modes the session's camera can do.
    public var supportedFlashModes: [CaptureDevice.FlashMode] {
        camera?.hasFlash == true ? [.off, .on, .auto] : [.off]
    }

    /// The most time for quality a photo may ask (`maxPhotoQualityPrioritization`): `.balanced`
    /// by default, as AV Foundation's; a photo's ``PhotoSettings/photoQualityPrioritization`` may
    /// not exceed it.
    public var maxPhotoQualityPrioritization: PhotoSettings.QualityPrioritization {
        get { state.withLock { $0.maxPrioritization } }
        set { state.withLock { $0.maxPrioritization = newValue } }
    }

    /// The Bayer formats a RAW photo may ask for with the camera's active format
    /// (`availableRawPhotoPixelFormatTypes`): a Bayer format's own (a V4L2 camera streaming one),
    /// the synthetic camera's 12-bit RGGB, none for cameras that deliver only YUV or JPEG.
    public var availableRawPhotoPixelFormatTypes: [CaptureDevice.Format.PixelFormat] {
        guard let camera, let format = camera.activeFormat else { return [] }
        return camera.backend.rawPixelFormats(for: format)
    }

    var camera: CaptureDevice? {
        session?.inputs.first { $0.device.mediaType == .video }?.device
    }

    override var wantsFlashOnNextFrame: Bool {
        state.withLock { $0.pending.first?.fires ?? false }
    }

    override var wantsSensorDataOnNextFrame: Bool {
        state.withLock { $0.pending.first?.settings.rawPhotoPixelFormatType != nil }
    }

    /// Takes a photo from the next frame.
    ///
    /// - Throws: ``CaptureError/Code/notRunning`` when the session is not running (or stops first)
    ///   or the output's video connection is disabled;
    ///   ``CaptureError/Code/unsupported`` for a flash the camera lacks or a format this machine
    ///   cannot write; ``CaptureError/Code/deviceUnavailable`` when the camera goes away.
    public func capturePhoto(with settings: PhotoSettings = PhotoSettings()) async throws(CaptureError) -> CapturedPhoto {
        guard let session, session.isRunning, let camera else { throw .notRunning("photos need a running session with a camera") }
        guard videoConnection.isEnabled else { throw .notRunning("the photo output's video connection is disabled") }
        try await session.checkStillAuthorized()
        guard supportedFlashModes.contains(settings.flashMode) else {
            throw .unsupported("\(camera.localizedName) has no flash")
        }
        guard settings.format == .jpeg || (settings.format == .heic && settings.format.canEncode) else {
            throw .unsupported("photos are written as JPEG, or HEIC where libvips can encode it, not \(settings.format.rawValue)")
        }
        guard settings.photoQualityPrioritization <= maxPhotoQualityPrioritization else {
            throw .invalidArgument(
                "the photo asks for \(settings.photoQualityPrioritization) prioritization, more than the output's maxPhotoQualityPrioritization (\(maxPhotoQualityPrioritization))"
            )
        }
        if let raw = settings.rawPhotoPixelFormatType, !availableRawPhotoPixelFormatTypes.contains(raw) {
            let offered = availableRawPhotoPixelFormatTypes.map(\.rawValue).joined(separator: ", ")
            throw .unsupported(
                offered.isEmpty
                    ? "\(camera.localizedName) delivers no sensor photosites in its active format (\(camera.activeFormat.map { "\($0)" } ?? "none")): a RAW photo needs a Bayer format"
                    : "\(camera.localizedName) offers RAW photos in \(offered), not \(raw.rawValue)")
        }
        guard (0...1).contains(settings.quality) else { throw .invalidArgument("quality \(settings.quality) is outside 0…1") }
        if let place = settings.location {
            guard place.latitude.isFinite, place.longitude.isFinite, abs(place.latitude) <= 90, abs(place.longitude) <= 180,
                place.altitude.map({ $0.isFinite }) ?? true
            else { throw .invalidArgument("location \(place.latitude), \(place.longitude) is not a place on Earth") }
        }
        let fires =
            switch settings.flashMode {
            case .off: false
            case .on: true
            case .auto: camera.backend.sceneNeedsFlash(camera)
            }
        let requestedAt = session.clock.now()
        let result = await withCheckedContinuation { continuation in
            state.withLock { $0.pending.append(Request(settings: settings, fires: fires, requestedAt: requestedAt, continuation: continuation)) }
        }
        return try result.get()
    }

    override func receive(_ frame: CaptureFrame, from device: CaptureDevice) async {
        // One request at a time, a flash request only on a lit frame, a RAW one only on a frame
        // with the sensor's photosites; `.balanced` and `.quality` wait for focus and exposure.
        let taken: (Request, Int64)? = state.withLock { state in
            guard var first = state.pending.first, first.fires == frame.flashFired, frame.capturedAt > first.requestedAt else { return nil }
            if first.settings.rawPhotoPixelFormatType != nil, frame.sensor == nil { return nil }
            let prioritization = first.settings.photoQualityPrioritization
            if prioritization >= .balanced, first.frames.isEmpty, first.waited < 8, device.isAdjustingFocus || device.isAdjustingExposure {
                state.pending[0].waited += 1
                return nil
            }
            first.frames.append(frame)
            let needed = first.fires ? 1 : prioritization.frameCount
            guard first.frames.count >= needed else {
                state.pending[0] = first
                return nil
            }
            state.pending.removeFirst()
            state.nextID += 1
            return (first, state.nextID)
        }
        guard let (request, id) = taken else { return }
        // Averaging, encoding and a DNG take a while: off the session's executor.
        let frames = request.frames
        let settings = request.settings
        let result = await BlockingPool.shared.run { () -> Result<CapturedPhoto, CaptureError> in
            Result { () throws(CaptureError) -> CapturedPhoto in try Self.photo(from: frames, device: device, settings: settings, id: id) }
        }
        request.continuation.resume(returning: result)
    }

    /// The photo of `frames` (averaged when there are several; a RAW photo's photosites are the
    /// first frame's).
    static func photo(from frames: [CaptureFrame], device: CaptureDevice, settings: PhotoSettings, id: Int64) throws(CaptureError) -> CapturedPhoto {
        guard let frame = frames.first else { throw .captureFailed("no frame for the photo") }
        var metadata = ImageMetadata()
        metadata.make = "Shoebox"
        metadata.model = device.localizedName
        metadata.software = "Shoebox"
        metadata.dateTimeOriginal = ImageMetadata.DateTime(Date())
        metadata.flashFired = frame.flashFired
        metadata.exposureTime = device.exposureDuration.seconds
        metadata.isoSpeed = Int(device.iso.rounded())
        if let place = settings.location {
            (metadata.latitude, metadata.longitude, metadata.altitude) = (place.latitude, place.longitude, place.altitude)
        }
        do {
            let picture = frames.count > 1 ? try Self.averaged(frames.map(\.image)) : frame.image
            let image = try picture.writingMetadata(metadata)
            let processed = try image.encoded(as: settings.format, options: ImageEncodingOptions(quality: settings.quality))
            guard settings.rawPhotoPixelFormatType != nil, let sensor = frame.sensor else {
                let resolved = ResolvedPhotoSettings(
                    uniqueID: id, flashFired: frame.flashFired, photoDimensions: image.pixelSize, format: settings.format,
                    rawPhotoDimensions: PixelSize(square: 0), framesCombined: frames.count)
                return CapturedPhoto(resolvedSettings: resolved, metadata: metadata, timestamp: frame.timestamp, image: image, data: processed)
            }
            let dng = try Self.dng(sensor, turn: frame.sensorTurn, picture: picture, metadata: metadata, model: device.localizedName)
            let resolved = ResolvedPhotoSettings(
                uniqueID: id, flashFired: frame.flashFired, photoDimensions: image.pixelSize,
                format: settings.includesProcessedPhoto ? settings.format : .dng,
                rawPhotoDimensions: PixelSize(width: sensor.width, height: sensor.height), framesCombined: 1)
            return CapturedPhoto(
                resolvedSettings: resolved, metadata: metadata, timestamp: frame.timestamp, image: image, data: dng,
                isRawPhoto: true, processed: settings.includesProcessedPhoto ? processed : nil)
        } catch let error as CaptureError {
            throw error
        } catch let error as ImageError {
            throw .captureFailed("cannot encode the photo: \(error.message)", underlying: error)
        } catch {
            throw .captureFailed("cannot encode the photo: \(error)", underlying: error)
        }
    }

    /// A DNG of the photosites: the connection's turn as its orientation (the photosites stay as
    /// read), the processed picture turned back as its preview, the camera's white balance as a
    /// grey-world neutral (camera colours taken as linear sRGB: a V4L2 sensor's own matrix is
    /// not known).
    static func dng(
        _ sensor: SensorData, turn: CaptureConnection.Transform, picture: Image, metadata: ImageMetadata,
        model: String
    ) throws -> Data {
        var unturned = picture
        if turn.mirrored { unturned = try unturned.mirrored() }
        if turn.quarterTurns % 4 != 0 { unturned = try unturned.rotated(byQuarterTurns: -turn.quarterTurns) }
        let preview = try unturned.thumbnail(targetSize: PixelSize(square: 1_024))
        let jpeg = try preview.encoded(as: .jpeg, options: ImageEncodingOptions(quality: 0.85, keepsMetadata: false))
        let writer = RawFileWriter(
            width: sensor.width, height: sensor.height, photosites: sensor.photosites, pattern: sensor.pattern,
            blackLevel: sensor.blackLevel, whiteLevel: sensor.whiteLevel, make: "Shoebox", model: model,
            orientation: turn.orientation, metadata: metadata, asShotNeutral: BayerFrame.neutral(sensor),
            preview: (jpeg, preview.pixelSize))
        return writer.data()
    }

    /// The mean of pictures of one size, pixel by pixel.
    static func averaged(_ images: [Image]) throws -> Image {
        let bitmaps = try images.map { try $0.bitmap() }
        guard let first = bitmaps.first, bitmaps.allSatisfy({ $0.bytes.count == first.bytes.count }) else {
            return images[0]
        }
        var sums = [Int](repeating: 0, count: first.bytes.count)
        for bitmap in bitmaps {
            bitmap.bytes.withUnsafeBufferPointer { bytes in
                for index in 0..<bytes.count { sums[index] += Int(bytes[index]) }
            }
        }
        let count = bitmaps.count
        return try Image(
            bitmap: Bitmap(
                width: first.width, height: first.height, channels: first.channels,
                bytes: sums.map { UInt8(($0 + count / 2) / count) }))
    }

    override func sessionDidStop() async { failPending(.notRunning("the session stopped before the photo was taken")) }
    override func sessionDidFail(_ error: CaptureError) { failPending(error) }

    private func failPending(_ error: CaptureError) {
        let pending = state.withLock { state in
            defer { state.pending.removeAll() }
            return state.pending
        }
        pending.forEach { $0.continuation.resume(returning: .failure(error)) }
    }
}
