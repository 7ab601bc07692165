import Foundation
import ShoeboxImaging
import ShoeboxMedia

/// Makes derivative files: sized JPEGs of photos and of movies' poster frames, and MP4 playback
/// renditions.
enum DerivativeRenderer {
    /// The square-ish grid thumbnail made on import: `.aspectFill` of 256×256.
    static let grid = Spec(mode: .aspectFill, target: PixelSize(square: 256), crop: nil)
    /// The preview made on import: `.aspectFit` in 1024×1024.
    static let preview = Spec(mode: .aspectFit, target: PixelSize(square: 1024), crop: nil)

    /// A sized derivative.
    struct Spec: Sendable, Hashable {
        let mode: ImageContentMode
        let target: PixelSize
        let crop: NormalizedRect?

        /// `fit-1024x1024`, `fill-256x256`, `fit-800x600-c0.1,0.2,0.5,0.5`.
        var key: String {
            var key = "\(mode == .aspectFit ? "fit" : "fill")-\(target.width)x\(target.height)"
            if let crop, crop != .unit {
                let values = [crop.x, crop.y, crop.width, crop.height].map { String(format: "%.6g", $0) }
                key += "-c" + values.joined(separator: ",")
            }
            return key
        }
    }

    static func describe(_ error: any Error) -> String {
        (error as? MediaError)?.message ?? "\(error)"
    }

    /// The size a spec gives for an upright source of `size` (never larger than the source).
    static func outputSize(for size: PixelSize, target: PixelSize, mode: ImageContentMode) -> PixelSize {
        let widthScale = Double(target.width) / Double(size.width)
        let heightScale = Double(target.height) / Double(size.height)
        let scale = Swift.min(mode == .aspectFit ? Swift.min(widthScale, heightScale) : Swift.max(widthScale, heightScale), 1)
        return PixelSize(
            width: Swift.max(1, Int((Double(size.width) * scale).rounded())),
            height: Swift.max(1, Int((Double(size.height) * scale).rounded())))
    }

    /// Writes `spec` of the image at `imageURL` as a JPEG to `destination` on the blocking pool
    /// (libvips decodes and encodes there, never on a cooperative or event-loop thread), once the
    /// decode memory budget has room for it; returns the file's name tail (`WxH.jpg`).
    static func render(_ spec: Spec, ofImageAt imageURL: URL, to destination: URL) async throws -> String {
        let image = try await BlockingPool.shared.run { () throws(LibraryError) -> Image in
            do throws(ImageError) {
                return try Image(contentsOfFile: imageURL.path)
            } catch {
                throw .renderFailed(error.message)
            }
        }
        let cropped = spec.crop.map { $0 != .unit } ?? false
        return try await BlockingPool.shared.decode(image, for: cropped ? .wholeImage : .thumbnail(spec.target), inBackground: true) {
            try renderNow(spec, of: image, to: destination)
        }
    }

    private static func renderNow(_ spec: Spec, of opened: Image, to destination: URL) throws(LibraryError) -> String {
        do {
            var image = opened
            if let crop = spec.crop, crop != .unit {
                image = try image.cropping(toNormalized: crop)
            }
            let sized = try image.thumbnail(targetSize: spec.target, contentMode: spec.mode)
            try sized.encoded(as: .jpeg, options: ImageEncodingOptions(quality: 0.85, keepsMetadata: false)).write(to: destination)
            return "\(sized.pixelWidth)x\(sized.pixelHeight).jpg"
        } catch let error as ImageError {
            if error.code == .invalidArgument { throw .invalidArgument(error.detail, underlying: error) }
            throw .renderFailed(error.message, underlying: error)
        } catch {
            throw .renderFailed("cannot write \(destination.path): \(error)", underlying: error)
        }
    }

    /// The full-size poster frame of a movie version: a frame 10 % in (or the first), upright.
    static func poster(of source: VersionSource, in store: DerivativeStore) async throws -> CachedDerivative {
        try await store.derivative("poster", source: source.hash) { destination in
            let frame: Image
            do {
                frame = try await Movie(contentsOf: source.file()).posterFrame()
            } catch {
                throw LibraryError.renderFailed("no poster frame: \(describe(error))")
            }
            do {
                try await BlockingPool.shared.run {
                    try frame.encoded(as: .jpeg, options: ImageEncodingOptions(quality: 0.9, keepsMetadata: false)).write(to: destination)
                }
            } catch {
                throw LibraryError.renderFailed("cannot write the poster frame: \(error)", underlying: error)
            }
            return "\(frame.pixelWidth)x\(frame.pixelHeight).jpg"
        }
    }

