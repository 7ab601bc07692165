import Foundation
import ShoeboxImaging

/// A photo or movie taken with the picker's camera, kept in the session's folder until the
/// user uses it (then it is delivered) or retakes it (then it is deleted).
public struct CapturedMedia: Sendable, Hashable, Identifiable, Codable {
    /// `capture-1`, `capture-2`, … within a session.
    public let id: String
    /// `.image` for a photo, `.movie` for a recording.
    public let mediaType: ImagePickerController.MediaType
    /// The file as captured (JPEG for device photos, whatever the browser sent for its own).
    public let fileURL: URL
    /// The file's type: `public.jpeg` for device photos, `public.mpeg-4` for device recordings,
    /// the sniffed type of what the browser sent for the presenter's.
    public let uniformTypeIdentifier: String
    /// Upright pixel size.
    public let pixelSize: PixelSize
    /// A movie's length in seconds.
    public let duration: Double?
    /// A photo's metadata (the info's `mediaMetadata`).
    public let metadata: ImageMetadata?
    /// Where it came from: `captureDevice` or `presenter`.
    public let origin: ImagePickerController.CameraSource
}
