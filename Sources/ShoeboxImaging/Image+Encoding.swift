internal import CVips
import Foundation
import ShoeboxSupport

extension Image {
    /// Encodes the upright image.
    ///
    /// Pixels are always written upright, so the written EXIF orientation is 1 (or absent when
    /// metadata is stripped). JPEG has no alpha: transparent areas are flattened onto white.
    ///
    /// ```swift
    /// let jpeg = try image.encoded(as: .jpeg, options: ImageEncodingOptions(quality: 0.8))
    /// let webp = try image.encoded(as: .webp, options: ImageEncodingOptions(keepsMetadata: false))
    /// ```
    ///
    /// - Parameters:
    ///   - format: One of ``ImageFormat/encodable``; HEIC only where ``ImageFormat/canEncode``.
    ///   - options: Quality, metadata and format details.
    /// - Returns: The encoded bytes.
    /// - Throws: ``ImageError/Code/encodingFailed`` when the format cannot be written
    ///   here; ``ImageError/Code/corrupt`` when the source pixels cannot be decoded.
    public func encoded(as format: ImageFormat, options: ImageEncodingOptions = ImageEncodingOptions()) throws(ImageError) -> Data {
        BlockingCheck.note("a libvips encode")
        guard ImageFormat.encodable.contains(format) else {
            throw .encodingFailed(format: format, reason: "Shoebox writes only \(ImageFormat.encodable.map(\.rawValue).joined(separator: ", "))")
        }
        guard format.canEncode else {
            throw .encodingFailed(format: format, reason: "this libvips build has no encoder for it")
        }
        var handle = try uprightPipeline()
        if format == .jpeg, handle.hasAlpha {
            handle = try handle.flattened()
        }
        if !options.keepsMetadata {
            handle = try handle.strippingMetadata()
        }
        let lazy: Bool = if case .raster = storage { false } else { true }
        let strip: Int32 = options.keepsMetadata ? 0 : 1
        let quality = options.vipsQuality
        let pointer = handle.pointer
        switch format {
        case .jpeg:
            let interlace: Int32 = options.isProgressive ? 1 : 0
            return try handle.save({ sb_jpegsave_buffer(pointer, quality, strip, interlace, $0, $1) }, format: format, lazySource: lazy)
        case .png:
            let interlace: Int32 = options.isProgressive ? 1 : 0
            return try handle.save({ sb_pngsave_buffer(pointer, strip, 6, interlace, $0, $1) }, format: format, lazySource: lazy)
        case .webp:
            let lossless: Int32 = options.isLossless ? 1 : 0
            return try handle.save({ sb_webpsave_buffer(pointer, quality, lossless, strip, $0, $1) }, format: format, lazySource: lazy)
        case .heic:
            return try handle.save({ sb_heifsave_buffer(pointer, quality, strip, $0, $1) }, format: format, lazySource: lazy)
        default:
            throw .encodingFailed(format: format, reason: "not an encodable format")
        }
    }

    /// Encodes the upright image and writes it to `url` atomically.
    ///
    /// - Parameters:
    ///   - url: A file URL.
    ///   - format: The format; when `nil`, taken from the file name's extension.
    ///   - options: Quality, metadata and format details.
    /// - Throws: ``ImageError/Code/invalidArgument`` when no format is given and the extension names
    ///   none; ``ImageError/Code/io`` when the file cannot be written; otherwise as
    ///   ``encoded(as:options:)``.
    public func write(to url: URL, format: ImageFormat? = nil, options: ImageEncodingOptions = ImageEncodingOptions()) throws(ImageError) {
        guard let format = format ?? ImageFormat(name: url.pathExtension) else {
            throw .invalidArgument("cannot tell an image format from the name \(url.lastPathComponent); pass one")
        }
        let data = try encoded(as: format, options: options)
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw .io(path: url.path, underlying: error)
        }
    }
}

/// Whether libheif here can actually encode HEVC (Debian's libheif may ship without x265).
enum HEIFEncoderProbe {
    static let canEncodeHEVC: Bool = {
        guard let bitmap = try? Bitmap(width: 16, height: 16, channels: 3, bytes: [UInt8](repeating: 128, count: 16 * 16 * 3)),
            let image = try? Image(bitmap: bitmap)
        else { return false }
        guard case .raster(let handle) = image.storage else { return false }
        let pointer = handle.pointer
        return (try? handle.save({ sb_heifsave_buffer(pointer, 50, 1, $0, $1) }, format: .heic)) != nil
    }()
}
