import Foundation
import ShoeboxSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The machine's cameras and microphones as last discovered, kept current by a watch on the
/// folders their device nodes appear in (`/dev` for V4L2 cameras, `/dev/snd` for sound cards).
///
/// Discovering devices blocks: each V4L2 node is opened and asked for its capabilities, ALSA's
/// listing is read, and `pactl` is run and waited for (up to two seconds when PulseAudio does
/// not answer). Callers are asked often (every picker state, every `default(for:)`), so the
/// registry discovers once, on the blocking pool, and again only when the watch sees a node come
/// or go, or when the listing is older than ``freshFor`` (PulseAudio's sources change without a
/// node: a Bluetooth headset, a network source). Until a new discovery has finished, callers get
/// the last listing.
///
/// The watch is one thread of its own that waits in `read(2)` on an inotify descriptor for the
/// life of the process: a pool thread must not be held forever.
final class CaptureDeviceRegistry: Sendable {
    /// The process's registry of real devices.
    static let shared = CaptureDeviceRegistry(
        watching: ["/dev", "/dev/snd"], freshFor: PulseMicrophone.freshFor,
        discover: { V4L2Camera.devices() + ALSAMicrophone.devices() + PulseMicrophone.devices() })

    private struct State {
        /// The last discovery's devices; `nil` before the first.
        var devices: [CaptureDevice]?
        /// When the discovery that made ``devices`` began, and the watch's generation then.
        var discoveredAt: ContinuousClock.Instant?
        var listingGeneration = 0
        /// Bumped by every change the watch sees: a listing made before it is stale.
        var generation = 0
        /// The discovery running now, if any, and the generation it began at.
        var running: (task: Task<[CaptureDevice], Never>, generation: Int)?
        /// Whether the watch was started.
        var isWatching = false

        /// Whether no node came or went since the listing was made.
        var isUnchanged: Bool { devices != nil && listingGeneration == generation }

        /// Keeps `found` as the listing unless a discovery that began later was kept already.
        mutating func record(_ found: [CaptureDevice], began: ContinuousClock.Instant, generation: Int) {
            guard discoveredAt.map({ $0 <= began }) ?? true else { return }
            devices = found
            discoveredAt = began
            listingGeneration = generation
        }
    }

    /// How long a listing is trusted without a change from the watch.
    let freshFor: Duration
    private let folders: [String]
    private let discover: @Sendable () -> [CaptureDevice]
    private let state = Mutex(State())

    /// A registry of what `discover` finds, watching `folders` (those that exist) for nodes
    /// coming and going.
    init(watching folders: [String], freshFor: Duration, discover: @escaping @Sendable () -> [CaptureDevice]) {
        self.folders = folders
        self.freshFor = freshFor
        self.discover = discover
    }

    /// The devices now. The last listing when no node came or went since it was made (when it
    /// has aged past ``freshFor`` a new discovery starts in the background and the next caller
    /// gets its result); otherwise a new discovery's result, awaited without holding a thread.
    func devices() async -> [CaptureDevice] {
        let cached = state.withLock { state -> [CaptureDevice]? in
            startWatchingIfNeeded(&state)
            guard state.isUnchanged, let devices = state.devices else { return nil }
            if let at = state.discoveredAt, ContinuousClock.now - at >= freshFor { _ = startDiscovery(&state) }
            return devices
        }
        if let cached { return cached }
        return await state.withLock { startDiscovery(&$0) }.value
    }

    /// The devices now, for synchronous callers (``CaptureDevice/DiscoverySession/devices``):
    /// the last listing, with a new discovery started in the background when a node came or
    /// went or the listing aged. Only the first call of a process, before any listing exists,
    /// discovers in the caller's thread.
    func devicesNow() -> [CaptureDevice] {
        let cached = state.withLock { state -> [CaptureDevice]? in
            startWatchingIfNeeded(&state)
            guard let devices = state.devices else { return nil }
            if !state.isUnchanged || state.discoveredAt.map({ ContinuousClock.now - $0 >= freshFor }) ?? true {
                _ = startDiscovery(&state)
            }
            return devices
        }
        if let cached { return cached }
        let began = ContinuousClock.now
        let generation = state.withLock { $0.generation }
        let found = discover()
        state.withLock { state in
            if state.devices == nil { state.record(found, began: began, generation: generation) }
        }
        return found
    }

    /// Marks the listing stale: the next call discovers again (what the watch does when a node
    /// comes or goes; also a test's new device).
    func invalidate() {
        state.withLock { $0.generation += 1 }
    }

    /// Starts a discovery on the blocking pool unless one that began at the current generation
    /// runs; returns the one that will answer for now.
    private func startDiscovery(_ state: inout State) -> Task<[CaptureDevice], Never> {
        if let running = state.running, running.generation == state.generation { return running.task }
        let generation = state.generation
        let discover = self.discover
        let task = Task<[CaptureDevice], Never> {
            let began = ContinuousClock.now
            let found = await BlockingPool.shared.run { discover() }
            self.state.withLock { state in
                if state.running?.generation == generation { state.running = nil }
                state.record(found, began: began, generation: generation)
            }
            return found
        }
        state.running = (task, generation)
        return task
    }

    /// Starts the watch on the first call.
    private func startWatchingIfNeeded(_ state: inout State) {
        guard !state.isWatching else { return }
        state.isWatching = true
        let descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { return }
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB)
        let watched = folders.filter { inotify_add_watch(descriptor, $0, mask | UInt32(IN_ONLYDIR)) >= 0 }
        guard !watched.isEmpty else {
            close(descriptor)
            return
        }
        // The thread holds the registry weakly and looks once a second whether it is gone (a
        // test's registry), so that it ends with it.
        let thread = Thread { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while self != nil {
                let polled = poll(&ready, 1, 1000)
                if polled < 0, errno != EINTR { break }
                guard polled > 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                // Any node coming or going may be a camera or a sound card: the listing is stale.
                self?.invalidate()
            }
            close(descriptor)
        }
        thread.name = "shoebox-device-watch"
        thread.start()
    }
}
