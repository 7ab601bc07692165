import Foundation
import ShoeboxSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The default ``BlobStore``: files in the library folder, content-addressed by SHA-256 under
/// `originals/ab/abcdef…` (imports) and `renders/ab/abcdef…` (edits), written once and never
/// modified.
///
/// A staged file (already flushed) is renamed into place — a rename within one file system is
/// atomic — and the folder flushed, so a crash leaves either no blob or a whole one, and a blob
/// is on disk before the catalog row that refers to it commits. Everything is private to the
/// library's owner (files 0600, folders 0700). File work runs on the blocking pool.
struct FileBlobStore: BlobStore {
    let root: URL

    var originals: URL { root.appendingPathComponent("originals") }
    var renders: URL { root.appendingPathComponent("renders") }
    var location: String { "files in \(root.path)" }

    func folder(for kind: BlobKind) -> URL {
        switch kind {
        case .original: originals
        case .render: renders
        }
    }

    /// Creates the folders.
    func prepare() throws {
        for folder in [originals, renders] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
    }

    func fileURL(for key: BlobKey) -> URL {
        folder(for: key.kind).appendingPathComponent(String(key.hash.prefix(2))).appendingPathComponent(key.hash)
    }

    func localFile(for key: BlobKey) async throws(LibraryError) -> URL {
        fileURL(for: key)
    }

    func contains(_ key: BlobKey) async throws(LibraryError) -> Bool {
        FileManager.default.fileExists(atPath: fileURL(for: key).path)
    }

    func sha256(of key: BlobKey) async throws(LibraryError) -> String? {
        await PhotoLibrary.sha256(of: fileURL(for: key))
    }

    /// Moves the staged file to its place unless an identical blob is there (the caller's claim
    /// keeps that one from being removed), then flushes the folder so the rename survives a
    /// crash or a power loss.
    func store(consuming file: URL, size: Int, as key: BlobKey) async throws(LibraryError) -> Bool {
        let destination = fileURL(for: key)
        do {
            return try await BlockingPool.shared.run { try Self.place(file, at: destination, kind: key.kind) }
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .storage("\(error)", underlying: error)
        }
    }

    private static func place(_ file: URL, at destination: URL, kind: BlobKind) throws(LibraryError) -> Bool {
        let folder = destination.deletingLastPathComponent()
        if FileManager.default.fileExists(atPath: destination.path) {
            try? FileManager.default.removeItem(at: file)
            return false
        }
        if !FileManager.default.fileExists(atPath: folder.path) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .storage("cannot create \(folder.path): \(error)", underlying: error)
            }
            synchronizeDirectory(folder.deletingLastPathComponent())
        }
        guard rename(file.path, destination.path) == 0 else {
            throw .storage("cannot move \(file.path) into \(kind.rawValue)s: \(String(cString: strerror(errno)))")
        }
        synchronizeDirectory(folder)
        return true
    }

    func remove(_ key: BlobKey) async throws(LibraryError) {
        let url = fileURL(for: key)
        let failure: String? = try? await BlockingPool.shared.run {
            guard unlink(url.path) == 0 || errno == ENOENT else { return String(cString: strerror(errno)) }
            Self.synchronizeDirectory(url.deletingLastPathComponent())
            return nil
        }
        if let failure { throw .storage("cannot remove \(url.path): \(failure)") }
    }

    func list(_ kind: BlobKind) async throws(LibraryError) -> [StoredBlob] {
        let base = folder(for: kind)
        return
            (try? await BlockingPool.shared.run { () -> [StoredBlob] in
                let fileManager = FileManager.default
                var found: [StoredBlob] = []
                for prefix in (try? fileManager.contentsOfDirectory(atPath: base.path)) ?? [] {
                    let folderURL = base.appendingPathComponent(prefix)
                    for name in (try? fileManager.contentsOfDirectory(atPath: folderURL.path)) ?? [] {
                        let url = folderURL.appendingPathComponent(name)
                        let isBlobName = name.count == 64 && name.hasPrefix(prefix) && name.allSatisfy(\.isHexDigit)
                        let attributes = try? fileManager.attributesOfItem(atPath: url.path)
                        found.append(
                            StoredBlob(
                                key: isBlobName ? BlobKey(kind: kind, hash: name) : nil, name: url.path,
                                size: (attributes?[.size] as? Int) ?? 0, modified: attributes?[.modificationDate] as? Date))
                    }
                }
                return found
            }) ?? []
    }

    func quarantine(_ blob: StoredBlob, into folder: URL) async throws(LibraryError) -> URL {
        let source = URL(fileURLWithPath: blob.name)
        let destination = folder.appendingPathComponent(source.lastPathComponent)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.moveItem(at: source, to: destination)
        } catch {
            throw .storage("cannot quarantine \(source.path): \(error)", underlying: error)
        }
        return destination
    }

    // MARK: Pieces of resumable uploads

    /// `uploads/ID/NAME` in the library folder.
    func uploadFolder(_ upload: String) -> URL {
        root.appendingPathComponent("uploads").appendingPathComponent(upload)
    }

    func storeUploadPiece(consuming file: URL, size: Int, sha256: String, upload: String, name: String) async throws(LibraryError) {
        let folder = uploadFolder(upload)
        let failure: String? = try? await BlockingPool.shared.run { () -> String? in
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                return "cannot create \(folder.path): \(error)"
            }
            // On disk before the catalog says it arrived: the client is told it may go on.
            let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return "cannot open \(file.path): \(String(cString: strerror(errno)))" }
            fsync(descriptor)
            close(descriptor)
            guard rename(file.path, folder.appendingPathComponent(name).path) == 0 else {
                return "cannot move a piece into \(folder.path): \(String(cString: strerror(errno)))"
            }
            Self.synchronizeDirectory(folder)
            Self.synchronizeDirectory(folder.deletingLastPathComponent())
            return nil
        }
        if let failure { throw .storage(failure) }
    }

    func fetchUploadPiece(upload: String, name: String, to destination: URL) async throws(LibraryError) {
        let source = uploadFolder(upload).appendingPathComponent(name)
        let failure: String? = try? await BlockingPool.shared.run { () -> String? in
            try? FileManager.default.removeItem(at: destination)
            do {
                try FileManager.default.copyItem(at: source, to: destination)
                return nil
            } catch {
                return "cannot read the upload piece \(source.path): \(error)"
            }
        }
        if let failure { throw .storage(failure) }
    }

    func removeUploadPieces(upload: String) async throws(LibraryError) {
        let folder = uploadFolder(upload)
        _ = try? await BlockingPool.shared.run { try? FileManager.default.removeItem(at: folder) }
    }

    static func synchronizeDirectory(_ url: URL) {
        BlockingCheck.note("an fsync")
        let descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
