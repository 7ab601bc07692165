internal import CVips
import Foundation

/// Owns one reference to a `VipsSource`: the bytes an image is read from.
///
/// Not `Sendable`: a source has a read position. Each operation makes its own.
final class VipsSourceHandle {
    let pointer: OpaquePointer

    private init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        sb_source_unref(pointer)
    }

    /// A source reading the file at `path` (opened now, read lazily).
    static func file(_ path: String) throws(ImageError) -> VipsSourceHandle {
        try Vips.initialize()
        Vips.clearErrors()
        guard let pointer = sb_source_new_from_file(path) else {
            throw ImageError.io(path: path, underlying: VipsFailure(message: Vips.takeError()))
        }
        return VipsSourceHandle(owning: pointer)
    }

    /// A source over a private copy of `data`; libvips frees the copy with the source.
    static func copying(_ data: Data) throws(ImageError) -> VipsSourceHandle {
        try Vips.initialize()
        let pointer = data.withUnsafeBytes { bytes in
            sb_source_new_from_copy(bytes.baseAddress, bytes.count)
        }
        guard let pointer else {
            throw ImageError.corrupt(reason: "could not read the data: \(Vips.takeError())")
        }
        return VipsSourceHandle(owning: pointer)
    }

    /// Opens the image header. Pixels are decoded later, on demand.
    func openImage(sequential: Bool) throws(ImageError) -> VipsImageHandle {
        Vips.clearErrors()
        guard sb_source_rewind(pointer) == 0 else {
            throw ImageError.corrupt(reason: Vips.takeError())
        }
        guard let image = sb_image_new_from_source(pointer, sequential ? 1 : 0, 1) else {
            throw ImageError.headerFailure(Vips.takeError())
        }
        return VipsImageHandle(owning: image)
    }

    /// `vips_thumbnail_source`: shrink-on-load, auto-rotation, never upscaling.
    func thumbnail(width: Int, height: Int, crop: Bool) throws(ImageError) -> VipsImageHandle {
        Vips.clearErrors()
        guard sb_source_rewind(pointer) == 0 else {
            throw ImageError.corrupt(reason: Vips.takeError())
        }
        return try Vips.run(
            { sb_thumbnail_source(pointer, Int32(width), Int32(height), 2, crop ? 1 : 0, 1, $0) },
            error: ImageError.decodeFailure)
    }
}

/// libvips's own text for a failure that has no errno-level detail.
struct VipsFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
