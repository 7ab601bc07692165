import Dispatch
import Foundation
import ShoeboxImaging
import ShoeboxMedia
internal import Subprocess
import Synchronization

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// Microphones a PulseAudio server offers (PipeWire's Pulse server too): the sources that
/// `pactl list short sources` lists, one a line, tab-separated:
///
/// ```
/// 0	alsa_output.pci-0000_00_1f.3.analog-stereo.monitor	module-alsa-card.c	s16le 2ch 44100Hz	SUSPENDED
/// 1	alsa_input.pci-0000_00_1f.3.analog-stereo	module-alsa-card.c	s16le 2ch 44100Hz	RUNNING
/// ```
///
/// Monitor sources (`….monitor`, what an output plays) are not microphones and are left out.
/// Recording from a source runs ffmpeg's PulseAudio input on its name. Without `pactl` (or
/// `SHOEBOX_PACTL`), or without a running server, there are none.
struct PulseMicrophone: CaptureDeviceBackend {
    static let prefix = "pulse:"
    /// The `pactl` to run: `SHOEBOX_PACTL`, else `pactl` on the `PATH`.
    static let pactlName = ProcessInfo.processInfo.environment["SHOEBOX_PACTL"] ?? "pactl"
    /// A listing is reused this long: discovery is asked often (every `default(for:)`).
    static let freshFor: Duration = .seconds(2)
    /// Discovery waits this long for `pactl`; a server that does not answer lists none.
    static let timeout: Duration = .seconds(2)

    private static let cache = Mutex<[String: (at: ContinuousClock.Instant, devices: [CaptureDevice])]>([:])

    /// The server's sources, through `pactl` (cached for ``freshFor``).
    static func devices(pactl: String = pactlName) -> [CaptureDevice] {
        if let cached = cache.withLock({ $0[pactl] }), ContinuousClock.now - cached.at < freshFor { return cached.devices }
        let devices = listing(pactl: pactl).map(parse) ?? []
        cache.withLock { $0[pactl] = (.now, devices) }
        return devices
    }

    /// The microphones in a `pactl list short sources` listing, in its order, monitors left out.
    static func parse(_ text: String) -> [CaptureDevice] {
        var seen = Set<String>()
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            var fields = line.split(separator: "\t", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            if fields.count < 2 { fields = line.split(whereSeparator: \.isWhitespace).map(String.init) }
            guard fields.count >= 2, Int(fields[0]) != nil else { return nil }
            let name = fields[1]
            guard !name.isEmpty, !name.hasSuffix(".monitor"), seen.insert(name).inserted else { return nil }
            return CaptureDevice(
                uniqueID: prefix + name, localizedName: "\(name) (PulseAudio)", position: .unspecified,
                deviceType: .microphone, mediaType: .audio, capabilities: .init(formats: []), backend: PulseMicrophone())
        }
    }

    /// The PulseAudio source name for a microphone's uniqueID (what ffmpeg's `-f pulse -i` takes).
    static func sourceName(_ uniqueID: String) -> String? {
        uniqueID.hasPrefix(prefix) ? String(uniqueID.dropFirst(prefix.count)) : nil
    }

    /// `pactl list short sources`' output, or `nil` when `pactl` is missing, fails (no server) or
    /// does not answer within `timeout`.
    ///
    /// Discovery is synchronous, so this waits for the subprocess: the subprocess runs on an
    /// executor of its own, never on the thread that waits (which may be one of the cooperative
    /// pool's few).
    static func listing(pactl: String, timeout: Duration = timeout) -> String? {
        guard let executable = locate(pactl) else { return nil }
        let outcome = Outcome()
        Task(executorPreference: PactlExecutor.shared) {
            outcome.finish(await run(executable))
        }
        guard outcome.done.wait(timeout: .now() + timeout.seconds) == .success else { return nil }
        return outcome.text.withLock { $0 }
    }

    private static func run(_ executable: FilePath) async -> String? {
        do {
            let result = try await Subprocess.run(
                .path(executable), arguments: ["list", "short", "sources"],
                output: .string(limit: 1 << 20), error: .discarded)
            return result.terminationStatus.isSuccess ? result.standardOutput : nil
        } catch {
            return nil
        }
    }

    /// An absolute path as it is, or a name found on the `PATH`; `nil` when it is not there.
    static func locate(_ tool: String) -> FilePath? {
        let files = FileManager.default
        if tool.contains("/") { return files.isExecutableFile(atPath: tool) ? FilePath(tool) : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(tool)"
            if files.isExecutableFile(atPath: candidate) { return FilePath(candidate) }
        }
        return nil
    }

    /// What a `pactl` run came to, for the thread that waits.
    private final class Outcome: Sendable {
        let text = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)

        func finish(_ text: String?) {
            self.text.withLock { $0 = text }
            done.signal()
        }
    }

    /// Runs `pactl`'s task on a serial queue of its own.
    private final class PactlExecutor: TaskExecutor {
        static let shared = PactlExecutor()
        private let queue = DispatchQueue(label: "shoebox.capture.pactl")

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let executor = asUnownedTaskExecutor()
            queue.async { job.runSynchronously(on: executor) }
        }

        func asUnownedTaskExecutor() -> UnownedTaskExecutor {
            UnownedTaskExecutor(ordinary: self)
        }
    }

    func open(_ device: CaptureDevice, format: CaptureDevice.Format, frameRate: Double, clock: ErasedClock) throws(CaptureError) -> any FrameSource {
        throw .unsupported("\(device.localizedName) is a microphone: it records through a MovieFileOutput")
    }

    func apply(_ settings: CaptureDevice.Settings, to device: CaptureDevice) throws(CaptureError) {}
    func sceneNeedsFlash(_ device: CaptureDevice) -> Bool { false }
}

extension CaptureDevice {
    /// What a recording hears from this microphone: its ALSA device or PulseAudio source through
    /// ffmpeg, else (the synthetic microphone) a 440 Hz tone.
    var movieAudio: MovieWriter.Audio {
        if let device = ALSAMicrophone.ffmpegDevice(uniqueID) { return .alsa(device) }
        if let source = PulseMicrophone.sourceName(uniqueID) { return .pulse(source) }
        return .syntheticTone
    }
}
