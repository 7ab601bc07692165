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
        }

        public let pixelFormat: PixelFormat
        /// Frame size in pixels.
        public let dimensions: PixelSize
        /// Frame rates it supports, highest first.
        public let frameRates: [Double]
        /// The sensitivity a custom exposure may set (``CaptureDevice/setExposureModeCustom(duration:iso:)``).
        public let minISO: Float
        public let maxISO: Float
        /// The exposure times a custom exposure may set.
        public let minExposureDuration: Duration
        public let maxExposureDuration: Duration

        public init(pixelFormat: PixelFormat, dimensions: PixelSize, frameRates: [Double], isoRange: ClosedRange<Float> = 100...100,
                    exposureDurationRange: ClosedRange<Duration>? = nil) {
            self.pixelFormat = pixelFormat
            self.dimensions = dimensions
            self.frameRates = frameRates.sorted(by: >)
            minISO = isoRange.lowerBound
            maxISO = isoRange.upperBound
            let longest = Duration.seconds(1 / Swift.max(1, frameRates.min() ?? 30))
            minExposureDuration = exposureDurationRange?.lowerBound ?? longest
            maxExposureDuration = exposureDurationRange?.upperBound ?? longest
        }

        public var maxFrameRate: Double { frameRates.first ?? 0 }
        public var minFrameRate: Double { frameRates.last ?? 0 }

        /// Whether frames can come `duration` apart: one of ``frameRates`` (within half a percent).
        public func supportsFrameDuration(_ duration: Duration) -> Bool {
            let rate = 1 / duration.seconds
            return rate.isFinite && frameRates.contains { abs($0 - rate) <= $0 * 0.005 }
        }

        public var description: String {
            "\(pixelFormat.rawValue) \(dimensions) @ \(frameRates.map { String(format: "%g", $0) }.joined(separator: "/")) fps"
        }
    }
}
