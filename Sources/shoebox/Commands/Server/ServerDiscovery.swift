import Foundation

/// `NAME.shoebox/server.json`: where a running `shoebox serve` listens, so that `shoebox pick`
/// reuses it. Readable by the owner only (it holds the user's key); removed when the server
/// stops. A file whose process is gone is ignored.
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

    static func remove(forLibraryAt library: URL) {
        try? FileManager.default.removeItem(at: fileURL(forLibraryAt: library))
    }

    /// The running server of a library, if its process is alive.
    static func find(forLibraryAt library: URL) -> ServerDiscovery? {
        guard let data = try? Data(contentsOf: fileURL(forLibraryAt: library)),
            let found = try? JSONDecoder().decode(ServerDiscovery.self, from: data),
            kill(found.pid, 0) == 0
        else { return nil }
        return found
    }
}
