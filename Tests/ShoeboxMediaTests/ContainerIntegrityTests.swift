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
