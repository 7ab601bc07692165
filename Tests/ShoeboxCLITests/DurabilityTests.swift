import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

/// Durability as SECURITY.md promises it: when `shoebox import` reports an asset saved, its
/// original and the catalog row that makes it visible are on disk. Proven on the system calls
/// themselves (strace): the staged original is flushed before it is renamed into place, its
/// folder is flushed after the rename and before the catalog commit, and the catalog's WAL is
/// flushed after the commit's last write and before the result is printed.
@Suite struct DurabilityTests {
    @Test func anImportIsOnDiskBeforeItIsReported() async throws {
        let strace = "/usr/bin/strace"
        try #require(FileManager.default.isExecutableFile(atPath: strace), "strace is installed by scripts/install-deps")
        let executable = try #require(CLIRunner.executable)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-durable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("Durable.shoebox").path
        let photo = folder.appendingPathComponent("durable.jpg")
        try SyntheticPhoto(width: 640, height: 480, seed: 11).image().write(to: photo)
        _ = try CLIRunner.run(["init", "--library", library])
        let trace = folder.appendingPathComponent("trace.txt").path
        let run = try ChildProcess.run(
            strace,
            [
                "-f", "-y", "-o", trace, "-e", "trace=fsync,fdatasync,rename,renameat,renameat2,pwrite64,write",
                executable.path, "import", "--library", library, "--json", photo.path,
            ])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
        func first(after start: Int, _ matches: (String) -> Bool) -> Int? {
            lines.indices.first { $0 > start && matches(lines[$0]) }
        }
        let isFlush = { (line: String) in line.contains("fsync(") || line.contains("fdatasync(") }
        let rename = try #require(
            first(after: -1) { $0.contains("rename(") && $0.contains("/staging/") && $0.contains("/originals/") },
            "the original is renamed from staging into originals")
        let staged = lines[rename].split(separator: "\"")[1]
        #expect(lines[..<rename].contains { isFlush($0) && $0.contains(String(staged) + ">") }, "the staged file is flushed before the rename")
        let folderFlush = try #require(
            first(after: rename) { isFlush($0) && $0.contains("/originals/") && !$0.contains("/staging/") },
            "the originals folder is flushed after the rename")
        let commitWrite = try #require(
            first(after: folderFlush) { $0.contains("pwrite64(") && $0.contains("catalog.sqlite-wal>") },
            "the catalog commit comes after the folder flush")
        #expect(commitWrite > folderFlush)
        // The commit flushes the WAL itself (synchronous = FULL): right after its last frame, before
        // anything else happens. (With NORMAL the WAL is flushed only by a later checkpoint.)
        let isWALWrite = { (line: String) in line.contains("pwrite64(") && line.contains("catalog.sqlite-wal>") }
        let afterCommit = try #require(first(after: commitWrite) { !isWALWrite($0) && !$0.contains("write(") })
        #expect(
            isFlush(lines[afterCommit]) && lines[afterCommit].contains("catalog.sqlite-wal>"),
            "the commit's frames are flushed before anything else: \(lines[afterCommit].prefix(160))")
        let reported = try #require(first(after: commitWrite) { $0.contains("write(1<") }, "the result is printed")
        #expect(afterCommit < reported)
    }
}
