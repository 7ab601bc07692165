import Synchronization

/// Values in memory under a byte budget, the least recently used out first: the image managers'
/// decoded images and the server's sent thumbnails.
///
/// Each value has a cost in bytes. Inserting past ``byteLimit`` removes the least recently used
/// values until the total is at most `byteLimit × retainedFraction` (1 removes just enough; ¾
/// removes a quarter of the budget in one pass, so a full cache does not sort on every insert). A
/// value that alone costs more than `byteLimit × largestFraction` is not kept.
package final class LeastRecentlyUsedCache<Value: Sendable>: Sendable {
    private struct Entry {
        let value: Value
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
    private let retainedFraction: Double
    private let largestFraction: Double

    package init(byteLimit: Int, retainedFraction: Double = 1, largestFraction: Double = 1) {
        precondition(byteLimit >= 0 && (0...1).contains(retainedFraction) && (0...1).contains(largestFraction))
        state = Mutex(State(byteLimit: byteLimit))
        self.retainedFraction = retainedFraction
        self.largestFraction = largestFraction
    }

    /// The budget; lowering it removes values at once.
    package var byteLimit: Int {
        get { state.withLock { $0.byteLimit } }
        set {
            state.withLock { state in
                state.byteLimit = newValue
                evict(&state)
            }
        }
    }

    /// What the values held now cost together.
    package var totalCost: Int { state.withLock { $0.totalCost } }

    /// How many values are held.
    package var count: Int { state.withLock { $0.entries.count } }

    /// The value for `key`, now the most recently used — unless `isCurrent` says it is stale,
    /// which removes it.
    package func value(forKey key: String, isCurrent: (Value) -> Bool = { _ in true }) -> Value? {
        state.withLock { state in
            // One hash of the key: the entry is found once and marked used in place.
            guard let index = state.entries.index(forKey: key) else { return nil }
            guard isCurrent(state.entries.values[index].value) else {
                state.totalCost -= state.entries.values[index].cost
                state.entries.remove(at: index)
                return nil
            }
            state.clock += 1
            state.entries.values[index].lastUse = state.clock
            return state.entries.values[index].value
        }
    }

    package func insert(_ value: Value, cost: Int, forKey key: String) {
        state.withLock { state in
            guard Double(cost) <= Double(state.byteLimit) * largestFraction else { return }
            state.clock += 1
            if let old = state.entries[key] { state.totalCost -= old.cost }
            state.entries[key] = Entry(value: value, cost: cost, lastUse: state.clock)
            state.totalCost += cost
            evict(&state)
        }
    }

    package func remove(keys: some Sequence<String>) {
        state.withLock { state in
            for key in keys {
                if let old = state.entries.removeValue(forKey: key) { state.totalCost -= old.cost }
            }
        }
    }

    package func removeAll() {
        state.withLock { state in
            state.entries.removeAll()
            state.totalCost = 0
        }
    }

    private func evict(_ state: inout State) {
        guard state.totalCost > state.byteLimit else { return }
        let target = Int(Double(state.byteLimit) * retainedFraction)
        for (key, entry) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard state.totalCost > target else { break }
            state.entries[key] = nil
            state.totalCost -= entry.cost
        }
    }
}
