import Foundation

extension PhotoLibrary {
    /// Whether the library's bytes are in object storage, where browsers can fetch them with
    /// presigned URLs (``directURL(for:downloadName:)``).
    public var offersDirectURLs: Bool { blobs is S3BlobStore }

    /// The origin direct URLs point at (`http://127.0.0.1:8333`, `https://bucket.s3.eu-west-1.amazonaws.com`),
    /// for a web page's Content-Security-Policy; `nil` when the bytes are files.
    public var directURLOrigin: String? {
        guard let s3 = blobs as? S3BlobStore else { return nil }
        return s3.client.url.location(of: "").base
    }

    /// A URL a browser can fetch one of an asset's resources from without credentials — presigned
    /// for a window, so it repeats for an hour and has at least an hour left — or `nil` when the
    /// library's bytes are files. `downloadName` makes the answer an attachment with that name.
    ///
    /// Anyone holding the URL can read those bytes until it expires: hand it only to whoever may
    /// read the asset.
    public func directURL(for resource: AssetResource, downloadName: String? = nil) -> URL? {
        guard let s3 = blobs as? S3BlobStore else { return nil }
        let kind: BlobKind = switch resource.type {
        case .photo, .video: .original
        case .fullSizePhoto, .fullSizeVideo: .render
        }
        return s3.presignedURL(for: BlobKey(kind: kind, hash: resource.contentHash), contentType: Self.mimeType(resource.uniformTypeIdentifier),
                               downloadName: downloadName)
    }

    /// When direct URLs made now stop working (at least an hour from now).
    public var directURLsExpire: Date { S3BlobStore.presignValidity().expires }

    /// When direct URLs are next signed anew (until then, the same resource gets the same URL).
    public var directURLsRenewal: Date { S3BlobStore.presignValidity().start.addingTimeInterval(S3BlobStore.presignWindow) }

    /// The MIME type of a uniform type identifier the library stores.
    public static func mimeType(_ uniformTypeIdentifier: String) -> String {
        switch uniformTypeIdentifier {
        case "public.jpeg": "image/jpeg"
        case "public.png": "image/png"
        case "public.heic": "image/heic"
        case "public.heif": "image/heif"
        case "public.avif": "image/avif"
        case "org.webmproject.webp": "image/webp"
        case "com.compuserve.gif": "image/gif"
        case "public.tiff": "image/tiff"
        case "com.apple.quicktime-movie": "video/quicktime"
        case "org.webmproject.webm": "video/webm"
        case "public.mpeg-4": "video/mp4"
        default: "application/octet-stream"
        }
    }
}