    /// The image file a version's sized derivatives are made from: the photo, or the movie's poster.
    static func imageFile(of source: VersionSource, in store: DerivativeStore) async throws -> URL {
        switch source.mediaType {
        case .image: try await source.file()
        case .video: try await poster(of: source, in: store).url
        }
    }

    /// The file for `spec` of `source`, cached or made now.
    static func derivative(
        _ spec: Spec, of source: VersionSource, in store: DerivativeStore,
        progress: (@Sendable (Double) -> Void)? = nil
    ) async throws -> CachedDerivative {
        if let hit = store.cached(spec.key, source: source.hash) { return hit }
        // A movie's poster is a derivative of its own, made (or fetched) before this one waits
        // for a render slot; a photo's file is read only if the derivative must be rendered here
        // (not when another server's copy is in the bucket).
        let better = betterSource(for: spec, of: source, in: store)
        let poster = better == nil && source.mediaType == .video ? try await poster(of: source, in: store).url : nil
        return try await store.derivative(spec.key, source: source.hash) { destination in
            progress?(0)
            defer { progress?(1) }
            let input = if let known = better ?? poster { known } else { try await source.file() }
            return try await render(spec, ofImageAt: input, to: destination)
        }
    }

    /// A cached derivative at least twice the size `spec` needs, to scale down from instead of
    /// decoding the original again (the grid thumbnail from the preview, say). Crops always read
    /// the original.
    static func betterSource(for spec: Spec, of source: VersionSource, in store: DerivativeStore) -> URL? {
        guard spec.crop == nil else { return nil }
        let needed = outputSize(for: source.pixelSize, target: spec.target, mode: spec.mode)
        return store.sizedDerivatives(forSource: source.hash)
            .filter { $0.size.width >= needed.width * 2 && $0.size.height >= needed.height * 2 }
            .min { $0.size.pixelCount < $1.size.pixelCount }?.file.url
    }

    /// What an import makes in the background: the 1024-pixel preview, the 256-pixel grid
    /// thumbnail from the preview (one decode of the original), and for a movie browsers do not
    /// play as it is an MP4 playback rendition (unless `renditions` is off: a job of its own
    /// makes it).
    static func makeStandardDerivatives(of source: VersionSource, in store: DerivativeStore, renditions: Bool = true) async throws {
        let preview = try await derivative(Self.preview, of: source, in: store)
        if store.cached(grid.key, source: source.hash) == nil {
            _ = try await store.derivative(grid.key, source: source.hash) { destination in
                try await render(grid, ofImageAt: preview.url, to: destination)
            }
        }
        if renditions, source.mediaType == .video, try await !playability(of: source, in: store) {
            _ = try await playbackRendition(of: source, in: store)
        }
    }

    /// Whether browsers play the movie as it is (``ShoeboxMedia/Movie/playsInBrowsers(_:)``).
    static func playsInBrowsers(_ source: VersionSource) async throws -> Bool {
        let file = try await source.file()
        let info: MovieInfo
        do {
            info = try await MovieInfo(contentsOf: file)
        } catch {
            throw LibraryError.renderFailed("cannot probe the movie: \(error.message)", underlying: error)
        }
        return Movie.playsInBrowsers(info)
    }

    /// ``playsInBrowsers(_:)``, kept with the derivatives as a `plays=yes` or `plays=no` marker.
    static func playability(of source: VersionSource, in store: DerivativeStore) async throws -> Bool {
        let marker = try await store.derivative("plays", source: source.hash, temporaryExtension: "txt") { destination in
            let plays = try await playsInBrowsers(source)
            do {
                try Data((plays ? "yes\n" : "no\n").utf8).write(to: destination)
            } catch {
                throw LibraryError.storage("cannot write \(destination.path): \(error)", underlying: error)
            }
            return plays ? "yes" : "no"
        }
        return marker.url.lastPathComponent == "plays=yes"
    }

    /// An H.264 + AAC MP4 of the movie (at most 1920×1080, rotation applied), cached.
    static func playbackRendition(of source: VersionSource, in store: DerivativeStore) async throws -> CachedDerivative {
        try await store.derivative("playback", source: source.hash, temporaryExtension: "mp4") { destination in
            do {
                let movie = try await Movie(contentsOf: source.file())
                _ = try await movie.transcoding(to: destination, quality: .typeHigh).run()
            } catch {
                if error is CancellationError { throw error }
                throw LibraryError.renderFailed("cannot make a playback rendition: \(describe(error))")
            }
            return "h264.mp4"
        }
    }
}
