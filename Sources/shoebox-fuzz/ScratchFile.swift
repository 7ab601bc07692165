import Foundation

/// A file holding the current input, for the parsers that read files (movies are read from disk,
/// never loaded whole): in the folder `SHOEBOX_FUZZ_SCRATCH` names (`scripts/fuzz` makes one in
/// `/dev/shm`, so an input costs no disk write, and removes it), else in the temporary folder.
enum ScratchFile {
    static let url: URL = {
        let folder: URL
        if let named = ProcessInfo.processInfo.environment["SHOEBOX_FUZZ_SCRATCH"], !named.isEmpty {
            folder = URL(fileURLWithPath: named, isDirectory: true)
        } else {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-fuzz-\(getpid())", isDirectory: true)
        }
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("input-\(getpid())")
    }()

    /// Writes `data` to ``url`` and returns it.
    static func holding(_ data: Data) -> URL {
        do {
            try data.write(to: url)
        } catch {
            fatalError("shoebox-fuzz cannot write its scratch file \(url.path): \(error)")
        }
        return url
    }
}
