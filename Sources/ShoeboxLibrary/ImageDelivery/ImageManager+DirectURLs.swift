import Foundation
import ShoeboxImaging

extension ImageManager {
    /// A URL a browser can fetch `file` from without credentials — a presigned URL into the
    /// library's bucket — or `nil` when the library's bytes are files: send the file's bytes then.
    /// A derivative that has not reached the bucket yet (they are uploaded in the background
    /// after they are made) is uploaded now; if that fails, the answer is `nil` too.
    package func directURL(for file: DerivativeFile) async -> URL? {
        guard let access = library.blobs.directAccess else { return nil }
        let contentType = UTType.mimeType(for: file.uniformTypeIdentifier)
        switch file.origin {
        case .blob(let key):
            return access.presignedURL(for: key, contentType: contentType, downloadName: nil)
        case .derivative(let source):
            let name = file.url.lastPathComponent
            guard let mirror = store.mirror else { return nil }
            if !mirror.isStored(name, source: source) { await mirror.upload(file.url, name: name, source: source) }
            guard mirror.isStored(name, source: source) else { return nil }
            return mirror.presignedURL(name, source: source, contentType: contentType)
        }
    }

    /// A URL a browser can play `asset`'s movie from without credentials (see
    /// ``directURL(for:)``): the version itself when browsers play it, else its playback
    /// rendition (made and uploaded first if need be). `nil` when the library's bytes are files or
    /// the rendition cannot be uploaded: play ``requestVideoURL(for:version:)`` then.
    ///
    /// - Throws: as ``requestVideoURL(for:version:)``.
    public func requestVideoDirectURL(for asset: Asset, version: ImageRequestOptions.Version = .current) async throws(LibraryError) -> URL? {
        guard let access = library.blobs.directAccess else { return nil }
        do {
            return try await DerivativeStore.$owner.withValue(renderOwner) { () async throws -> URL? in
                let source = try await videoSource(of: asset, version: version)
                if try await playsInBrowsers(source) {
                    return access.presignedURL(for: source.key, contentType: UTType.mimeType(for: source.uniformTypeIdentifier), downloadName: nil)
                }
                let rendition = try await DerivativeRenderer.playbackRendition(of: source, in: store)
                guard let mirror = store.mirror else { return nil }
                let name = rendition.url.lastPathComponent
                if !mirror.isStored(name, source: source.hash) { await mirror.upload(rendition.url, name: name, source: source.hash) }
                guard mirror.isStored(name, source: source.hash) else { return nil }
                return mirror.presignedURL(name, source: source.hash, contentType: "video/mp4")
            }
        } catch {
            throw Self.libraryError(error)
        }
    }
}

extension ImageManager {
    /// Whether browsers play the current version of `asset`'s movie as it is (H.264 in MP4 or
    /// MOV, AAC or no audio), so it can be sent or streamed without a playback rendition.
    public func playsInBrowsersAsIs(_ asset: Asset) async throws(LibraryError) -> Bool {
        do {
            return try await DerivativeStore.$owner.withValue(renderOwner) {
                try await playsInBrowsers(try await videoSource(of: asset, version: .current))
            }
        } catch {
            throw Self.libraryError(error)
        }
    }
}
