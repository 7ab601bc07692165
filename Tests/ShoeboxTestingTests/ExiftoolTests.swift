import Foundation
import ShoeboxImaging
import Testing

@testable import ShoeboxTesting

/// exiftool as the metadata tests run it: what it reads is found under the path it was given.
@Suite struct ExiftoolTests {
    /// A folder reached through a symbolic link (`../shared` linked to a corpus elsewhere, as a
    /// fresh clone may have it): exiftool names the file by its real path, the result keeps the
    /// path given.
    @Test func aFileThroughALinkedFolderIsFoundUnderItsGivenPath() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("exiftool-link-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let real = base.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        let photo = real.appendingPathComponent("photo.jpg")
        try SyntheticPhoto(width: 32, height: 24).image().write(to: photo, format: .jpeg)
        _ = try ChildProcess.run("exiftool", ["-q", "-q", "-overwrite_original", "-Make=Shoebox", "-Model=Linked", photo.path])
        let linked = base.appendingPathComponent("linked")
        try FileManager.default.createSymbolicLink(at: linked, withDestinationURL: real)

        let direct = real.appendingPathComponent("photo.jpg")
        let throughLink = linked.appendingPathComponent("photo.jpg")
        let read = try Exiftool.read([throughLink, direct], tags: ["Make", "Model"])
        #expect(read[throughLink.path] == ["Make": "Shoebox", "Model": "Linked"])
        #expect(read[direct.path] == ["Make": "Shoebox", "Model": "Linked"])
        #expect(Exiftool.realPath(throughLink.path) == Exiftool.realPath(direct.path))
    }
}
