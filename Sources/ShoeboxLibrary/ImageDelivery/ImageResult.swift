import Foundation
import ShoeboxImaging

/// Identifies one image request, for ``ImageManager/cancelImageRequest(_:)`` (`PHImageRequestID`).
public typealias ImageRequestID = Int32

/// One delivery of an image request: the image and what `PHImageManager` puts in its info
/// dictionary.
public struct ImageResult: Sendable {
    /// The image, upright; `nil` when the request failed or was cancelled.
    public let image: Image?
    /// Whether a better result follows (`PHImageResultIsDegradedKey`).
    public let isDegraded: Bool
    /// The request it answers (`PHImageResultRequestIDKey`).
    public let requestID: ImageRequestID
    /// Why there is no image (`PHImageErrorKey`); ``LibraryError/Code/cancelled`` when cancelled.
    public let error: LibraryError?

    /// Whether the request was cancelled (`PHImageCancelledKey`).
    public var isCancelled: Bool {
        if case .cancelled = error { return true }
        return false
    }
}

/// An image's bytes as stored, from ``ImageManager/requestImageDataAndOrientation(for:options:)``.
public struct ImageData: Sendable {
    /// The encoded file.
    public let data: Data
    /// Its Uniform Type Identifier.
    public let uniformTypeIdentifier: String
    /// The EXIF orientation its pixels need to be shown upright.
    public let orientation: ImageOrientation
}
