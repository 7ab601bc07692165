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
    /// the same objects from call to call, so settings stay with them. The machine's devices
    /// come from ``CaptureDeviceRegistry``'s last listing (only a process's first call
    /// discovers them in the caller's thread); ``allDevices()-(async)`` waits for a current one
    /// without holding a thread.
    static func allDevices() -> [CaptureDevice] {
        devices(adding: CaptureDeviceRegistry.shared.devicesNow())
    }

    /// Every device present now, as ``allDevices()``, the machine's discovered on the blocking
    /// pool when the last listing is out of date.
    static func allDevices() async -> [CaptureDevice] {
        devices(adding: await CaptureDeviceRegistry.shared.devices())
    }

    /// The synthetic devices (when enabled), then `machine`'s, then those registered by hand, as
    /// the objects handed out before where they are still connected.
    private static func devices(adding machine: [CaptureDevice]) -> [CaptureDevice] {
        var found: [CaptureDevice] = []
        if isSyntheticCameraEnabled { found += SyntheticCamera.devices() + [SyntheticMicrophone.device()] }
        found += machine
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

    /// The default device for a media type, as ``default(for:)``, from a current listing
    /// (discovered on the blocking pool when a device node came or went).
    public static func `default`(for mediaType: MediaType) async -> CaptureDevice? {
        let devices = await allDevices().filter { $0.mediaType == mediaType }
        return devices.first { $0.position == .back } ?? devices.first
    }

    /// The device with this ``uniqueID``, as ``device(withUniqueID:)``, from a current listing.
    public static func device(withUniqueID uniqueID: String) async -> CaptureDevice? {
        await allDevices().first { $0.uniqueID == uniqueID }
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

        /// The matching devices present now, from the machine's last listing: only a process's
        /// first discovery blocks the caller. The listing is kept current by a watch on `/dev`
        /// and `/dev/snd`; async code asks ``currentDevices`` instead.
        public var devices: [CaptureDevice] {
            CaptureDevice.allDevices().filter(matches)
        }

        /// The matching devices present now, waiting (without holding a thread) for a discovery
        /// on Shoebox's blocking pool when a device node came or went since the last listing.
        public var currentDevices: [CaptureDevice] {
            get async { await CaptureDevice.allDevices().filter(matches) }
        }

        private func matches(_ device: CaptureDevice) -> Bool {
            deviceTypes.contains(device.deviceType) && (mediaType == nil || device.mediaType == mediaType)
                && (position == .unspecified || device.position == position)
        }
    }
}
