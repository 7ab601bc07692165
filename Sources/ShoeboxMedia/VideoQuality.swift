import ShoeboxImaging

/// Transcoding presets, named after `UIImagePickerController.QualityType`, plus three HD sizes.
///
/// Every preset writes H.264 video and AAC audio in MP4. The frame is scaled to fit inside the
/// preset's box — landscape boxes for landscape movies, the box turned for portrait ones — keeping
/// the aspect ratio, with even sides, and never enlarged. Rotation is applied to the pixels, so the
/// result displays the same way with rotation 0; creation date and location are kept.
///
/// | preset | box | H.264 | note |
/// |---|---|---|---|
/// | `typeHigh` | 1920×1080 | CRF 20 | the best the source allows, up to 1080p |
/// | `typeMedium` | 480×360 | CRF 23 | |
/// | `typeLow` | 192×144 | CRF 28 | |
/// | `type640x480` | 640×480 | CRF 23 | |
/// | `typeIFrame1280x720` | 1280×720 | CRF 16, every frame a key frame | for editing |
/// | `typeIFrame960x540` | 960×540 | CRF 16, every frame a key frame | for editing |
/// | `hd1280x720` | 1280×720 | CRF 21 | |
/// | `hd1920x1080` | 1920×1080 | CRF 21 | |
/// | `uhd3840x2160` | 3840×2160 | CRF 22 | |
public enum VideoQuality: String, Sendable, Codable, CaseIterable {
    /// Fits 1920×1080; CRF 20, AAC at 160 kbit/s: the best the source allows, up to 1080p
    /// (`UIImagePickerController.QualityType.typeHigh`).
    case typeHigh
    /// Fits 480×360; CRF 23, AAC at 96 kbit/s (`.typeMedium`, UIKit's default for the picker).
    case typeMedium
    /// Fits 192×144; CRF 28, AAC at 64 kbit/s: the smallest files (`.typeLow`).
    case typeLow
    /// Fits 640×480; CRF 23, AAC at 96 kbit/s (`.type640x480`).
    case type640x480
    /// Fits 1280×720; CRF 16 with every frame a key frame, AAC at 160 kbit/s: Apple's iFrame, for
    /// editing (`.typeIFrame1280x720`).
    case typeIFrame1280x720
    /// Fits 960×540; CRF 16 with every frame a key frame, AAC at 160 kbit/s: Apple's iFrame, for
    /// editing (`.typeIFrame960x540`).
    case typeIFrame960x540
    /// Fits 1280×720; CRF 21, AAC at 160 kbit/s (not in UIKit's list; as
    /// `AVAssetExportPreset1280x720`).
    case hd1280x720
    /// Fits 1920×1080; CRF 21, AAC at 160 kbit/s (not in UIKit's list; as
    /// `AVAssetExportPreset1920x1080`).
    case hd1920x1080
    /// Fits 3840×2160; CRF 22, AAC at 160 kbit/s (not in UIKit's list; as
    /// `AVAssetExportPreset3840x2160`).
    case uhd3840x2160

    /// The landscape box the frame must fit in.
    public var box: PixelSize {
        switch self {
        case .typeHigh, .hd1920x1080: PixelSize(width: 1920, height: 1080)
        case .typeMedium: PixelSize(width: 480, height: 360)
        case .typeLow: PixelSize(width: 192, height: 144)
        case .type640x480: PixelSize(width: 640, height: 480)
        case .typeIFrame1280x720, .hd1280x720: PixelSize(width: 1280, height: 720)
        case .typeIFrame960x540: PixelSize(width: 960, height: 540)
        case .uhd3840x2160: PixelSize(width: 3840, height: 2160)
        }
    }

    /// x264's constant rate factor.
    var constantRateFactor: Int {
        switch self {
        case .typeHigh: 20
        case .typeMedium, .type640x480: 23
        case .typeLow: 28
        case .typeIFrame1280x720, .typeIFrame960x540: 16
        case .hd1280x720, .hd1920x1080: 21
        case .uhd3840x2160: 22
        }
    }

    /// Whether every frame is a key frame (Apple's iFrame formats, made for editing).
    var isIntraOnly: Bool { self == .typeIFrame1280x720 || self == .typeIFrame960x540 }

    /// AAC bit rate in bits per second.
    var audioBitRate: Int {
        switch self {
        case .typeLow: 64_000
        case .typeMedium, .type640x480: 96_000
        default: 160_000
        }
    }

    /// The size a movie displayed at `size` gets: fitted inside the box (turned for portrait),
    /// never enlarged, both sides even.
    public func outputSize(forDisplayed size: PixelSize) -> PixelSize {
        let box = size.height > size.width ? self.box.transposed : self.box
        let scale = min(1, Double(box.width) / Double(size.width), Double(box.height) / Double(size.height))
        func even(_ value: Double) -> Int { max(2, Int((value / 2).rounded(.down)) * 2) }
        if scale >= 1 {
            return PixelSize(width: even(Double(size.width)), height: even(Double(size.height)))
        }
        return PixelSize(width: even(Double(size.width) * scale), height: even(Double(size.height) * scale))
    }
}
