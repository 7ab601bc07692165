import Foundation
import NIOCore

/// The web app's files (HTML, CSS, ES modules, icons), read once from the module's resources
/// into memory. Requests name files by their path in this table; nothing from a request is ever
/// joined to a filesystem path.
struct WebAssets: Sendable {
    struct File: Sendable {
        let bytes: ByteBuffer
        let text: String?
        let contentType: String
        let entityTag: String
    }

    let files: [String: File]

    static let shared = WebAssets()

    init() {
        var files: [String: File] = [:]
        if let root = Bundle.module.url(forResource: "Web", withExtension: nil) {
            let base = root.standardizedFileURL.path
            let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
            while let url = enumerator?.nextObject() as? URL {
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                      let data = try? Data(contentsOf: url) else { continue }
                let path = String(url.standardizedFileURL.path.dropFirst(base.count))
                let type = Self.contentType(forExtension: url.pathExtension)
                var hasher = Hasher()
                hasher.combine(data)
                files[path] = File(bytes: ByteBuffer(bytes: data), text: type.hasPrefix("text/html") ? String(decoding: data, as: UTF8.self) : nil,
                                   contentType: type, entityTag: "\"\(String(UInt64(bitPattern: Int64(hasher.finalize())), radix: 36))-\(data.count)\"")
            }
        }
        self.files = files
    }

    static func contentType(forExtension ext: String) -> String {
        switch ext.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }
}
