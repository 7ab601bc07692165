import Foundation
import ShoeboxImaging

extension CaptureDevice {
    /// A way the device can deliver frames (`AVCaptureDevice.Format`).
    public struct Format: Sendable, Hashable, Codable, CustomStringConvertible {
        /// How frames are encoded on the wire.
        public enum PixelFormat: String, Sendable, Hashable, Codable {
            /// Motion JPEG (USB cameras at high resolutions).
            case mjpeg
            /// YUV 4:2:2, Y0 U Y1 V.
            case yuyv
            /// 8-bit RGB (the synthetic camera).
            case rgb
            /// A Bayer colour filter array as the sensor reads it, 8 bits a photosite (V4L2's
            /// `SBGGR8`, `SGBRG8`, `SGRBG8`, `SRGGB8`): frames are demosaiced, and RAW photos keep
            /// the photosites (``PhotoSettings/rawPhotoPixelFormatType``).
            case bayerBGGR8, bayerGBRG8, bayerGRBG8, bayerRGGB8
            /// The same with 10 to 16 bits a photosite, each in 16 (V4L2's `SBGGR10`, `SBGGR12`,
            /// `SBGGR16`, …; ``Format/bitsPerPhotosite`` says how many are used).
            case bayerBGGR16, bayerGBRG16, bayerGRBG16, bayerRGGB16

            /// Whether frames come as a sensor's colour filter array (a RAW photo's source).
            public var isBayer: Bool { cfaPattern != nil }

            /// The colour filter array's 2 × 2 tile.
            package var cfaPattern: RawFileWriter.CFAPattern? {
                switch self {
                case .bayerBGGR8, .bayerBGGR16: .bggr
                case .bayerGBRG8, .bayerGBRG16: .gbrg
                case .bayerGRBG8, .bayerGRBG16: .grbg
                case .bayerRGGB8, .bayerRGGB16: .rggb
                case .mjpeg, .yuyv, .rgb: nil
                }
            }

            /// Bytes a photosite takes on the wire (1 or 2) for Bayer formats.
            var bytesPerPhotosite: Int {
                switch self {
                case .bayerBGGR8, .bayerGBRG8, .bayerGRBG8, .bayerRGGB8: 1
                default: 2
                }
            }
        }

        /// How frames in this format are encoded as the device delivers them.
        public let pixelFormat: PixelFormat
        /// Frame size in pixels.
        public let dimensions: PixelSize
        /// Frame rates it supports, highest first.
        public let frameRates: [Double]
        /// The sensitivity a custom exposure may set (``CaptureDevice/setExposureModeCustom(duration:iso:)``).
        public let minISO: Float
        /// The highest sensitivity a custom exposure may set (``minISO`` is the lowest; both are 100
        /// when the format was given no range).
        public let maxISO: Float
        /// The exposure times a custom exposure may set.
        public let minExposureDuration: Duration
        /// The longest exposure time a custom exposure may set (``minExposureDuration`` is the shortest;
        /// both are one frame at the slowest rate when the format was given no range).
        public let maxExposureDuration: Duration
        /// The bits of each photosite a Bayer format uses (8, 10, 12, 14 or 16); `nil` otherwise.
        public let bitsPerPhotosite: Int?

        /// A format of `dimensions` pixels in `pixelFormat` at `frameRates` frames per second (in any
        /// order; kept highest first). Without `exposureDurationRange`, an exposure is one frame at the
        /// slowest rate; `bitsPerPhotosite` counts for Bayer formats only (8 or 16 by default, as stored).
        public init(
            pixelFormat: PixelFormat, dimensions: PixelSize, frameRates: [Double], isoRange: ClosedRange<Float> = 100...100,
            exposureDurationRange: ClosedRange<Duration>? = nil, bitsPerPhotosite: Int? = nil
        ) {
            self.pixelFormat = pixelFormat
            self.bitsPerPhotosite = pixelFormat.isBayer ? (bitsPerPhotosite ?? pixelFormat.bytesPerPhotosite * 8) : nil
            self.dimensions = dimensions
            self.frameRates = frameRates.sorted(by: >)
            minISO = isoRange.lowerBound
            maxISO = isoRange.upperBound
            let longest = Duration.seconds(1 / Swift.max(1, frameRates.min() ?? 30))
            minExposureDuration = exposureDurationRange?.lowerBound ?? longest
            maxExposureDuration = exposureDurationRange?.upperBound ?? longest
        }

        /// The fastest rate, in frames per second (0 when the format lists none).
        public var maxFrameRate: Double { frameRates.first ?? 0 }
        /// The slowest rate, in frames per second (0 when the format lists none).
        public var minFrameRate: Double { frameRates.last ?? 0 }

        /// Whether frames can come `duration` apart: one of ``frameRates`` (within half a percent).
        public func supportsFrameDuration(_ duration: Duration) -> Bool {
            let rate = 1 / duration.seconds
            return rate.isFinite && frameRates.contains { abs($0 - rate) <= $0 * 0.005 }
        }

        /// The format on one line, such as `mjpeg 1920×1080 @ 30/15 fps`; a Bayer format that uses fewer
        /// bits than it stores says how many (`bayerRGGB16 (12 bits) …`).
        public var description: String {
            "\(pixelFormat.rawValue)\(bitsPerPhotosite.map { $0 == pixelFormat.bytesPerPhotosite * 8 ? "" : " (\($0) bits)" } ?? "") \(dimensions) @ \(frameRates.map { String(format: "%g", $0) }.joined(separator: "/")) fps"
        }
    }
}
