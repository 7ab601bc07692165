import Foundation
import ShoeboxTesting
import Testing

/// A recursive watch reports what a folder held when it appeared (a tree moved in at once, or a
/// file made in a new folder before the watch reached it), each path once.
@Suite struct FolderWatchTests {
    @Test func aTreeMovedInIsReportedWholeAndOnce() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("folderwatch-\(UUID().uuidString)")
        let watched = base.appendingPathComponent("watched")
        let outside = base.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: watched, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside.appendingPathComponent("b"), withIntermediateDirectories: true)
        try Data("one".utf8).write(to: outside.appendingPathComponent("b/one.txt"))
        defer { try? FileManager.default.removeItem(at: base) }

        let watch = try FolderWatch(watched)
        try FileManager.default.moveItem(at: outside, to: watched.appendingPathComponent("a"))
        let moved = try await watch.events(count: 3, where: { $0.kind == .created }, timeout: .seconds(10))
        #expect(moved.map(\.description) == ["created a/", "created a/b/", "created a/b/one.txt"])

        // The folders are watched now: a later file is reported by inotify, once.
        try Data("two".utf8).write(to: watched.appendingPathComponent("a/b/two.txt"))
        let later = try await watch.events(count: 2, where: { $0.kind == .created }, timeout: .seconds(2))
        #expect(later.map(\.description) == ["created a/b/two.txt"])
    }
}
