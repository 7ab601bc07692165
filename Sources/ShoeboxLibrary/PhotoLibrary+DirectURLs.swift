import Foundation
import ShoeboxImaging

extension PhotoLibrary {
    /// Whether the library's bytes are in object storage, where browsers can fetch them with
    /// presigned URLs (``directURL(for:downloadName:)``).
    public var offersDirectURLs: Bool { blobs.directAccess != nil }

    /// The origin direct URLs point at (`http://127.0.0.1:8333`, `https://bucket.s3.eu-west-1.amazonaws.com`),
    /// for a web page's Content-Security-Policy; `nil` when the bytes are files.
    public var directURLOrigin: String? {
        blobs.directAccess?.directURLOrigin
    }

    /// A URL a browser can fetch one of an asset's resources from without credentials — presigned
    /// for a window, so it repeats for an hour and has at least an hour left — or `nil` when the
    /// library's bytes are files. `downloadName` makes the answer an attachment with that name.
    ///
    /// Anyone holding the URL can read those bytes until it expires: hand it only to whoever may
    /// read the asset.
    public func directURL(for resource: AssetResource, downloadName: String? = nil) -> URL? {
        guard let access = blobs.directAccess else { return nil }
        return access.presignedURL(
            for: resource.blobKey, contentType: UTType.mimeType(for: resource.uniformTypeIdentifier),
            downloadName: downloadName)
    }

    /// When direct URLs made now stop working (at least an hour from now).
    public var directURLsExpire: Date { S3BlobStore.presignValidity().expires }

    /// When direct URLs are next signed anew (until then, the same resource gets the same URL).
    public var directURLsRenewal: Date { S3BlobStore.presignValidity().start.addingTimeInterval(S3BlobStore.presignWindow) }
}
