import Foundation

/// `NAME.shoebox/server.json`: where a running `shoebox serve` listens, so that `shoebox pick`
/// reuses it and a second `shoebox serve` on the library can name the one already running (it
/// serves too, and leaves this file to the first). Readable by the owner
/// only (it holds the user's key). A server removes the file when it stops, and only its own
/// (the process id and key in it are its own): a server that never started, or another one's
/// stop, leaves a running server's file alone. A file whose process is gone, or is no longer a
/// `shoebox serve` (a process started after the entry was written), is ignored.
///
/// A server whose ``PhotoLibraryServer/Configuration/writesDiscoveryFile`` is set writes and
/// removes it itself; other programs read it with ``find(forLibraryAt:)``.
public struct ServerDiscovery: Codable, Sendable {
    /// The server's address (`http://127.0.0.1:PORT`).
    public var url: String
    /// The port it listens on.
    public var port: Int
    /// The user's key (``PhotoLibraryServer/userKey``).
    public var key: String
    /// The server's process.
    public var pid: Int32
    /// When that process started (`/proc/PID/stat`'s start time, in clock ticks since boot), to
    /// tell it from a later process given the same id; `nil` in entries of older servers.
    public var processStart: UInt64?

    // blocking: small files, read and written by tools before they serve; a server does it only on the pool (DiscoveryService).
    /// An entry for a server at `url` on `port` with the user's `key`, in process `pid`.
    public init(url: String, port: Int, key: String, pid: Int32) {
        self.url = url
        self.port = port
        self.key = key
        self.pid = pid
        processStart = Self.startTime(of: pid)
    }

    /// Where a library's entry is: `server.json` in its folder.
    public static func fileURL(forLibraryAt library: URL) -> URL {
        library.appendingPathComponent("server.json")
    }

    // blocking: small files, read and written by tools before they serve; a server does it only on the pool (DiscoveryService).
    /// Writes this entry as the library's, readable by the owner only.
    public func write(forLibraryAt library: URL) throws {
        let file = Self.fileURL(forLibraryAt: library)
        let data = try JSONEncoder().encode(self)
        // Made empty and private first, so the key never sits in a file others may read.
        guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: file.path])
        }
        try data.write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    }

    // blocking: small files, read and written by tools before they serve; a server does it only on the pool (DiscoveryService).
    /// Removes the library's `server.json` if it is this entry (same process and key); another
    /// server's entry stays.
    public func removeIfOwn(forLibraryAt library: URL) {
        let file = Self.fileURL(forLibraryAt: library)
        guard let data = try? Data(contentsOf: file), let found = try? JSONDecoder().decode(ServerDiscovery.self, from: data),
            found.pid == pid, found.key == key
        else { return }
        try? FileManager.default.removeItem(at: file)
    }

    // blocking: small files, read and written by tools before they serve; a server does it only on the pool (DiscoveryService).
    /// The running server of a library, if its process is alive and still a `shoebox serve`.
    public static func find(forLibraryAt library: URL) -> ServerDiscovery? {
        guard let data = try? Data(contentsOf: fileURL(forLibraryAt: library)),
            let found = try? JSONDecoder().decode(ServerDiscovery.self, from: data),
            kill(found.pid, 0) == 0 || errno == EPERM,
            found.processStart.map({ $0 == startTime(of: found.pid) }) ?? isServe(found.pid)
        else { return nil }
        return found
    }

    // blocking: small files, read and written by tools before they serve; a server does it only on the pool (DiscoveryService).
    /// When process `pid` started, in clock ticks since boot (the 22nd field of
    /// `/proc/PID/stat`, counted after the command name, which may hold spaces); `nil` where
    /// `/proc` cannot tell.
    static func startTime(of pid: Int32) -> UInt64? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat"),
            let text = String(data: data, encoding: .utf8), let end = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: end)...].split(separator: " ")
        // After ")": state is field 3, so start time (field 22) is the 20th here.
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }

    // blocking: small files, read and written by tools before they serve; a server does it only on the pool (DiscoveryService).
    /// Whether process `pid` is a `shoebox serve` (its arguments name the command), so that a
    /// process id reused after a crash is not taken for the server: for entries without a start
    /// time. Where `/proc` cannot tell, a living process is taken at its word.
    private static func isServe(_ pid: Int32) -> Bool {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return true }
        return data.split(separator: 0).dropFirst().contains { $0.elementsEqual("serve".utf8) }
    }
}
