import Foundation
import ShoeboxImaging
import ShoeboxLibrary

extension ImagePickerController {
    /// The keys of a pick's information (`UIImagePickerController.InfoKey`; `phAsset` is `asset`).
    public enum InfoKey: String, Sendable, Hashable, Codable, CaseIterable {
        /// `public.image` or `public.movie`.
        case mediaType
        /// The picked image, uncropped.
        case originalImage
        /// The square crop the user made (only with `allowsEditing`).
        case editedImage
        /// The crop, in the original image's upright pixels.
        case cropRect
        /// A movie's file: a copy in a temporary folder, or the trimmed one.
        case mediaURL
        /// The picked library asset's reference (library picks only).
        case referenceURL
        /// The picked library asset (library picks only).
        case asset
        /// A captured photo's metadata (camera captures only).
        case mediaMetadata
        /// The picked image's file: a copy in a temporary folder.
        case imageURL
        /// A picked Live Photo's movie: a copy in a temporary folder (`UIImagePickerController`
        /// hands over a `PHLivePhoto`; Shoebox hands over the movie beside the still).
        case livePhoto
    }

    /// What the user picked, one item (the `info` dictionary of
    /// `imagePickerController(_:didFinishPickingMediaWithInfo:)`), with a typed property per key
    /// and a subscript by ``InfoKey``.
    ///
    /// Files (``imageURL``, ``mediaURL``, ``editedImageURL``) are copies in a folder of the
    /// system's temporary directory that belongs to the client: remove it when done. The library's
    /// own files are never handed out.
    public struct Info: Sendable {
        /// `.image` or `.movie` (`UIImagePickerController.InfoKey.mediaType`).
        public var mediaType: MediaType
        /// The delivered photo, uncropped, opened from ``imageURL`` (`InfoKey.originalImage`); `nil`
        /// for movies.
        public var originalImage: Image?
        /// The square crop, at most `maximumEditedImagePixelSize` pixels on a side
        /// (`InfoKey.editedImage`); `nil` for movies and without `allowsEditing`.
        public var editedImage: Image?
        /// The square ``editedImage`` was cut from, in the original's upright pixels
        /// (`InfoKey.cropRect`); `nil` when there is no ``editedImage``.
        public var cropRect: PixelRect?
        /// A movie's delivered file (`InfoKey.mediaURL`): a copy, or the trimmed or transcoded MP4;
        /// `nil` for photos.
        public var mediaURL: URL?
        /// The library asset's `shoebox://asset?id=…&ext=…` URL (`InfoKey.referenceURL`, see
        /// ``ImagePickerController/referenceURL(for:)``); `nil` for camera captures.
        public var referenceURL: URL?
        /// The picked library asset (`InfoKey.phAsset`); `nil` for camera captures.
        public var asset: Asset?
        /// A camera photo's metadata (`InfoKey.mediaMetadata`); `nil` for library picks and movies.
        public var mediaMetadata: ImageMetadata?
        /// The delivered photo's file (`InfoKey.imageURL`): the current version as stored, or the
        /// capture, or a JPEG conversion of either for `.compatible`; `nil` for movies.
        public var imageURL: URL?
        /// The file of ``editedImage`` (JPEG), so that processes can read it too.
        public var editedImageURL: URL?
        /// The Uniform Type Identifier of the delivered file (``imageURL`` or ``mediaURL``).
        public var uniformTypeIdentifier: String?
        /// A movie's length in seconds, as delivered (after a trim).
        public var duration: Double?
        /// The library asset a camera capture was saved as (with `savesCapturedMedia`).
        public var savedAssetIdentifier: String?
        /// A picked Live Photo's movie (its ``ShoeboxLibrary/AssetResource/ResourceType/pairedVideo``):
        /// as stored, or for `.compatible` an H.264 MP4 when browsers cannot play it. ``imageURL``
        /// is the still.
        public var livePhotoVideoURL: URL?

        /// An item of `mediaType` with no other value set.
        public init(mediaType: MediaType) {
            self.mediaType = mediaType
        }

        /// The value for `key`, as `UIImagePickerController`'s dictionary holds it; `nil` when the
        /// pick has none.
        public subscript(key: InfoKey) -> (any Sendable)? {
            switch key {
            case .mediaType: mediaType.rawValue
            case .originalImage: originalImage
            case .editedImage: editedImage
            case .cropRect: cropRect
            case .mediaURL: mediaURL
            case .referenceURL: referenceURL
            case .asset: asset
            case .mediaMetadata: mediaMetadata
            case .imageURL: imageURL
            case .livePhoto: livePhotoVideoURL
            }
        }

        /// The keys this pick has values for.
        public var keys: [InfoKey] { InfoKey.allCases.filter { self[$0] != nil } }

        /// The library identifier of a library pick.
        public var localIdentifier: String? { asset?.localIdentifier }
    }

    /// The reference URL of a library asset: `shoebox://asset?id=LOCAL-IDENTIFIER&ext=EXT` (the
    /// Assets Library's `assets-library://asset/asset.JPG?id=…&ext=JPG`).
    public static func referenceURL(for asset: Asset) -> URL {
        var components = URLComponents()
        components.scheme = "shoebox"
        components.host = "asset"
        components.queryItems = [
            URLQueryItem(name: "id", value: asset.localIdentifier),
            URLQueryItem(name: "ext", value: (asset.originalFilename as NSString).pathExtension.uppercased()),
        ]
        return components.url!
    }

    /// The asset identifier in a ``referenceURL(for:)``, or `nil` for another URL.
    public static func localIdentifier(fromReferenceURL url: URL) -> String? {
        guard url.scheme == "shoebox", url.host == "asset",
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
        else { return nil }
        return items.first { $0.name == "id" }?.value
    }
}

extension ImagePickerController.Info: Encodable {
    /// The JSON `shoebox pick` prints and the HTTP API returns: ``PickerInfoJSON``.
    public func encode(to encoder: any Encoder) throws {
        try PickerInfoJSON(self).encode(to: encoder)
    }
}
