import Foundation
import ServiceLifecycle
import ShoeboxSupport
import Synchronization

/// Writes the library's `server.json` (``ServerDiscovery``) once the server listens, unless
/// another running server's is there, and removes it when the server stops if it is still this
/// server's: `shoebox pick` and a second `shoebox serve` find the server by it.
final class DiscoveryService: Service, Sendable {
    let libraryURL: URL
    private let entry = Mutex<ServerDiscovery?>(nil)

    init(libraryURL: URL) {
        self.libraryURL = libraryURL
    }

    /// Called by the server once it listens: makes the entry (which reads `/proc`) and writes it
    /// on the blocking pool.
    func serverIsListening(url: String, port: Int, key: String) async {
        let libraryURL = libraryURL
        let written = await BlockingPool.shared.run { () -> ServerDiscovery? in
            let discovery = ServerDiscovery(url: url, port: port, key: key, pid: getpid())
            // Written only where no other running server's is: the first one's stays.
            guard ServerDiscovery.find(forLibraryAt: libraryURL).map({ $0.pid == discovery.pid }) ?? true else { return nil }
            return (try? discovery.write(forLibraryAt: libraryURL)) != nil ? discovery : nil
        }
        if let written { entry.withLock { $0 = written } }
    }

    func run() async throws {
        // Nothing to do until the server stops; then the entry goes, if it is this server's.
        try? await gracefulShutdown()
        await removeOwnEntry()
    }

    /// Removes the entry this server wrote, if it is still there.
    func removeOwnEntry() async {
        guard let written = entry.withLock({ $0 }) else { return }
        let libraryURL = libraryURL
        await BlockingPool.shared.run { written.removeIfOwn(forLibraryAt: libraryURL) }
    }
}
