import Foundation

extension LocationRemoval {
    /// Matroska's element identifiers that matter here.
    private enum EBML {
        static let segment: UInt32 = 0x1853_8067
        static let cluster: UInt32 = 0x1F43_B675
        static let info: UInt32 = 0x1549_A966
        static let dateUTC: UInt32 = 0x4461
        static let tags: UInt32 = 0x1254_C367
        static let tag: UInt32 = 0x7373
        static let simpleTag: UInt32 = 0x67C8
        static let tagName: UInt32 = 0x45A3
        static let void: UInt8 = 0xEC
        /// Elements that only a segment holds: an unknown-size cluster ends where one begins.
        static let segmentChildren: Set<UInt32> = [
            0x114D_9B74, info, 0x1654_AE6B, 0x1C53_BB6B, 0x1941_A469, 0x1043_A770, tags, cluster,
        ]
    }

    /// An element: its identifier (with its length marker, as Matroska's tables write them),
    /// where its header starts, where its body is (`nil` size: unknown, up to its parent's end).
    private struct Element {
        let id: UInt32
        let start: Int
        let body: Range<Int>
        let sizeKnown: Bool
    }

    /// The places in a Matroska or WebM file (and, when asked, its date): every `SimpleTag` whose
    /// name names a place, and with `includingCaptureDetails` a date or the camera, and the
    /// segment's `DateUTC`, becomes a `Void` element of the same size. Clusters are skipped by
    /// their size (or, written live without one, block by block).
    static func matroskaPatches(_ bytes: Bytes, includingCaptureDetails: Bool) -> [Patch] {
        var patches: [Patch] = []
        var cursor = 0
        while let element = element(in: bytes, at: cursor, end: bytes.count) {
            if element.id == EBML.segment {
                patches += segmentPatches(bytes, element.body, details: includingCaptureDetails)
            }
            guard element.body.upperBound > cursor else { break }
            cursor = element.body.upperBound
        }
        return patches
    }

    private static func segmentPatches(_ bytes: Bytes, _ body: Range<Int>, details: Bool) -> [Patch] {
        var patches: [Patch] = []
        var cursor = body.lowerBound
        var steps = 0
        while steps < 1_000_000, let element = element(in: bytes, at: cursor, end: body.upperBound) {
            steps += 1
            switch element.id {
            case EBML.tags:
                for tag in children(bytes, element.body) where tag.id == EBML.tag {
                    for simple in children(bytes, tag.body) where simple.id == EBML.simpleTag {
                        patches += simpleTagPatches(bytes, simple, details: details)
                    }
                }
            case EBML.info where details:
                for child in children(bytes, element.body) where child.id == EBML.dateUTC {
                    patches += voided(child)
                }
            default:
                break
            }
            if element.sizeKnown {
                cursor = element.body.upperBound
            } else if element.id == EBML.cluster {
                // A live cluster: its blocks, until an element only a segment holds.
                var inner = element.body.lowerBound
                while let block = self.element(in: bytes, at: inner, end: body.upperBound), !EBML.segmentChildren.contains(block.id), block.sizeKnown {
                    inner = block.body.upperBound
                    steps += 1
                    if steps >= 1_000_000 { break }
                }
                cursor = inner
            } else {
                break
            }
            if cursor <= element.start { break }
        }
        return patches
    }

    /// A tag that names a place (or a date or the camera), made `Void`; nested tags looked into.
    private static func simpleTagPatches(_ bytes: Bytes, _ simple: Element, details: Bool) -> [Patch] {
        let parts = children(bytes, simple.body)
        if let name = parts.first(where: { $0.id == EBML.tagName }) {
            let text = String(decoding: bytes[name.body], as: UTF8.self)
            if namesAPlace(text) || (details && namesADetail(text)) { return voided(simple) }
        }
        return parts.filter { $0.id == EBML.simpleTag }.flatMap { simpleTagPatches(bytes, $0, details: details) }
    }

    /// An element turned into a `Void` element of the same size, its body zeroed: the identifier
    /// becomes 0xEC and the size grows a byte (or keeps its width and counts one byte more).
    private static func voided(_ element: Element) -> [Patch] {
        let idLength = idWidth(element.id)
        let sizeWidth = element.body.lowerBound - element.start - idLength
        let total = element.body.upperBound - element.start
        guard sizeWidth >= 1, sizeWidth <= 8, idLength >= 1 else { return [] }
        // Void's header: one identifier byte, then a size of `width` bytes.
        let width = idLength + sizeWidth - 1 <= 8 ? idLength + sizeWidth - 1 : sizeWidth
        let voidBody = total - 1 - width
        guard voidBody >= 0, let size = sizeField(voidBody, width: width) else { return [] }
        return [Patch(offset: element.start, bytes: Data([EBML.void] + size + [UInt8](repeating: 0, count: voidBody)))]
    }

    private static func idWidth(_ id: UInt32) -> Int {
        id > 0xFF_FFFF ? 4 : id > 0xFFFF ? 3 : id > 0xFF ? 2 : 1
    }

    /// `value` as an EBML size of `width` bytes, if it fits (all ones means unknown, so not that).
    private static func sizeField(_ value: Int, width: Int) -> [UInt8]? {
        guard width >= 1, width <= 8, value < (1 << (7 * width)) - 1 else { return nil }
        var bytes = (0..<width).map { UInt8((value >> (8 * (width - 1 - $0))) & 0xFF) }
        bytes[0] |= UInt8(0x80 >> (width - 1))
        return bytes
    }

    private static func children(_ bytes: Bytes, _ range: Range<Int>) -> [Element] {
        var result: [Element] = []
        var cursor = range.lowerBound
        while result.count < 10_000, let element = element(in: bytes, at: cursor, end: range.upperBound), element.sizeKnown {
            result.append(element)
            cursor = element.body.upperBound
        }
        return result
    }

    /// The element at `at`, whose body ends by `end` (an unknown size reaches `end`).
    private static func element(in bytes: Bytes, at: Int, end: Int) -> Element? {
        guard at >= 0, at < end, end <= bytes.count else { return nil }
        let first = bytes[at]
        guard first != 0 else { return nil }
        let idLength = first.leadingZeroBitCount + 1
        guard idLength <= 4, at + idLength < end else { return nil }
        var id: UInt32 = 0
        for index in 0..<idLength { id = id << 8 | UInt32(bytes[at + index]) }
        let sizeAt = at + idLength
        let lead = bytes[sizeAt]
        guard lead != 0 else { return nil }
        let width = lead.leadingZeroBitCount + 1
        guard sizeAt + width <= end else { return nil }
        var value = UInt64(lead & (0xFF >> width))
        var allOnes = value == UInt64(0xFF >> width)
        for index in 1..<width {
            let byte = bytes[sizeAt + index]
            value = value << 8 | UInt64(byte)
            allOnes = allOnes && byte == 0xFF
        }
        let bodyStart = sizeAt + width
        if allOnes { return Element(id: id, start: at, body: bodyStart..<end, sizeKnown: false) }
        guard value <= UInt64(end - bodyStart) else { return nil }
        return Element(id: id, start: at, body: bodyStart..<(bodyStart + Int(value)), sizeKnown: true)
    }
}
