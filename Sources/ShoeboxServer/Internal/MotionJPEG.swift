import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle
import ShoeboxCapture
import ShoeboxImaging
import ShoeboxLibrary

/// A camera's live frames as Motion JPEG (`multipart/x-mixed-replace`), which an `<img>` shows
/// as video. At most 15 frames a second, 1280 pixels wide, encoded on the thread pool; a slow
/// reader gets the newest frame.
enum MotionJPEG {
    static let boundary = "shoebox-frame"

    static func response(_ frames: AsyncStream<CaptureFrame>) -> Response {
        let body = ResponseBody { writer in
            let clock = ContinuousClock()
            var last = clock.now - .seconds(1)
            // A stopping server (SIGTERM, SIGINT) ends the preview, or it would wait for it.
            for await frame in frames.cancelOnGracefulShutdown() {
                guard clock.now - last >= .milliseconds(66) else { continue }
                last = clock.now
                // The encode takes tens of milliseconds a frame: on the thread pool, never on the
                // event loop that also answers the page's other requests.
                let jpeg = try await BlockingPool.shared.run {
                    var image = frame.image
                    if image.pixelWidth > 1280 {
                        image = try image.thumbnail(targetSize: PixelSize(width: 1280, height: 1280), contentMode: .aspectFit)
                    }
                    return try image.encoded(as: .jpeg, options: ImageEncodingOptions(quality: 0.7, keepsMetadata: false))
                }
                var buffer = ByteBuffer(string: "--\(boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\n\r\n")
                buffer.writeBytes(jpeg)
                buffer.writeString("\r\n")
                try await writer.write(buffer)
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "multipart/x-mixed-replace; boundary=\(boundary)", .cacheControl: "no-store"], body: body)
    }
}
