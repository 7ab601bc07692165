import Foundation
import ShoeboxMedia

extension ImagePickerController {
    /// Where the picker gets media (`UIImagePickerController.SourceType`).
    public enum SourceType: String, Sendable, Hashable, Codable, CaseIterable {
        /// Every album of the library.
        case photoLibrary
        /// A camera: a capture device on this machine, or the presenter's (the browser's).
        case camera
        /// Recents only (the seeds' Camera Roll / Saved Photos album).
        case savedPhotosAlbum
    }

    /// A kind of media, by its Uniform Type Identifier (`kUTTypeImage`, `kUTTypeMovie`).
    public enum MediaType: String, Sendable, Hashable, Codable, CaseIterable {
        /// Still pictures (`kUTTypeImage`): photos from the library, pictures from the camera.
        case image = "public.image"
        /// Movies (`kUTTypeMovie`): videos from the library, recordings from the camera (with sound
        /// when there is a microphone).
        case movie = "public.movie"
    }

    /// Which camera (`UIImagePickerController.CameraDevice`).
    public enum CameraDevice: String, Sendable, Hashable, Codable, CaseIterable {
        /// The back camera: a capture device whose position is `back`, else one whose position is
        /// unspecified (a USB webcam); in the browser, the one facing away (`facingMode`
        /// environment).
        case rear
        /// The front camera: a capture device whose position is `front`; in the browser, the one
        /// facing the user (`facingMode` user).
        case front
    }

    /// Still pictures or movies (`UIImagePickerController.CameraCaptureMode`).
    public enum CameraCaptureMode: String, Sendable, Hashable, Codable, CaseIterable {
        /// Still pictures, taken with ``ImagePickerController/takePicture()``; needs `public.image`
        /// in `mediaTypes`.
        case photo
        /// Movies, recorded from ``ImagePickerController/startVideoCapture()`` to
        /// ``ImagePickerController/stopVideoCapture()``; needs `public.movie` in `mediaTypes`.
        case video
    }

    /// The flash (`UIImagePickerController.CameraFlashMode`); for movies it drives the torch.
    public enum CameraFlashMode: String, Sendable, Hashable, Codable, CaseIterable {
        /// The flash never fires; for movies the torch stays off.
        case off
        /// The flash fires in a dark scene; for movies the torch lights in the dark (the default).
        case auto
        /// The flash always fires; for movies the torch stays lit.
        case on
    }

    /// Where captures come from when the source is the camera.
    public enum CameraSource: String, Sendable, Hashable, Codable, CaseIterable {
        /// The presenter's camera when it offers one (the user's browser), else a capture device
        /// on this machine.
        case automatic
        /// A capture device on this machine (V4L2, or the synthetic camera).
        case captureDevice
        /// The presenter's own camera (the browser's `getUserMedia`).
        case presenter
    }

    /// `UIImagePickerController.QualityType`: the transcoding preset for movies.
    public typealias QualityType = VideoQuality

    /// An affine transform for the live preview (`cameraViewTransform`): `[a b 0; c d 0; tx ty 1]`,
    /// applied from the preview's centre. The web picker applies it as a CSS `matrix()`.
    public struct ViewTransform: Sendable, Hashable, Codable {
        /// The matrix's entries, as `CGAffineTransform`'s: `a`, `b`, `c`, `d` scale, turn and shear;
        /// `tx`, `ty` move, in CSS pixels of the preview.
        public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

        /// A transform of these entries; the defaults are the identity.
        public init(a: Double = 1, b: Double = 0, c: Double = 0, d: Double = 1, tx: Double = 0, ty: Double = 0) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.tx = tx
            self.ty = ty
        }

        /// The transform that leaves the preview as it is.
        public static let identity = ViewTransform()

        /// A uniform scale (a digital zoom of the preview).
        public static func scale(_ factor: Double) -> ViewTransform { ViewTransform(a: factor, d: factor) }

        /// Whether every component is a finite number.
        var isFinite: Bool { [a, b, c, d, tx, ty].allSatisfy(\.isFinite) }
    }
}
