import Foundation
import Synchronization

extension CaptureDevice {
    private static let registry = Mutex<[String: CaptureDevice]>([:])
    private static let syntheticOverride = Mutex<Bool?>(nil)
    /// Devices added by hand (V4L2 recordings played back in tests).
    private static let extra = Mutex<[CaptureDevice]>([])

    /// Offers a device besides the discovered ones (until it is disconnected).
    static func register(_ device: CaptureDevice) {
        extra.withLock { $0.append(device) }
    }

    /// Whether the synthetic cameras are offered: `SHOEBOX_SYNTHETIC_CAMERA=1` in the environment,
    /// or set here (which wins).
    public static var isSyntheticCameraEnabled: Bool {
        get { syntheticOverride.withLock { $0 } ?? (ProcessInfo.processInfo.environment["SHOEBOX_SYNTHETIC_CAMERA"] == "1") }
        set { syntheticOverride.withLock { $0 = newValue } }
    }

    /// Every device present now, in this order: the synthetic cameras and microphone (when
    /// enabled), V4L2 cameras, ALSA microphones, then PulseAudio sources (monitors left out), so
    /// `default(for: .audio)` is the first sound card's microphone when there is one. Devices are
    /// the same objects from call to call, so settings stay with them.
    static func allDevices() -> [CaptureDevice] {
        var found: [CaptureDevice] = []
        if isSyntheticCameraEnabled { found += SyntheticCamera.devices() + [SyntheticMicrophone.device()] }
        found += V4L2Camera.devices() + ALSAMicrophone.devices() + PulseMicrophone.devices()
        found += extra.withLock { list in
            list.removeAll { !$0.isConnected }
            return list
        }
        return registry.withLock { known in
            found.map { device in
                if let existing = known[device.uniqueID], existing.isConnected { return existing }
                known[device.uniqueID] = device
                return device
            }
        }
    }

    /// The default device for a media type: the back camera (or the first camera) for video.
    public static func `default`(for mediaType: MediaType) -> CaptureDevice? {
        let devices = allDevices().filter { $0.mediaType == mediaType }
        return devices.first { $0.position == .back } ?? devices.first
    }

    /// The device with this ``uniqueID``, if present.
    public static func device(withUniqueID uniqueID: String) -> CaptureDevice? {
        allDevices().first { $0.uniqueID == uniqueID }
    }

    /// Finds devices by type, media type and position (`AVCaptureDevice.DiscoverySession`).
    public struct DiscoverySession: Sendable {
        /// The kinds of device to find; devices of other kinds are left out.
        public let deviceTypes: [DeviceType]
        /// The media type to find; `nil` finds cameras and microphones alike.
        public let mediaType: MediaType?
        /// The position to find; ``CaptureDevice/Position/unspecified`` finds devices at any position.
        public let position: Position

        /// A search for devices of one of `deviceTypes`, of `mediaType` (any when `nil`) and at
        /// `position` (any when `.unspecified`), as
        /// `AVCaptureDevice.DiscoverySession(deviceTypes:mediaType:position:)`; ``devices`` runs it.
        public init(deviceTypes: [DeviceType], mediaType: MediaType?, position: Position) {
            self.deviceTypes = deviceTypes
            self.mediaType = mediaType
            self.position = position
        }

        /// The matching devices present now.
        public var devices: [CaptureDevice] {
            CaptureDevice.allDevices().filter { device in
                deviceTypes.contains(device.deviceType) && (mediaType == nil || device.mediaType == mediaType)
                    && (position == .unspecified || device.position == position)
            }
        }
    }
}
