import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// Picker sessions' writes, as other servers' registries watch for them: woken at once by this
/// process's writes, named by identifier, and never reported to asset and album observers.
@Suite struct PickerSessionWritesTests {
    @Test func aWriteWakesTheWatcherAndNoAssetObserver() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let record = PickerSessionRecord(id: "fedcba9876543210", owner: "com.example.app", request: Data("{}".utf8), state: Data("{}".utf8))
        let end = try await library.changeLogEnd()
        let changes = try await library.changes(pollingEvery: .seconds(30))
        let waiting = Task { try await library.pickerSessionWrites(after: end, timeout: .seconds(60)) }
        try await library.addPickerSession(record)
        let started = ContinuousClock.now
        let writes = try await waiting.value
        #expect(ContinuousClock.now - started < .seconds(30), "the write did not wake the wait")
        #expect(writes.identifiers == [record.id] && writes.end > end)
        // A refused write (an old version) adds nothing; a written one wakes the next wait.
        #expect(try await library.updatePickerSession(id: record.id, state: Data("{}".utf8), finished: false, over: 7) == nil)
        #expect(try await library.updatePickerSession(id: record.id, state: Data("{}".utf8), finished: true, over: 1) == 2)
        let again = try await library.pickerSessionWrites(after: writes.end, timeout: .seconds(60))
        #expect(again.identifiers == [record.id])
        #expect(try await library.pickerSessionWrites(after: again.end, timeout: .milliseconds(1)).identifiers.isEmpty)
        // Asset observers hear the next asset change, not the session's writes before it.
        let imported = try await temporary.importFiles([try temporary.photo("after.jpg", seed: 3)])
        let change = try await withTimeLimit(.seconds(30)) { () -> PhotoLibraryChange? in
            for try await change in changes { return change }
            return nil
        }
        #expect(change?.insertedAssetIdentifiers == Set(imported), "the first change observers heard: \(String(describing: change))")
    }
}
