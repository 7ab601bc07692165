import Foundation
import ShoeboxImaging
import ShoeboxMedia
import Testing

@testable import ShoeboxCapture

extension CaptureSuites {
    /// PulseAudio sources, from recorded `pactl list short sources` output: no Pulse server runs on
    /// the machines this runs on.
    @Suite struct PulseMicrophoneTests {
        /// PulseAudio on a laptop with a USB headset (tab-separated, as pactl prints it).
        static let pulseListing = """
            0\talsa_output.pci-0000_00_1f.3.analog-stereo.monitor\tmodule-alsa-card.c\ts16le 2ch 44100Hz\tSUSPENDED
            1\talsa_input.pci-0000_00_1f.3.analog-stereo\tmodule-alsa-card.c\ts16le 2ch 44100Hz\tSUSPENDED
            2\talsa_output.usb-Logitech_USB_Headset-00.analog-stereo.monitor\tmodule-alsa-card.c\ts16le 2ch 48000Hz\tIDLE
            3\talsa_input.usb-Logitech_USB_Headset-00.mono-fallback\tmodule-alsa-card.c\ts16le 1ch 48000Hz\tRUNNING

            """

        /// PipeWire's Pulse server.
        static let pipewireListing = """
            45\talsa_output.pci-0000_00_1f.3.analog-stereo.monitor\tPipeWire\ts32le 2ch 48000Hz\tSUSPENDED
            46\talsa_input.pci-0000_00_1f.3.analog-stereo\tPipeWire\ts32le 2ch 48000Hz\tSUSPENDED
            """

        @Test func sourcesAreMicrophonesAndMonitorsAreLeftOut() {
            let devices = PulseMicrophone.parse(Self.pulseListing)
            #expect(
                devices.map(\.uniqueID) == [
                    "pulse:alsa_input.pci-0000_00_1f.3.analog-stereo", "pulse:alsa_input.usb-Logitech_USB_Headset-00.mono-fallback",
                ])
            #expect(devices.allSatisfy { $0.mediaType == .audio && $0.deviceType == .microphone && $0.position == .unspecified })
            #expect(devices.first?.localizedName == "alsa_input.pci-0000_00_1f.3.analog-stereo (PulseAudio)")
            #expect(PulseMicrophone.parse(Self.pipewireListing).map(\.uniqueID) == ["pulse:alsa_input.pci-0000_00_1f.3.analog-stereo"])
            // Space-separated (as some terminals copy it), junk and an empty listing.
            #expect(
                PulseMicrophone.parse("7 bluez_input.00_11_22 module-bluez5-device.c s16le 1ch 16000Hz RUNNING").map(\.uniqueID)
                    == ["pulse:bluez_input.00_11_22"])
            #expect(PulseMicrophone.parse("Connection failure: Connection refused\n").isEmpty)
            #expect(PulseMicrophone.parse("").isEmpty)
        }

        @Test func recordingsHearTheSourceThroughFFmpegsPulseInput() throws {
            let device = try #require(PulseMicrophone.parse(Self.pulseListing).last)
            #expect(PulseMicrophone.sourceName(device.uniqueID) == "alsa_input.usb-Logitech_USB_Headset-00.mono-fallback")
            #expect(device.movieAudio == .pulse("alsa_input.usb-Logitech_USB_Headset-00.mono-fallback"))
            #expect(try #require(ALSAMicrophone.parse("01-00: USB Audio : USB Audio : capture 1").first).movieAudio == .alsa("hw:1,0"))
            #expect(SyntheticMicrophone.device().movieAudio == .syntheticTone)
            #expect(PulseMicrophone.sourceName("alsa:hw:1,0") == nil)
            #expect(throws: CaptureError.self) {
                _ = try device.backend.open(
                    device, format: CaptureDevice.Format(pixelFormat: .rgb, dimensions: .init(width: 1, height: 1), frameRates: [1]),
                    frameRate: 1)
            }
        }

        @Test func pactlRunsAsASubprocess() throws {
            // A stand-in pactl that prints the recorded listing, and one that finds no server.
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-pactl-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let listing = folder.appendingPathComponent("listing.txt")
            try Self.pulseListing.write(to: listing, atomically: true, encoding: .utf8)
            let pactl = folder.appendingPathComponent("pactl")
            try """
            #!/bin/sh
            [ "$1 $2 $3" = "list short sources" ] || exit 2
            cat '\(listing.path)'
            """.write(to: pactl, atomically: true, encoding: .utf8)
            let noServer = folder.appendingPathComponent("pactl-no-server")
            try "#!/bin/sh\necho 'Connection failure: Connection refused' >&2\nexit 1\n".write(to: noServer, atomically: true, encoding: .utf8)
            for script in [pactl, noServer] {
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
            }
            #expect(PulseMicrophone.devices(pactl: pactl.path).map(\.uniqueID) == PulseMicrophone.parse(Self.pulseListing).map(\.uniqueID))
            #expect(PulseMicrophone.devices(pactl: noServer.path).isEmpty)
            #expect(PulseMicrophone.devices(pactl: folder.appendingPathComponent("missing").path).isEmpty)
        }

        @Test func discoveryWithoutPactlListsNoneAndDoesNotFail() throws {
            // A pactl that is missing, that fails, or that never answers: no microphones, no error,
            // and no waiting past the timeout.
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-pactl-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let hangs = folder.appendingPathComponent("pactl-hangs")
            try "#!/bin/sh\nsleep 30\n".write(to: hangs, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hangs.path)
            #expect(PulseMicrophone.devices(pactl: "shoebox-no-such-pactl").isEmpty)
            #expect(PulseMicrophone.devices(pactl: "/bin/false").isEmpty)
            let started = ContinuousClock.now
            #expect(PulseMicrophone.devices(pactl: hangs.path).isEmpty)
            let waited = ContinuousClock.now - started
            #expect(waited < PulseMicrophone.timeout + .seconds(2), "discovery waited \(waited) for a pactl that never answers")
            // Discovery lists the sound cards' microphones, then whatever the Pulse server offers
            // (none here without pactl), and nothing else.
            let microphones = CaptureDevice.DiscoverySession(deviceTypes: [.microphone], mediaType: .audio, position: .unspecified).devices
                .filter { !$0.uniqueID.hasPrefix("synthetic") }
            #expect(microphones.map(\.uniqueID) == (ALSAMicrophone.devices() + PulseMicrophone.devices()).map(\.uniqueID))
            if PulseMicrophone.locate("pactl") == nil {
                #expect(!microphones.contains { $0.uniqueID.hasPrefix(PulseMicrophone.prefix) })
            }
        }
    }
}
