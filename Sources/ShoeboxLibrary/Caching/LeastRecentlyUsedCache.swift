import Foundation
import ShoeboxImaging
import Synchronization

/// Decoded or encoded images in memory under a byte budget, least recently used out first.
final class MemoryImageCache: Sendable {
    private struct Entry {
        let image: Image
        let pixelSize: PixelSize
        let cost: Int
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var totalCost = 0
        var clock: UInt64 = 0
        var byteLimit: Int
    }

    private let state: Mutex<State>

    init(byteLimit: Int) {
        state = Mutex(State(byteLimit: byteLimit))
    }

    var byteLimit: Int {
        get { state.withLock { $0.byteLimit } }
        set {
            state.withLock { state in
                state.byteLimit = newValue
                Self.evict(&state)
            }
        }
    }

    var totalCost: Int { state.withLock { $0.totalCost } }

    func image(forKey key: String) -> (image: Image, pixelSize: PixelSize)? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return (entry.image, entry.pixelSize)
        }
    }

    func insert(_ image: Image, pixelSize: PixelSize, cost: Int, forKey key: String) {
        state.withLock { state in
            state.clock += 1
            if let old = state.entries[key] { state.totalCost -= old.cost }
            state.entries[key] = Entry(image: image, pixelSize: pixelSize, cost: cost, lastUse: state.clock)
            state.totalCost += cost
            Self.evict(&state)
        }
    }

    func remove(keys: some Sequence<String>) {
        state.withLock { state in
            for key in keys {
                if let old = state.entries.removeValue(forKey: key) { state.totalCost -= old.cost }
            }
        }
    }

    func removeAll() {
        state.withLock { state in
            state.entries.removeAll()
            state.totalCost = 0
        }
    }

    private static func evict(_ state: inout State) {
        while state.totalCost > state.byteLimit, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            state.entries.removeValue(forKey: oldest.key)
            state.totalCost -= oldest.value.cost
        }
    }
}
