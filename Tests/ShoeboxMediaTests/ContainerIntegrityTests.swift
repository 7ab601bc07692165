import Foundation
import ShoeboxMedia
import Testing

/// The truncation check over hostile sizes (found by `scripts/fuzz container`).
@Suite struct ContainerIntegrityTests {
    @Test func aBoxSizeNearTwoToTheSixtyFourIsTruncation() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("huge.mov")
        let ftyp: [UInt8] = [0, 0, 0, 20] + Array("ftypqt  ".utf8) + [0, 0, 0, 0] + Array("qt  ".utf8)
        try Data(ftyp + [0, 0, 0, 1] + Array("mdat".utf8) + [UInt8](repeating: 0xFF, count: 8) + [1, 2, 3, 4]).write(to: url)
        let verdict = try #require(ContainerIntegrity.truncation(of: url.path))
        #expect(verdict.contains("truncated"), "\(verdict)")
    }
}

/// AVI's RIFF chunks and MPEG transport streams against the file's length.
@Suite struct RIFFAndTransportStreamIntegrityTests {
    @Test func aRIFFChunkLongerThanTheFileIsTruncation() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("cut.avi")
        // RIFF 'AVI ' declaring 1000 bytes, with 12 there.
        try Data(Array("RIFF".utf8) + [0xE8, 0x03, 0, 0] + Array("AVI LIST".utf8) + [0, 0, 0, 0]).write(to: url)
        let verdict = try #require(ContainerIntegrity.truncation(of: url.path))
        #expect(verdict.contains("truncated") && verdict.contains("1008"), "\(verdict)")
        // The same chunk, whole (an odd length padded to even), then an AVIX chunk: whole.
        let body = [UInt8](repeating: 0, count: 1001)
        let whole = Array("RIFF".utf8) + [0xE9, 0x03, 0, 0] + body + [0] + Array("RIFF".utf8) + [4, 0, 0, 0] + Array("AVIX".utf8)
        try Data(whole).write(to: url)
        #expect(ContainerIntegrity.truncation(of: url.path) == nil)
    }

    @Test("a transport stream that ends inside a packet is truncation", arguments: [188, 192])
    func transportStreams(packet: Int) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("clip.mts")
        var packets = [UInt8]()
        for _ in 0..<5 {
            var one = [UInt8](repeating: 0xFF, count: packet)
            one[packet - 188] = 0x47
            packets += one
        }
        try Data(packets).write(to: url)
        #expect(ContainerIntegrity.truncation(of: url.path) == nil)
        try Data(packets.dropLast(100)).write(to: url)
        let verdict = try #require(ContainerIntegrity.truncation(of: url.path))
        #expect(verdict.contains("\(packet)-byte") && verdict.contains("truncated"), "\(verdict)")
    }
}
