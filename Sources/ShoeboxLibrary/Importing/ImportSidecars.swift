import Foundation
import ShoeboxImaging

/// Which sidecars of an import's files belong to which photo, names compared without case:
/// XMP sidecars, `IMG_0042.CR2.xmp` to `IMG_0042.CR2`, else `IMG_0042.xmp` to every `IMG_0042.*`
/// of the same folder (a RAW+JPEG pair shares it); and Google Takeout's JSON by Google's naming
/// rules (``TakeoutMetadata/jsonNames(forMediaNamed:)``). An XMP sidecar no file of the import
/// claims waits for its photo and is reported so; a JSON file no photo claims is skipped, as
/// Takeout's album `metadata.json` files are (they name their folder's album).
struct ImportSidecars: Sendable {
    /// The index of each photo's sidecar, by the photo's index.
    private(set) var sidecarOfFile: [Int: Int] = [:]
    /// The indexes of every `.xmp` file.
    private(set) var sidecarIndexes: Set<Int> = []
    /// For a sidecar no file claims, the photo it waits for, in words.
    private(set) var waiting: [Int: String] = [:]
    /// The index of each photo's Takeout JSON, by the photo's index.
    private(set) var takeoutOfFile: [Int: Int] = [:]
    /// The `metadata.json` files of folders, by folder path: Takeout's album folders.
    private(set) var albumMetadata: [String: Int] = [:]

    init(_ files: [URL]) {
        var byFolder: [String: [String: Int]] = [:]
        for (index, file) in files.enumerated() where XMPSidecar.isSidecar(file) {
            sidecarIndexes.insert(index)
            let base = (file.lastPathComponent as NSString).deletingPathExtension.lowercased()
            byFolder[file.deletingLastPathComponent().path, default: [:]][base] = index
        }
        var jsonByFolder: [String: [String: Int]] = [:]
        for (index, file) in files.enumerated() where file.pathExtension.lowercased() == "json" {
            let folder = file.deletingLastPathComponent().path
            jsonByFolder[folder, default: [:]][file.lastPathComponent.lowercased()] = index
            if file.lastPathComponent.lowercased() == "metadata.json" { albumMetadata[folder] = index }
        }
        if !jsonByFolder.isEmpty {
            for (index, file) in files.enumerated() where !sidecarIndexes.contains(index) && file.pathExtension.lowercased() != "json" {
                guard let names = jsonByFolder[file.deletingLastPathComponent().path] else { continue }
                if let json = TakeoutMetadata.jsonNames(forMediaNamed: file.lastPathComponent).lazy.compactMap({ names[$0] }).first {
                    takeoutOfFile[index] = json
                    takeoutIndexes.insert(json)
                }
            }
        }
        guard !sidecarIndexes.isEmpty else { return }
        var claimed: Set<Int> = []
        for (index, file) in files.enumerated() where !sidecarIndexes.contains(index) {
            guard let sidecars = byFolder[file.deletingLastPathComponent().path] else { continue }
            let name = file.lastPathComponent.lowercased()
            let stem = (name as NSString).deletingPathExtension
            if let sidecar = sidecars[name] ?? sidecars[stem] {
                sidecarOfFile[index] = sidecar
                claimed.insert(sidecar)
            }
        }
        for index in sidecarIndexes.subtracting(claimed) {
            let base = (files[index].lastPathComponent as NSString).deletingPathExtension
            waiting[index] = (base as NSString).pathExtension.isEmpty ? "a photo or movie named \(base) and any extension" : base
        }
    }

    /// The indexes of the JSON files a photo claims.
    private(set) var takeoutIndexes: Set<Int> = []

    /// A sidecar's bytes, read on the blocking pool; `kind` and `path` name it when it cannot be read.
    static func read(_ url: URL, path: String, kind: String) async throws(LibraryError) -> Data {
        do {
            return try await BlockingPool.shared.run { () throws -> Data in try Data(contentsOf: url) }
        } catch {
            throw .importFailed(path: path, code: .io, message: "cannot read the \(kind) \(path): \(error.localizedDescription)", underlying: error)
        }
    }

    /// Whether the file at `index` is an XMP sidecar, imported with its photo rather than by itself.
    func isSidecar(_ index: Int) -> Bool { sidecarIndexes.contains(index) }

    /// Whether the file at `index` is a photo's Takeout JSON, read with its photo.
    func isTakeoutJSON(_ index: Int) -> Bool { takeoutIndexes.contains(index) }
}
