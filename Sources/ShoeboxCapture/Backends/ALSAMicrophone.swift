import Foundation
import ShoeboxImaging

/// Microphones the kernel's sound cards offer (`/proc/asound/pcm`: lines like
/// `00-00: ALC3246 Analog : ALC3246 Analog : playback 1 : capture 1`). Recording from one runs
/// ffmpeg's ALSA input on `hw:CARD,DEVICE`; the device itself has nothing to configure.
struct ALSAMicrophone: CaptureDeviceBackend {
    static let prefix = "alsa:"

    static func devices(pcmList path: String = "/proc/asound/pcm") -> [CaptureDevice] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return parse(text)
    }

    /// The capture-capable PCMs in a `/proc/asound/pcm` listing.
    static func parse(_ text: String) -> [CaptureDevice] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            let fields = line.split(separator: ":", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count >= 3, fields.dropFirst(2).contains(where: { $0.hasPrefix("capture") }) else { return nil }
            let numbers = fields[0].split(separator: "-").compactMap { Int($0) }
            guard numbers.count == 2 else { return nil }
            return CaptureDevice(
                uniqueID: "\(prefix)hw:\(numbers[0]),\(numbers[1])", localizedName: fields[1], position: .unspecified,
                deviceType: .microphone, mediaType: .audio, capabilities: .init(formats: []), backend: ALSAMicrophone())
        }
    }

    /// ffmpeg's ALSA device name for a microphone's uniqueID.
    static func ffmpegDevice(_ uniqueID: String) -> String? {
        uniqueID.hasPrefix(prefix) ? String(uniqueID.dropFirst(prefix.count)) : nil
    }

    func open(_ device: CaptureDevice, format: CaptureDevice.Format, frameRate: Double, clock: ErasedClock) throws(CaptureError) -> any FrameSource {
        throw .unsupported("\(device.localizedName) is a microphone: it records through a MovieFileOutput")
    }

    func apply(_ settings: CaptureDevice.Settings, to device: CaptureDevice) throws(CaptureError) {}
    func sceneNeedsFlash(_ device: CaptureDevice) -> Bool { false }
}
