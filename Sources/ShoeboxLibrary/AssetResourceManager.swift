import Foundation
import ShoeboxSupport

/// Reads the bytes of any of an asset's files (`PHAssetResourceManager`): the original photo or
/// movie, a Live Photo's paired video, an edit's render.
///
/// ```swift
/// let manager = AssetResourceManager(library: library)
/// for resource in asset.resources where resource.type == .pairedVideo {
///     try await manager.writeData(for: resource, toFile: folder.appending(path: resource.originalFilename))
/// }
/// ```
///
/// Reads go through the library's authorization: a client sees only the resources of assets it
/// may read, and each read is in its access log. On object storage the bytes come through the
/// read cache.
public struct AssetResourceManager: Sendable {
    /// How many bytes ``requestData(for:dataReceivedHandler:)`` hands over at a time (at most).
    public static let chunkSize = 1 << 20

    private let library: PhotoLibrary

    /// A manager reading from `library` with the access of its client (``PhotoLibrary/clientIdentifier``).
    public init(library: PhotoLibrary) {
        self.library = library
    }

    /// Hands `resource`'s bytes to `dataReceivedHandler` in order, in chunks of up to
    /// ``chunkSize`` bytes; returns when all have been handed over.
    ///
    /// - Throws: ``LibraryError/Code/notFound`` when the asset is gone, the client may
    ///   not read it, or the resource is no longer one of its files (an edit replaced the render);
    ///   ``LibraryError/Code/storage`` when the bytes cannot be read; ``LibraryError/Code/cancelled``;
    ///   what the handler throws, as ``LibraryError/Code/invalidArgument``.
    public func requestData(
        for resource: AssetResource,
        dataReceivedHandler: @escaping @Sendable (Data) throws -> Void
    ) async throws(LibraryError) {
        let url = try await file(of: resource)
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw .storage("cannot read \(resource.originalFilename): \(error.localizedDescription)", underlying: error)
        }
        defer { try? handle.close() }
        while true {
            if Task.isCancelled { throw .cancelled }
            let chunk: Data
            do {
                chunk = try await BlockingPool.shared.run { try handle.read(upToCount: Self.chunkSize) ?? Data() }
            } catch {
                throw .storage("cannot read \(resource.originalFilename): \(error.localizedDescription)", underlying: error)
            }
            if chunk.isEmpty { return }
            do {
                try dataReceivedHandler(chunk)
            } catch let error as LibraryError {
                throw error
            } catch {
                throw .invalidArgument("the data handler stopped reading \(resource.originalFilename): \(error)")
            }
        }
    }

    /// Writes `resource`'s bytes to a new file at `url` (flushed before this returns).
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` when a file is already at `url` (it is never
    ///   replaced); ``LibraryError/Code/notFound`` as ``requestData(for:dataReceivedHandler:)``;
    ///   ``LibraryError/Code/storage`` when the bytes cannot be read or written.
    public func writeData(for resource: AssetResource, toFile url: URL) async throws(LibraryError) {
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw .invalidArgument("\(url.path) exists; writeData(for:toFile:) never replaces a file")
        }
        let source = try await file(of: resource)
        do {
            try await BlockingPool.shared.run {
                try FileManager.default.copyItem(at: source, to: url)
                let handle = try FileHandle(forUpdating: url)
                defer { try? handle.close() }
                try handle.synchronize()
            }
        } catch {
            throw .storage("cannot write \(resource.originalFilename) to \(url.path): \(error.localizedDescription)", underlying: error)
        }
    }

    /// The local file of a resource the library's client may read, still one of its asset's files.
    private func file(of resource: AssetResource) async throws(LibraryError) -> URL {
        let asset = try await library.authorizedAsset(resource.assetLocalIdentifier, action: "resource")
        guard asset.resources.contains(where: { $0.type == resource.type && $0.contentHash == resource.contentHash }) else {
            throw .notFound(localIdentifier: "\(resource.assetLocalIdentifier)/\(resource.type.rawValue)")
        }
        return try await library.fileURL(for: resource)
    }
}
