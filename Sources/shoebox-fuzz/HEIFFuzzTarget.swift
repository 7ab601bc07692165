import Foundation
import ShoeboxImaging

/// HEIF boxes: the primary image's coded size, read from the `ispe` property the item's `ipma`
/// association names, its chroma (through a grid's `iref` tiles), and the box walk beneath it;
/// and the raw containers read the same way: a CR3's metadata streams in Canon's `uuid` box, a
/// RAF's embedded JPEG.
enum HEIFFuzzTarget {
    static func run(_ data: Data) {
        if let canon = RawContainerMetadata.cr3(data) {
            MetadataInvariants.check(canon)
        }
        FuzzCheck.require(
            RawContainerMetadata.cr3(FuzzCheck.shifted(data)) == RawContainerMetadata.cr3(data),
            "a slice of the same bytes reads a different CR3")
        if let jpeg = RawContainerMetadata.rafJPEG(data) {
            FuzzCheck.require(jpeg.count > 4 && jpeg.count <= data.count - 92, "a RAF's JPEG of \(jpeg.count) bytes in \(data.count)")
        }
        if let fuji = RawContainerMetadata.raf(data) {
            MetadataInvariants.check(fuji)
        }
        let size = HEIFContainer.primaryImageSize(data)
        FuzzCheck.require(HEIFContainer.primaryImageSize(FuzzCheck.shifted(data)) == size, "a slice of the same bytes reads differently")
        if let size {
            FuzzCheck.require(
                size.width > 0 && size.height > 0 && size.width <= Int(UInt32.max) && size.height <= Int(UInt32.max),
                "primary image size \(size)")
            // It came from an `ispe` box: its type, four bytes of version and flags, then the size.
            FuzzCheck.require(
                holdsProperty(data, width: UInt32(size.width), height: UInt32(size.height)),
                "\(size) is not the size of any ispe box in the data")
        }
        FuzzCheck.require(
            HEIFContainer.isChroma420(FuzzCheck.shifted(data)) == HEIFContainer.isChroma420(data),
            "a slice of the same bytes reads a different chroma")
        let reader = HEIFContainer.BoxReader(data: data)
        let top = reader.children(in: 0..<data.count)
        check(top, in: 0..<data.count)
        for box in top.prefix(16) {
            check(reader.children(in: box.body), in: box.body)
        }
    }

    /// Boxes lie inside the range they were read from, one after another, each after its header.
    private static func check(_ boxes: [HEIFContainer.BoxReader.Box], in range: Range<Int>) {
        FuzzCheck.require(boxes.count <= 10_000, "\(boxes.count) boxes")
        var end = range.lowerBound
        for box in boxes {
            FuzzCheck.require(
                box.body.lowerBound >= end + 8 && box.body.upperBound <= range.upperBound,
                "\(box.type) box at \(box.body) outside \(end)..<\(range.upperBound)")
            end = box.body.upperBound
        }
    }

    private static func holdsProperty(_ data: Data, width: UInt32, height: UInt32) -> Bool {
        let bytes = [UInt8](data)
        let wanted = [UInt8(ascii: "i"), UInt8(ascii: "s"), UInt8(ascii: "p"), UInt8(ascii: "e")]
        let size = [width, height].flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        guard bytes.count >= 16 else { return false }
        for start in 0...(bytes.count - 16) where Array(bytes[start..<(start + 4)]) == wanted {
            if Array(bytes[(start + 8)..<(start + 16)]) == size { return true }
        }
        return false
    }
}
