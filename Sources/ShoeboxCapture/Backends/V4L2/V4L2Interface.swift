import Foundation

/// The ioctl-level seam of the V4L2 backend: the calls Shoebox makes of a `/dev/video*` device,
/// answered by the device (``V4L2DeviceFile``) or by a recording of one (``V4L2Replay``), so that
/// the backend's logic is tested without a camera. Each call returns 0 or a negative errno.
protocol V4L2Interface: AnyObject, Sendable {
    func queryCapabilities() -> Result<(card: String, bus: String, capabilities: UInt32), V4L2Error>
    func enumerateFormat(index: UInt32) -> Result<UInt32, V4L2Error>
    func enumerateSize(fourcc: UInt32, index: UInt32) -> Result<(width: UInt32, height: UInt32), V4L2Error>
    func enumerateInterval(fourcc: UInt32, width: UInt32, height: UInt32, index: UInt32) -> Result<(numerator: UInt32, denominator: UInt32), V4L2Error>
    func queryControl(id: UInt32) -> Result<V4L2Control, V4L2Error>
    func setControl(id: UInt32, value: Int32) -> Result<Void, V4L2Error>
    func setFormat(fourcc: UInt32, width: UInt32, height: UInt32) -> Result<(width: UInt32, height: UInt32), V4L2Error>
    func setFrameInterval(numerator: UInt32, denominator: UInt32) -> Result<Void, V4L2Error>
    func startStreaming(buffers: UInt32) -> Result<Void, V4L2Error>
    /// The next frame's bytes (copied out of the driver's buffer, which is then queued again).
    func nextFrame(timeoutMilliseconds: Int32) -> Result<Data, V4L2Error>
    func stopStreaming()
    func close()
}

/// A control's range.
struct V4L2Control: Sendable, Hashable, Codable {
    var id: UInt32
    var minimum: Int32
    var maximum: Int32
    var step: Int32
    var defaultValue: Int32
}

/// An errno from a V4L2 call.
struct V4L2Error: Error, Sendable, Hashable {
    let errno: Int32

    static let invalid = V4L2Error(errno: EINVAL)
    static let noDevice = V4L2Error(errno: ENODEV)
    static let timedOut = V4L2Error(errno: EAGAIN)
    static let busy = V4L2Error(errno: EBUSY)

    /// Another program streams from the device (or holds its buffers).
    var isBusy: Bool { errno == EBUSY }

    /// The device is gone (unplugged).
    var isUnplug: Bool { errno == ENODEV || errno == EIO || errno == ENXIO }
    var message: String { String(cString: strerror(errno)) }
}

/// Four-character codes.
enum FourCC {
    static let mjpeg = code("MJPG")
    static let yuyv = code("YUYV")

    /// V4L2's unpacked Bayer formats (one photosite in one byte, or in two little-endian bytes
    /// with its bits at the bottom): their pixel format and bits a photosite.
    static let bayer: [UInt32: (CaptureDevice.Format.PixelFormat, Int)] = [
        code("BA81"): (.bayerBGGR8, 8), code("GBRG"): (.bayerGBRG8, 8), code("GRBG"): (.bayerGRBG8, 8), code("RGGB"): (.bayerRGGB8, 8),
        code("BG10"): (.bayerBGGR16, 10), code("GB10"): (.bayerGBRG16, 10), code("BA10"): (.bayerGRBG16, 10), code("RG10"): (.bayerRGGB16, 10),
        code("BG12"): (.bayerBGGR16, 12), code("GB12"): (.bayerGBRG16, 12), code("BA12"): (.bayerGRBG16, 12), code("RG12"): (.bayerRGGB16, 12),
        code("BG14"): (.bayerBGGR16, 14), code("GB14"): (.bayerGBRG16, 14), code("GR14"): (.bayerGRBG16, 14), code("RG14"): (.bayerRGGB16, 14),
        code("BYR2"): (.bayerBGGR16, 16), code("GB16"): (.bayerGBRG16, 16), code("GR16"): (.bayerGRBG16, 16), code("RG16"): (.bayerRGGB16, 16),
    ]

    static func code(_ text: String) -> UInt32 {
        text.utf8.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    static func text(_ code: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8((code >> (8 * $0)) & 0xFF) }, as: UTF8.self)
    }
}
