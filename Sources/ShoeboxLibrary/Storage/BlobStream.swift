import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A blob's bytes (or a range of them) as they arrive from object storage, for a server to pass
/// on without keeping them (``PhotoLibrary/stream(_:range:)``).
package struct BlobStream: AsyncSequence, Sendable {
    /// A piece of the body as the HTTP client receives it.
    package typealias Element = ByteBuffer
    /// The bytes the stream will carry.
    package let length: Int
    let body: HTTPClientResponse.Body

    /// Reads the body's pieces in order.
    package struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPClientResponse.Body.AsyncIterator

        /// The next piece, or `nil` at the end of the body; throws the HTTP client's error when
        /// the download fails part-way.
        package mutating func next() async throws -> ByteBuffer? {
            try await base.next()
        }
    }

    /// Starts reading the body. Iterate a stream once: its body can be read only once.
    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: body.makeAsyncIterator())
    }
}

extension PhotoLibrary {
    /// A resource's bytes, or `range` of them (offsets into the file, both included), streamed
    /// from object storage; `nil` when the library's bytes are files (send
    /// ``fileURL(for:)`` instead).
    ///
    /// - Throws: ``LibraryError/Code/objectStorage`` when the store cannot be read.
    package func stream(_ resource: AssetResource, range: ClosedRange<Int>? = nil) async throws(LibraryError) -> BlobStream? {
        guard let access = blobs.directAccess else { return nil }
        let download = try await access.download(resource.blobKey, range: range)
        return BlobStream(length: download.length ?? range?.count ?? resource.fileSize, body: download.body)
    }
}
