import Foundation
import ShoeboxImaging
import Testing

/// The IPTC-IIM date reader on hand-made records; the corpus's Photo Mechanic file is read in
/// `MakerNoteTests`.
@Suite struct IPTCRecordTests {
    /// One dataset of record 2: tag, big-endian length, value.
    static func dataset(_ tag: UInt8, _ value: String) -> [UInt8] {
        let bytes = Array(value.utf8)
        return [0x1C, 2, tag, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes
    }

    @Test func bareDatasetsWithOffset() {
        let record = Data(Self.dataset(55, "20061029") + Self.dataset(60, "062751-0500"))
        #expect(IPTCRecord.dateCreated(record)?.iso8601String == "2006-10-29T06:27:51-05:00")
    }

    @Test("Inside Photoshop's resource 0x0404, after the Photoshop 3.0 signature")
    func photoshopResource() {
        let datasets = Self.dataset(55, "19991231") + Self.dataset(60, "235959")
        let size = UInt32(datasets.count)
        let resource =
            Array("Photoshop 3.0\0".utf8) + Array("8BIM".utf8) + [0x04, 0x04, 0, 0]
            + withUnsafeBytes(of: size.bigEndian, Array.init) + datasets
        #expect(IPTCRecord.dateCreated(Data(resource))?.iso8601String == "1999-12-31T23:59:59")
    }

    /// Found by `scripts/fuzz xmp` after 9.7 M inputs: a date of eight bytes holding `\r\n`, one
    /// Character in Swift, was cut by character and trapped. Bytes that are not digits are no date.
    @Test func carriageReturnLineFeedInADateIsNoDate() {
        let crash = Data(base64Encoded: "HAI3AAgyMDANCjAyORwCPAALMDYyNzUxLQBRMAr9")!
        #expect(IPTCRecord.dateCreated(crash) == nil)
        #expect(IPTCRecord.dateCreated(Data(Self.dataset(55, "2006\r\n29") + Self.dataset(60, "062751"))) == nil)
        #expect(IPTCRecord.dateCreated(Data(Self.dataset(55, "20061029") + Self.dataset(60, "06\r\n51"))) == nil)
    }

    @Test("An offset that is not four digits is left off; the wall-clock time stays")
    func malformedOffset() {
        let record = Data(Self.dataset(55, "20061029") + Self.dataset(60, "062751-05\r\n"))
        #expect(IPTCRecord.dateCreated(record)?.iso8601String == "2006-10-29T06:27:51")
    }

    @Test func missingTimeIsNoDate() {
        #expect(IPTCRecord.dateCreated(Data(Self.dataset(55, "20061029"))) == nil)
    }
}
