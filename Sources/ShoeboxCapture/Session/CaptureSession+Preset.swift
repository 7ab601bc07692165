import ShoeboxImaging

extension CaptureSession {
    /// The quality a session captures at (`AVCaptureSession.Preset`).
    public enum Preset: String, Sendable, Hashable, Codable, CaseIterable {
        /// The camera's largest format (for still photos).
        case photo
        /// The largest format up to 1920×1080.
        case high
        /// 480×360, scaled from the smallest format.
        case medium
        /// 192×144, scaled from the smallest format.
        case low
        /// 640×480, from a camera format of exactly that size
        /// (`AVCaptureSession.Preset.vga640x480`).
        case vga640x480
        /// 1280×720, from a camera format of exactly that size
        /// (`AVCaptureSession.Preset.hd1280x720`).
        case hd1280x720
        /// 1920×1080, from a camera format of exactly that size
        /// (`AVCaptureSession.Preset.hd1920x1080`).
        case hd1920x1080
        /// 3840×2160, from a camera format of exactly that size
        /// (`AVCaptureSession.Preset.hd4K3840x2160`).
        case hd4K3840x2160
        /// The camera's ``CaptureDevice/activeFormat`` as set (``CaptureDevice/setActiveFormat(_:)``)
        /// and its frame rate: the session leaves them alone.
        case inputPriority

        /// The exact format size the preset needs, if it names one.
        var exactSize: PixelSize? {
            switch self {
            case .vga640x480: PixelSize(width: 640, height: 480)
            case .hd1280x720: PixelSize(width: 1280, height: 720)
            case .hd1920x1080: PixelSize(width: 1920, height: 1080)
            case .hd4K3840x2160: PixelSize(width: 3840, height: 2160)
            default: nil
            }
        }

        /// The size frames are scaled down to, for the small presets.
        var outputSize: PixelSize? {
            switch self {
            case .medium: PixelSize(width: 480, height: 360)
            case .low: PixelSize(width: 192, height: 144)
            default: nil
            }
        }

        /// The size of the frames the preset gives on `device`, or `nil` if the device cannot do it.
        public func dimensions(on device: CaptureDevice) -> PixelSize? {
            guard let format = format(on: device) else { return nil }
            return outputSize ?? format.dimensions
        }

        /// The device format the preset uses, or `nil` if the device cannot do it.
        func format(on device: CaptureDevice) -> CaptureDevice.Format? {
            let formats = device.formats.sorted { $0.dimensions.pixelCount < $1.dimensions.pixelCount }
            switch self {
            case .photo:
                return formats.last
            case .high:
                return formats.last { $0.dimensions.width <= 1920 && $0.dimensions.height <= 1080 } ?? formats.first
            case .medium, .low:
                return formats.first
            case .inputPriority:
                return device.activeFormat
            default:
                return formats.first { $0.dimensions == exactSize }
            }
        }
    }
}
