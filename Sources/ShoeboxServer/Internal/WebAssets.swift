internal import Crypto
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

    // blocking: read once, on the blocking pool, as the server starts (PhotoLibraryServer.makeApplication).
    static let shared = WebAssets()

    // blocking: only ever run by `shared`'s first use, which the server makes on the blocking pool.
    init() {
        var files: [String: File] = [:]
        if let root = Bundle.module.url(forResource: "Web", withExtension: nil) {
            let base = root.standardizedFileURL.path
            let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
            while let url = enumerator?.nextObject() as? URL {
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                    let data = try? Data(contentsOf: url)
                else { continue }
                let path = String(url.standardizedFileURL.path.dropFirst(base.count))
                let type = Self.contentType(forExtension: url.pathExtension)
                var hasher = Hasher()
                hasher.combine(data)
                files[path] = File(
                    bytes: ByteBuffer(bytes: data), text: type.hasPrefix("text/html") ? String(decoding: data, as: UTF8.self) : nil,
                    contentType: type, entityTag: "\"\(String(UInt64(bitPattern: Int64(hasher.finalize())), radix: 36))-\(data.count)\"")
            }
        }
        for (path, file) in files {
            guard let html = file.text else { continue }
            let text = Self.addingModulePreloads(to: html, files: files)
            files[path] = File(bytes: ByteBuffer(string: text), text: text, contentType: file.contentType, entityTag: file.entityTag)
        }
        if let worker = files["/sw.js"] {
            files["/sw.js"] = Self.serviceWorker(worker, files: files)
        }
        self.files = files
    }

    /// The paths (as pages name them, under `/app/`) of the app shell the service worker keeps:
    /// the library page's styles, modules and icons.
    static func shellPaths(in files: [String: File]) -> [String] {
        files.keys.filter { $0 == "/app.css" || $0.hasPrefix("/js/") || $0.hasPrefix("/icons/") }.map { "/app" + $0 }.sorted()
    }

    /// `sw.js` with its version (a digest of the shell's files, so a new build's worker replaces
    /// what the old one kept) and the shell's list filled in.
    static func serviceWorker(_ worker: File, files: [String: File]) -> File {
        let paths = shellPaths(in: files)
        // The same on every server of a library and across restarts (Hasher is seeded per
        // process): a worker is replaced only when the files are.
        var digest = SHA256()
        for path in paths {
            digest.update(data: Data(path.utf8))
            files[String(path.dropFirst(4))].map { digest.update(data: Data($0.bytes.readableBytesView)) }
        }
        let version = digest.finalize().prefix(8).map { String(format: "%02x", $0) }.joined()
        let list = "[" + paths.map { "'\($0)'" }.joined(separator: ", ") + "]"
        let text = String(buffer: worker.bytes).replacingOccurrences(of: "{{version}}", with: version)
            .replacingOccurrences(of: "{{shell}}", with: list)
        return File(bytes: ByteBuffer(string: text), text: nil, contentType: worker.contentType, entityTag: "\"\(version)-sw\"")
    }

    /// `html` with a `<link rel="modulepreload">` after each module script for every module it
    /// imports, directly or not. Without them the browser discovers the imports one level at a
    /// time, a round trip each, before the first line of the app runs.
    static func addingModulePreloads(to html: String, files: [String: File]) -> String {
        var result = html
        // Pages name files under /app/; the table by their path in the resources.
        let scriptPattern = /<script type="module" src="\/app(\/[^"]+\.js)"><\/script>/
        for match in html.matches(of: scriptPattern) {
            let entry = String(match.output.1)
            var seen: [String] = []
            var pending = [entry]
            while let path = pending.popLast() {
                for dependency in imports(of: path, files: files) where dependency != entry && !seen.contains(dependency) {
                    seen.append(dependency)
                    pending.append(dependency)
                }
            }
            let links = seen.sorted().map { "\n  <link rel=\"modulepreload\" href=\"/app\($0)\">" }.joined()
            result = result.replacingOccurrences(of: String(match.output.0), with: String(match.output.0) + links)
        }
        return result
    }

    /// The paths of the modules a module imports statically (`import … from './name.js'`).
    static func imports(of path: String, files: [String: File]) -> [String] {
        guard let file = files[path] else { return [] }
        let source = String(buffer: file.bytes)
        let folder = path[..<(path.lastIndex(of: "/") ?? path.startIndex)]
        return source.matches(of: /(?m)^\s*import\s[^;]*?from\s+'\.\/([\w.-]+\.js)'/).map { "\(folder)/\($0.output.1)" }
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
        case "webmanifest": "application/manifest+json"
        default: "application/octet-stream"
        }
    }
}
