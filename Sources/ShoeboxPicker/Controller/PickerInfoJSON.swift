import Foundation
import ShoeboxImaging
import ShoeboxLibrary

/// One picked item as JSON: what `shoebox pick --json` prints and the HTTP API returns for each
/// ``ImagePickerController/Info`` (`POST /api/picker/sessions` … `results[].info`). The server
/// encodes it and the CLI decodes it, so both speak one type.
///
/// Keys are the ``ImagePickerController/InfoKey`` names. Files are paths (`originalImage` and
/// `imageURL` name the same file; `editedImage` is the crop's file), `cropRect` is
/// `{x, y, width, height}`, `localIdentifier` is set for library picks, `pixelWidth` and
/// `pixelHeight` are the original image's upright size, and `livePhotoVideo` is a Live Photo's
/// movie.
public struct PickerInfoJSON: Sendable, Hashable, Codable {
    /// A capture's metadata: EXIF's names, the capture date as ISO 8601.
    public struct Metadata: Sendable, Hashable, Codable {
        /// The camera's maker.
        public var make: String?
        /// The camera's model.
        public var model: String?
        /// The lens.
        public var lensModel: String?
        /// What made the file.
        public var software: String?
        /// The capture date and time as ISO 8601.
        public var dateTimeOriginal: String?
        /// The EXIF orientation, 1–8.
        public var orientation: Int?
        /// Degrees north (negative: south).
        public var latitude: Double?
        /// Degrees east (negative: west).
        public var longitude: Double?
        /// Metres above sea level.
        public var altitude: Double?
        /// Seconds.
        public var exposureTime: Double?
        /// The aperture's f-number.
        public var fNumber: Double?
        /// The ISO speed.
        public var isoSpeed: Int?
        /// Millimetres.
        public var focalLength: Double?
        /// Whether the flash fired.
        public var flashFired: Bool?
        /// The embedded ICC profile's name.
        public var colorProfileName: String?

        /// The JSON form of `metadata`.
        public init(_ metadata: ImageMetadata) {
            make = metadata.make
            model = metadata.model
            lensModel = metadata.lensModel
            software = metadata.software
            dateTimeOriginal = metadata.dateTimeOriginal?.iso8601String
            orientation = metadata.orientation?.rawValue
            latitude = metadata.latitude
            longitude = metadata.longitude
            altitude = metadata.altitude
            exposureTime = metadata.exposureTime
            fNumber = metadata.fNumber
            isoSpeed = metadata.isoSpeed
            focalLength = metadata.focalLength
            flashFired = metadata.flashFired
            colorProfileName = metadata.colorProfileName
        }
    }

    /// `public.image` or `public.movie`.
    public var mediaType: String
    /// The delivered photo's path (the same as ``imageURL``).
    public var originalImage: String?
    /// The delivered photo's path.
    public var imageURL: String?
    /// The square crop's path (JPEG).
    public var editedImage: String?
    /// The crop, in the original's upright pixels.
    public var cropRect: PixelRect?
    /// A movie's path.
    public var mediaURL: String?
    /// The library asset's `shoebox://asset?id=…&ext=…` URL.
    public var referenceURL: String?
    /// The library asset's identifier (library picks).
    public var localIdentifier: String?
    /// A camera photo's metadata.
    public var mediaMetadata: Metadata?
    /// The delivered file's Uniform Type Identifier.
    public var uniformTypeIdentifier: String?
    /// A movie's length in seconds, as delivered.
    public var duration: Double?
    /// The original image's upright width.
    public var pixelWidth: Int?
    /// The original image's upright height.
    public var pixelHeight: Int?
    /// The asset a camera capture was saved as.
    public var savedAssetIdentifier: String?
    /// A Live Photo's movie's path.
    public var livePhotoVideo: String?

    /// The JSON form of `info`.
    public init(_ info: ImagePickerController.Info) {
        mediaType = info.mediaType.rawValue
        originalImage = info.imageURL?.path
        imageURL = info.imageURL?.path
        editedImage = info.editedImageURL?.path
        cropRect = info.cropRect
        mediaURL = info.mediaURL?.path
        referenceURL = info.referenceURL?.absoluteString
        localIdentifier = info.asset?.localIdentifier
        mediaMetadata = info.mediaMetadata.map(Metadata.init)
        uniformTypeIdentifier = info.uniformTypeIdentifier
        duration = info.duration
        pixelWidth = info.originalImage?.pixelWidth
        pixelHeight = info.originalImage?.pixelHeight
        savedAssetIdentifier = info.savedAssetIdentifier
        livePhotoVideo = info.livePhotoVideoURL?.path
    }

    /// The file a caller wants first: the crop, else the photo, else the movie.
    public var preferredPath: String? { editedImage ?? imageURL ?? mediaURL }
}
