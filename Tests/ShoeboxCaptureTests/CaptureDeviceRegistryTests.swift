import Foundation
import Synchronization
import Testing

@testable import ShoeboxCapture

/// The registry of the machine's devices on a folder of its own standing in for `/dev`: a
/// "camera" is a file named `video…` in it, and discovery counts how often it runs.
@Suite struct CaptureDeviceRegistryTests {
    /// A folder of fake device nodes and a discovery that lists one synthetic camera per node.
    final class FakeDevices: Sendable {
        let folder: URL
        let discoveries = Atomic<Int>(0)
        /// Devices without a node in the folder (as PulseAudio lists a Bluetooth source).
        let nodeless = Atomic<Int>(0)
        let threadNames = Mutex<[String]>([])

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-dev-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        func discover() -> [CaptureDevice] {
            discoveries.add(1, ordering: .relaxed)
            threadNames.withLock { $0.append(Thread.current.name ?? "") }
            let nodes = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix("video") }
            return Array(SyntheticCamera.devices().prefix(nodes.count + nodeless.load(ordering: .relaxed)))
        }

        func plug(_ name: String) throws { try Data().write(to: folder.appendingPathComponent(name)) }
        func unplug(_ name: String) throws { try FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }

        func registry(freshFor: Duration = .seconds(3600)) -> CaptureDeviceRegistry {
            CaptureDeviceRegistry(watching: [folder.path], freshFor: freshFor, discover: { [self] in discover() })
        }
    }

    /// Asks `registry` until it lists `count` devices, for at most 10 s; returns what it last listed.
    static func awaitListing(of count: Int, in registry: CaptureDeviceRegistry) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(10)
        var listed = await registry.devices().count
        while listed != count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            listed = await registry.devices().count
        }
        return listed
    }

    @Test func aListingIsReusedUntilADeviceNodeComesOrGoes() async throws {
        let devices = try FakeDevices()
        try devices.plug("video0")
        let registry = devices.registry()

        #expect(await registry.devices().count == 1)
        for _ in 0..<20 { _ = await registry.devices() }
        #expect(registry.devicesNow().count == 1)
        #expect(devices.discoveries.load(ordering: .relaxed) == 1, "21 asks, one discovery")

        try devices.plug("video1")
        #expect(try await Self.awaitListing(of: 2, in: registry) == 2, "the watch saw video1 come")
        try devices.unplug("video0")
        try devices.unplug("video1")
        #expect(try await Self.awaitListing(of: 0, in: registry) == 0, "and both go")
        // A node that is not a camera's is still a change (a sound card's, say): one more
        // discovery, and the listing stays right.
        let before = devices.discoveries.load(ordering: .relaxed)
        try devices.plug("controlC0")
        let deadline = ContinuousClock.now + .seconds(10)
        while devices.discoveries.load(ordering: .relaxed) == before, ContinuousClock.now < deadline {
            _ = await registry.devices()
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(devices.discoveries.load(ordering: .relaxed) > before)
        #expect(await registry.devices().isEmpty)
    }

    @Test func discoveryRunsOnTheBlockingPoolExceptAProcesssFirstSynchronousAsk() async throws {
        let devices = try FakeDevices()
        try devices.plug("video0")
        let asyncFirst = devices.registry()
        _ = await asyncFirst.devices()
        #expect(devices.threadNames.withLock { $0 }.allSatisfy { $0.hasPrefix("TP-#") }, "NIO's pool threads are named TP-#N")

        let other = try FakeDevices()
        let syncFirst = other.registry()
        #expect(syncFirst.devicesNow().isEmpty)
        let names = other.threadNames.withLock { $0 }
        #expect(names.count == 1 && !names[0].hasPrefix("TP-#"), "no listing yet: the first synchronous ask discovers in place")
    }

    @Test func anAgedListingAnswersAtOnceWhileANewOneIsMade() async throws {
        let devices = try FakeDevices()
        try devices.plug("video0")
        let registry = devices.registry(freshFor: .milliseconds(1))
        #expect(await registry.devices().count == 1)
        try await Task.sleep(for: .milliseconds(5))
        // A change without a node (a PulseAudio source) shows only once the listing has aged:
        // the aged listing answers, and the discovery it started brings the change.
        devices.nodeless.store(1, ordering: .relaxed)
        #expect(await registry.devices().count == 1, "the aged listing answers at once")
        #expect(try await Self.awaitListing(of: 2, in: registry) == 2)
    }
}
