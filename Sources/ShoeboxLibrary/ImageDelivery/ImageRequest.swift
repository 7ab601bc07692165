/// The results of one ``ImageManager/requestImage(for:targetSize:contentMode:options:)`` call, as
/// they come: for `.opportunistic` delivery a degraded one and then the final one.
///
/// ```swift
/// for await result in manager.requestImage(for: asset, targetSize: PixelSize(square: 512), contentMode: .aspectFill) {
///     show(result.image, blurred: result.isDegraded)
/// }
/// ```
///
/// Stopping the iteration early, or cancelling the task iterating, cancels the request.
public struct ImageRequest: AsyncSequence, Sendable {
    /// Each result: an image (degraded or final) or the error that ended the request.
    public typealias Element = ImageResult

    /// The request's identifier.
    public let id: ImageRequestID
    let stream: AsyncStream<ImageResult>

    /// An iterator over the request's results; a request's results can be iterated once.
    public func makeAsyncIterator() -> AsyncStream<ImageResult>.Iterator {
        stream.makeAsyncIterator()
    }

    /// The last result: the final image (or the error).
    public func finalResult() async -> ImageResult? {
        var last: ImageResult?
        for await result in self { last = result }
        return last
    }
}
