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

        public init(pixelFormat: PixelFormat, dimensions: PixelSize, frameRates: [Double]) {
            self.pixelFormat = pixelFormat
            self.dimensions = dimensions
            self.frameRates = frameRates.sorted(by: >)
        }

        public var maxFrameRate: Double { frameRates.first ?? 0 }

        public var description: String {
            "\(pixelFormat.rawValue) \(dimensions) @ \(frameRates.map { String(format: "%g", $0) }.joined(separator: "/")) fps"
        }
    }
}
