import Foundation
import ShoeboxImaging
import Testing

/// HEIF box walks over hostile sizes (found by `scripts/fuzz heif`): every one used to stop the
/// process that imported the file.
@Suite struct HEIFContainerTests {
    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + body.count)
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + body
    }

    static let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))

    @Test(
        "A 64-bit box size past what an Int holds, or past the file, is damage",
        arguments: [
            [UInt8](repeating: 0xFF, count: 8),  // 2^64 - 1: not an Int
            [0x7F] + [UInt8](repeating: 0xFF, count: 7),  // Int.max: an Int, but the end overflows
        ])
    func aSixtyFourBitSizePastTheFileIsDamage(_ size: [UInt8]) {
        let bytes = Self.ftyp + [0, 0, 0, 1] + Array("meta".utf8) + size + [UInt8](repeating: 0, count: 16)
        #expect(HEIFContainer.primaryImageSize(Data(bytes)) == nil)
    }

    @Test func aMetaBoxTooShortForItsVersionIsDamage() {
        // `meta` is a full box: four bytes of version and flags before its children.
        for body in [[], [0], [0, 0, 0]] as [[UInt8]] {
            #expect(HEIFContainer.primaryImageSize(Data(Self.ftyp + Self.box("meta", body))) == nil)
        }
    }

    @Test func thePrimaryItemsSizeIsRead() {
        // pitm (item 1), and ipma associating item 1 with the first property, an ispe of 4032 × 3024.
        let pitm = Self.box("pitm", [0, 0, 0, 0, 0, 1])
        let ispe = Self.box("ispe", [0, 0, 0, 0, 0, 0, 0x0F, 0xC0, 0, 0, 0x0B, 0xD0])
        let ipma = Self.box("ipma", [0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0x81])
        let meta = Self.box("meta", [0, 0, 0, 0] + pitm + Self.box("iprp", Self.box("ipco", ispe) + ipma))
        #expect(HEIFContainer.primaryImageSize(Data(Self.ftyp + meta)) == PixelSize(width: 4032, height: 3024))
    }
}
