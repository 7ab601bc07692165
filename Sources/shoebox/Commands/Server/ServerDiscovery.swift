import Foundation

/// `NAME.shoebox/server.json`: where a running `shoebox serve` listens, so that `shoebox pick`
/// reuses it and a second `shoebox serve` on the library refuses to start. Readable by the owner
/// only (it holds the user's key). A server removes the file when it stops, and only its own
/// (the process id and key in it are its own): a server that never started, or another one's
/// stop, leaves a running server's file alone. A file whose process is gone, or is no longer a
/// `shoebox serve`, is ignored.
struct ServerDiscovery: Codable {
    var url: String
    var port: Int
    var key: String
    var pid: Int32

    static func fileURL(forLibraryAt library: URL) -> URL {
        library.appendingPathComponent("server.json")
    }

    func write(forLibraryAt library: URL) throws {
        let file = Self.fileURL(forLibraryAt: library)
        let data = try JSONEncoder().encode(self)
        // Made empty and private first, so the key never sits in a file others may read.
        guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: file.path])
        }
        try data.write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    }

    /// Removes the library's `server.json` if it is this entry (same process and key); another
    /// server's entry stays.
    func removeIfOwn(forLibraryAt library: URL) {
        let file = Self.fileURL(forLibraryAt: library)
        guard let data = try? Data(contentsOf: file), let found = try? JSONDecoder().decode(ServerDiscovery.self, from: data),
            found.pid == pid, found.key == key
        else { return }
        try? FileManager.default.removeItem(at: file)
    }

    /// The running server of a library, if its process is alive and still a `shoebox serve`.
    static func find(forLibraryAt library: URL) -> ServerDiscovery? {
        guard let data = try? Data(contentsOf: fileURL(forLibraryAt: library)),
            let found = try? JSONDecoder().decode(ServerDiscovery.self, from: data),
            kill(found.pid, 0) == 0 || errno == EPERM,
            isServe(found.pid)
        else { return nil }
        return found
    }

    /// Whether process `pid` is a `shoebox serve` (its arguments name the command), so that a
    /// process id reused after a crash is not taken for the server. Where `/proc` cannot tell,
    /// a living process is taken at its word.
    private static func isServe(_ pid: Int32) -> Bool {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return true }
        return data.split(separator: 0).dropFirst().contains { $0.elementsEqual("serve".utf8) }
    }
}
