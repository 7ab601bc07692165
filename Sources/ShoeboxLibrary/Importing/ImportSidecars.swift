import Foundation

/// Which XMP sidecars of an import's files belong to which photo: `IMG_0042.CR2.xmp` to
/// `IMG_0042.CR2`, else `IMG_0042.xmp` to every `IMG_0042.*` of the same folder (a RAW+JPEG pair
/// shares it), names compared without case. A sidecar no file of the import claims waits for
/// its photo and is reported so.
struct ImportSidecars: Sendable {
    /// The index of each photo's sidecar, by the photo's index.
    private(set) var sidecarOfFile: [Int: Int] = [:]
    /// The indexes of every `.xmp` file.
    private(set) var sidecarIndexes: Set<Int> = []
    /// For a sidecar no file claims, the photo it waits for, in words.
    private(set) var waiting: [Int: String] = [:]

    init(_ files: [URL]) {
        var byFolder: [String: [String: Int]] = [:]
        for (index, file) in files.enumerated() where XMPSidecar.isSidecar(file) {
            sidecarIndexes.insert(index)
            let base = (file.lastPathComponent as NSString).deletingPathExtension.lowercased()
            byFolder[file.deletingLastPathComponent().path, default: [:]][base] = index
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

    /// Whether the file at `index` is a sidecar, imported with its photo rather than by itself.
    func isSidecar(_ index: Int) -> Bool { sidecarIndexes.contains(index) }
}
