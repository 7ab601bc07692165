/// A microphone that hears a 440 Hz tone: offered with the synthetic cameras; recordings with it
/// carry the tone as AAC.
enum SyntheticMicrophone {
    static let uniqueID = "synthetic-microphone"

    static func device() -> CaptureDevice {
        CaptureDevice(
            uniqueID: uniqueID, localizedName: "Synthetic Microphone", position: .unspecified, deviceType: .microphone,
            mediaType: .audio, capabilities: .init(formats: []), backend: SyntheticCamera())
    }
}
