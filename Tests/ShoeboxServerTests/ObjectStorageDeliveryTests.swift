import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting
import Synchronization
import Testing

@testable import ShoeboxServer

/// A library whose blobs are in S3 (SeaweedFS): browsers are sent to presigned URLs (redirect
/// mode, the default) or get the bytes through the server (proxy mode).
@Suite struct ObjectStorageDeliveryTests {
    /// The S3 endpoint's port and the path and query of a presigned URL.
    static func split(_ location: String) throws -> (port: Int, target: String) {
        let url = try #require(URL(string: location))
        let endpoint = try #require(URL(string: try S3TestServer.endpoint()))
        #expect(url.host == endpoint.host && url.port == endpoint.port, "\(location) points at the object store")
        return (try #require(url.port), url.path + "?" + (url.query ?? ""))
    }

    /// Fetches a presigned URL as a browser would: no credentials, only the URL.
    static func follow(_ location: String) async throws -> RawHTTP.Response {
        let (port, target) = try split(location)
        return try await RawHTTP(port: port).send("GET", target)
    }

    @Test func redirectModeSendsBrowsersToPresignedURLs() async throws {
        let test = try await TestServer.start(photos: 2, objectStorage: true)
        defer { test.stop() }
        let id = TestServer.escaped(test.photos[0])
        let asset = try await #require(try test.library.fetchAssets(withLocalIdentifiers: [test.photos[0]]).firstObject)
        let endpoint = try S3TestServer.endpoint()

        // Pages allow images and movies from the bucket's endpoint, and nothing else new.
        let page = try await test.user("GET", "/")
        let policy = try #require(page.headers["content-security-policy"])
        #expect(policy.contains("img-src 'self' blob: data: \(endpoint)") && policy.contains("media-src 'self' blob: \(endpoint)"))
        #expect(policy.contains("connect-src 'self';") && policy.contains("script-src 'self';"))

        // A thumbnail: made, uploaded, and redirected to; the browser may keep the redirect until
        // a minute before the URL expires (at least an hour ahead).
        let version =
            try #require(try await test.user("GET", "/api/assets?limit=10").object()["assets"] as? [[String: Any]])
            .first { $0["localIdentifier"] as? String == test.photos[0] }?["version"] as? String
        let path = "/api/assets/\(id)/thumbnail?size=128&v=\(try #require(version))"
        let first = try await test.user("GET", path)
        #expect(first.status == 302 && first.body.isEmpty)
        let location = try #require(first.headers["location"])
        let maxAge = try #require(first.headers["cache-control"]?.split(separator: "=").last.flatMap { Int($0) })
        #expect(maxAge >= 3_540 && maxAge <= 7_140, "max-age \(maxAge)")
        let thumbnail = try await Self.follow(location)
        #expect(thumbnail.status == 200 && thumbnail.headers["content-type"] == "image/jpeg")
        let image = try Image(data: thumbnail.body)
        #expect(max(image.pixelWidth, image.pixelHeight) >= 128 && min(image.pixelWidth, image.pixelHeight) == 128)
        // Again, on a kept-alive connection as a browser's: the same URL, answered from memory
        // before routing, with the pages' security headers.
        let answeredBefore = test.server.state.fastPathAnswers.load(ordering: .relaxed)
        let again = try await test.http.pipeline([("GET", path, ["Authorization": "Bearer \(test.server.userKey)"])])[0]
        #expect(again.status == 302 && again.headers["location"] == location && again.headers["content-security-policy"] == policy)
        #expect(again.headers["cache-control"]?.hasPrefix("private, max-age=") == true && again.headers["content-length"] == "0")
        #expect(test.server.state.fastPathAnswers.load(ordering: .relaxed) == answeredBefore + 1)

        // The original: the very bytes, named for download when asked.
        let source = try Data(contentsOf: test.folder.appendingPathComponent("photo-1.jpg"))
        let original = try await test.user("GET", "/api/assets/\(id)/original")
        #expect(original.status == 302)
        let bytes = try await Self.follow(try #require(original.headers["location"]))
        #expect(bytes.status == 200 && bytes.body == source && bytes.headers["content-type"] == "image/jpeg")
        let download = try await test.user("GET", "/api/assets/\(id)/original?download=1")
        let attachment = try await Self.follow(try #require(download.headers["location"]))
        #expect(attachment.headers["content-disposition"] == "attachment; filename=\"\(asset.originalFilename)\"")

        // Nothing for a client that may not read the asset: no redirect, so no URL to leak.
        let token = try await test.register("com.example.none")
        let refused = try await test.client(token, "GET", "/api/assets/\(id)/original")
        #expect(refused.status != 302 && refused.headers["location"] == nil)
    }

    @Test func moviesPlayFromTheBucket() async throws {
        let test = try await TestServer.start(photos: 0, objectStorage: true)
        defer { test.stop() }
        // H.264 in MP4 plays as it is; VP8 in WebM gets an H.264 rendition, uploaded first.
        for (name, playback) in [("clip.mp4", "originals/"), ("clip.webm", "playback=h264.mp4")] {
            let movie = try SyntheticMovie(duration: 1, width: 160, height: 120).write(to: test.folder.appendingPathComponent(name))
            let imported = try await test.library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromVideoAt: movie) }
            let video = try await test.user("GET", "/api/assets/\(TestServer.escaped(imported.created[0].localIdentifier))/video")
            #expect(video.status == 302, "\(name)")
            let location = try #require(video.headers["location"])
            #expect(location.removingPercentEncoding?.contains(playback) == true, "\(name) → \(location)")
            let played = try await Self.follow(location)
            #expect(played.status == 200 && played.headers["content-type"] == "video/mp4")
            // An MP4 (ftyp first) whose video is H.264 (an avc1 sample entry).
            #expect(played.body.subdata(in: 4..<8) == Data("ftyp".utf8) && played.body.range(of: Data("avc1".utf8)) != nil, "\(name)")
        }
    }

    @Test func proxyModeStreamsTheBytesWithRanges() async throws {
        let test = try await TestServer.start(photos: 1, configuration: .init(port: 0, blobDelivery: .proxy), objectStorage: true)
        defer { test.stop() }
        let id = TestServer.escaped(test.photos[0])
        let source = try Data(contentsOf: test.folder.appendingPathComponent("photo-1.jpg"))
        let page = try await test.user("GET", "/")
        #expect(page.headers["content-security-policy"]?.contains(try S3TestServer.endpoint()) == false, "nothing to allow")

        let whole = try await test.user("GET", "/api/assets/\(id)/original")
        #expect(whole.status == 200 && whole.body == source && whole.headers["content-length"] == "\(source.count)")
        let tag = try #require(whole.headers["etag"])
        #expect(try await test.user("GET", "/api/assets/\(id)/original", headers: ["If-None-Match": tag]).status == 304)
        let part = try await test.user("GET", "/api/assets/\(id)/original", headers: ["Range": "bytes=100-1099"])
        #expect(part.status == 206 && part.body == source[100...1_099] && part.headers["content-range"] == "bytes 100-1099/\(source.count)")
        let tail = try await test.user("GET", "/api/assets/\(id)/original", headers: ["Range": "bytes=-64"])
        #expect(tail.status == 206 && tail.body == source.suffix(64))
        let beyond = try await test.user("GET", "/api/assets/\(id)/original", headers: ["Range": "bytes=\(source.count)-"])
        #expect(beyond.status == 416 && beyond.headers["content-range"] == "bytes */\(source.count)")
        let head = try await test.user("HEAD", "/api/assets/\(id)/original")
        #expect(head.status == 200 && head.body.isEmpty && head.headers["content-length"] == "\(source.count)")

        let thumbnail = try await test.user("GET", "/api/assets/\(id)/thumbnail?size=64")
        #expect(thumbnail.status == 200 && thumbnail.headers["location"] == nil)
        #expect(try Image(data: thumbnail.body).pixelHeight == 64)
    }
}
