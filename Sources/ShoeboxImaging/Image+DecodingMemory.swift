internal import CVips
import Foundation

extension Image {
    /// What a decode is for, as ``Image/decodingMemory(for:)`` estimates it.
    public enum DecodingUse: Sendable, Hashable {
        /// ``Image/thumbnail(targetSize:contentMode:cropToFill:)`` of the file to about this size:
        /// shrink-on-load where the format has it (JPEG, WebP), rows streamed through the shrink
        /// otherwise.
        case thumbnail(PixelSize)
        /// Every pixel at full size in memory, and one transformed copy: ``Image/decoded()``,
        /// ``Image/cropping(to:)``, a rotation, ``Image/encoded(as:options:)`` of the whole image.
        case wholeImage
    }

    /// The most memory, in bytes, that decoding this image for `use` is expected to hold at once:
    /// libvips's buffers, the decoder's own (libheif and libde265 for HEIF, libwebp, libnsgif) and
    /// the pixels kept. It is worked out from the header alone — pixel size, bands, bytes per band,
    /// format, PNG interlacing — before anything is decoded, so that a caller can wait for that
    /// much room (as the photo library does with its decode memory budget) instead of finding out.
    ///
    /// The figures come from measuring libvips 8.14 and libheif 1.15 (peak resident memory of a
    /// decode, less the process's before it), rounded up:
    ///
    /// - libvips streams a shrink through tiles and line caches: 32 MB plus 2,048 rows of the
    ///   image's longer side (measured: 12 MB for a 6000-pixel JPEG, 59 MB for an 11500-pixel
    ///   PNG, whose estimate is 102 MB);
    /// - HEIF, HEIC and AVIF decode whole, with no shrink-on-load: about 6.5 bytes per 8-bit RGB
    ///   pixel when libvips's loader converts to RGB (libde265's picture and block tables,
    ///   libheif's YCbCr copy, its RGB conversion; 416 MB measured for 8192 × 8192, estimated
    ///   518 MB). Thumbnails of pictures coded 4:2:0 skip the RGB copy (290 MB measured); the
    ///   estimate keeps the larger figure, since the header alone does not say which way it goes;
    /// - an interlaced PNG is held whole by its decoder (297 MB for 11500 × 8600 RGB), a plain one
    ///   is streamed a few rows at a time;
    /// - WebP decodes at the scale asked for, 8 bytes per pixel decoded;
    /// - GIF holds an RGBA canvas and a copy, about 6 bytes per pixel;
    /// - JPEG and TIFF stream;
    /// - a camera raw file holds LibRaw's 16-bit sensor buffer, its four-channel 16-bit working
    ///   picture and the 8-bit result when developed (about 13 bytes a pixel for 2 on the sensor),
    ///   a quarter of the picture for a half-size development, or only the decoded preview.
    ///
    /// The estimate errs high: it is a bound to plan with, not a measurement.
    ///
    /// ```swift
    /// let photo = try Image(contentsOf: url)                              // the header only
    /// let bytes = photo.decodingMemory(for: .thumbnail(PixelSize(square: 1024)))
    /// ```
    public func decodingMemory(for use: DecodingUse) -> Int {
        let pixel = Swift.max(1, bytesPerPixel)
        let whole = Self.product(pixelSize.pixelCount, pixel)
        // libvips's tiles and line caches while rows stream through a shrink.
        let pipeline = 32 << 20 + Self.product(Swift.max(pixelSize.width, pixelSize.height), pixel, 2_048)
        if let raw {
            switch use {
            case .thumbnail(let target):
                let (width, height) = Self.thumbnailBounds(source: raw.developedSize, target: target, mode: .aspectFill, crop: true)
                return Self.sum(pipeline, raw.memory(for: raw.route(width: width, height: height, crop: true)))
            case .wholeImage:
                return Self.sum(pipeline, raw.memory(for: .fullSize), whole)
            }
        }
        guard case .raster = storage else {
            let decoder = decoderMemory(for: use, whole: whole)
            switch use {
            case .thumbnail: return Self.sum(pipeline, decoder)
            case .wholeImage: return Self.sum(pipeline, decoder, whole, whole)
            }
        }
        // Pixels already in memory: only what an operation makes.
        switch use {
        case .thumbnail: return pipeline
        case .wholeImage: return Self.sum(pipeline, whole)
        }
    }

    /// What the format's decoder itself holds beyond libvips's pipeline.
    private func decoderMemory(for use: DecodingUse, whole: Int) -> Int {
        switch format {
        case let format? where format.isDecodedByLibheif:
            return Self.product(whole, 13) / 6
        case .gif?:
            return Self.product(whole, 3) / 2
        case .png? where isInterlaced:
            return whole
        case .webp?:
            // libwebp decodes straight to the scale libvips asks for (the target's, rounded so
            // that the result covers it).
            var pixels = pixelSize.pixelCount
            if case .thumbnail(let target) = use, target.isPositive, pixelSize.isPositive {
                let scale = Swift.max(Double(target.width) / Double(pixelSize.width), Double(target.height) / Double(pixelSize.height))
                if scale < 0.5 { pixels = Int((Double(pixels) * 4 * scale * scale).rounded(.up)) }
            }
            return Self.product(pixels, 8)
        default:
            return 0
        }
    }

    private static func product(_ factors: Int...) -> Int {
        factors.reduce(1) { result, factor in
            let (product, overflow) = result.multipliedReportingOverflow(by: factor)
            return overflow ? .max : product
        }
    }

    private static func sum(_ terms: Int...) -> Int {
        terms.reduce(0) { result, term in
            let (sum, overflow) = result.addingReportingOverflow(term)
            return overflow ? .max : sum
        }
    }

    /// Has the C allocator give memory that decodes free back to the system at once, so that
    /// what a decode frees stops counting against the process. Call it once, early, in a process
    /// that decodes many large photos (`shoebox serve` and `shoebox worker` do).
    ///
    /// glibc's allocator otherwise keeps it: libvips's tiles and libheif's planes of a few
    /// megabytes come from per-thread arenas (up to 8 per core) that rarely shrink, and the size
    /// above which a block is mapped on its own rises with every large block freed. A server that
    /// had decoded an 8192 × 8192 HEIC and ten 99-megapixel PNGs held 250–290 MB it no longer
    /// used, and the next decodes came on top of it. This maps every block of 1 MiB or more on
    /// its own (unmapped when freed), trims the heap once 4 MiB are free at its top, and keeps
    /// one arena per core (BENCHMARKS.md, `upload-memory`). Elsewhere than glibc it does nothing.
    ///
    /// Smaller blocks freed in the middle of an arena still stay; ``trimAllocator()`` gives
    /// those back after a large decode.
    public static func configureAllocatorForDecoding() {
        #if canImport(Glibc)
            sb_configure_allocator(1 << 20, 4 << 20, Int32(Swift.max(2, ProcessInfo.processInfo.activeProcessorCount)))
        #endif
    }

    /// Gives the memory free in the C allocator's arenas back to the system (glibc's
    /// `malloc_trim`), as after a large decode: the tiles and rows of a 99-megapixel PNG, freed
    /// between others' blocks, otherwise kept `shoebox serve` 100–120 MB larger for good. It
    /// takes a few milliseconds and blocks: call it on a thread that may block. Elsewhere than
    /// glibc it does nothing.
    public static func trimAllocator() {
        #if canImport(Glibc)
            sb_trim_allocator()
        #endif
    }
}
