import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// `PhotoLibrary.archive(of:options:)`: a ZIP that Python's `zipfile` (an independent reader)
/// opens, checks (every CRC) and unpacks to exactly the files the library holds.
@Suite struct ArchiveTests {
    /// The archive's bytes, whole.
    static func zip(_ library: PhotoLibrary, _ assets: [Asset], _ options: PhotoLibrary.ArchiveOptions = .init()) async throws -> Data {
        var data = Data()
        for try await piece in library.archive(of: assets, options: options) { data.append(piece) }
        return data
    }

    /// The entries of `zip` as Python's `zipfile` reads them, in order, after `testzip()` found
    /// every CRC right.
    static func unpack(_ zip: Data, in folder: URL) throws -> [(name: String, data: Data)] {
        let file = folder.appendingPathComponent("archive-\(UUID().uuidString).zip")
        let out = folder.appendingPathComponent("unpacked-\(UUID().uuidString)")
        try zip.write(to: file)
        let script = """
            import json, sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as z:
                bad = z.testzip()
                if bad is not None:
                    sys.exit("bad CRC in " + bad)
                names = z.namelist()
                for i, name in enumerate(names):
                    with open(sys.argv[2] + "/" + str(i), "wb") as f:
                        f.write(z.read(name))
                print(json.dumps(names))
            """
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let result = try ChildProcess.run("python3", ["-c", script, file.path, out.path])
        try #require(result.status == 0, "zipfile refused the archive: \(result.standardError)")
        let names = try JSONDecoder().decode([String].self, from: Data(result.standardOutput.utf8))
        return try names.enumerated().map { ($0.element, try Data(contentsOf: out.appendingPathComponent("\($0.offset)"))) }
    }

    @Test("Originals: every file of every asset, byte for byte, with names made unique")
    func originals() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let (photo, movie) = try SyntheticLivePhoto(identifier: UUID().uuidString, seed: 4).write(to: temporary.folder, stem: "IMG_0001")
        let sub = temporary.folder.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        // A second photo with the Live Photo's name (another card, another folder).
        let namesake = sub.appendingPathComponent("IMG_0001.JPG")
        try SyntheticPhoto(width: 90, height: 60, seed: 9).image().encoded(as: .jpeg).write(to: namesake)
        _ = try await temporary.importFiles([photo, movie])
        _ = try await temporary.importFiles([namesake])
        let assets = try await temporary.library.fetchAssets().allObjects()
        try #require(assets.count == 2)

        let entries = try Self.unpack(try await Self.zip(temporary.library, assets, .init(files: .originals)), in: temporary.folder)
        #expect(entries.count == 3, "\(entries.map(\.name))")
        #expect(Set(entries.map { $0.name.lowercased() }).count == entries.count, "names are unique: \(entries.map(\.name))")
        let expected = Set([try Data(contentsOf: photo), try Data(contentsOf: movie), try Data(contentsOf: namesake)])
        #expect(Set(entries.map(\.data)) == expected, "the originals, byte for byte")
        #expect(entries.contains { $0.name == photo.lastPathComponent } && entries.contains { $0.name == movie.lastPathComponent })
        #expect(entries.contains { $0.name == "IMG_0001 2.JPG" } || entries.contains { $0.name == "IMG_0001 2.jpg" }, "\(entries.map(\.name))")

        // The current version is one file per asset: the Live Photo's still, not its movie.
        let current = try Self.unpack(try await Self.zip(temporary.library, assets), in: temporary.folder)
        #expect(current.count == 2)
        #expect(!current.contains { $0.data == (try? Data(contentsOf: movie)) })
    }

    @Test("The current version of an edited photo is its render; its original stays out")
    func editedPhotoGivesItsRender() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let url = try temporary.photo("IMG_0042.JPG", seed: 5, width: 120, height: 80)
        let id = try #require(try await temporary.importFiles([url]).first)
        let imported = try #require(try await temporary.library.fetchAssets(withLocalIdentifiers: [id]).firstObject)
        let asset = try await temporary.library.applyAdjustments(Adjustments(rotation: 90), to: imported)
        let entries = try Self.unpack(try await Self.zip(temporary.library, [asset]), in: temporary.folder)
        try #require(entries.count == 1)
        #expect(entries[0].data != (try Data(contentsOf: url)))
        let image = try Image(data: entries[0].data)
        #expect(image.pixelWidth == 80 && image.pixelHeight == 120, "the turned render: \(image.pixelSize)")
        let both = try Self.unpack(try await Self.zip(temporary.library, [asset], .init(files: .originals)), in: temporary.folder)
        #expect(both.map(\.data) == [try Data(contentsOf: url)], "originals are the file as imported")
    }

    @Test("Without location: the GPS goes and every other byte is the same")
    func withoutLocation() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        var metadata = ImageMetadata()
        (metadata.make, metadata.latitude, metadata.longitude) = ("Shoebox", 48.8584, 2.2945)
        let url = temporary.folder.appendingPathComponent("Eiffel.jpg")
        try SyntheticPhoto(width: 100, height: 70, seed: 6).image().writingMetadata(metadata).encoded(as: .jpeg).write(to: url)
        _ = try await temporary.importFiles([url])
        let assets = try await temporary.library.fetchAssets().allObjects()
        let original = try Data(contentsOf: url)

        let kept = try Self.unpack(try await Self.zip(temporary.library, assets), in: temporary.folder)
        #expect(kept.map(\.data) == [original])
        let entries = try Self.unpack(try await Self.zip(temporary.library, assets, .init(includesLocation: false)), in: temporary.folder)
        try #require(entries.count == 1)
        let stripped = entries[0].data
        #expect(stripped.count == original.count && stripped != original)
        #expect(stripped == LocationRemoval.removingLocation(from: original))
        let read = try Image(data: stripped).metadata
        #expect(read.latitude == nil && read.longitude == nil && read.make == "Shoebox")
    }

    @Test("A piece that falls across a patch takes only its part of it")
    func patchesAcrossPieces() {
        let file = Data((0..<100).map { UInt8($0) })
        let patches = [LocationRemoval.Patch(offset: 8, bytes: Data(repeating: 0xEE, count: 10))]
        var rebuilt = Data()
        for start in stride(from: 0, to: 100, by: 7) {
            rebuilt.append(PhotoLibrary.Archive.Iterator.patched(file.subdata(in: start..<min(start + 7, 100)), at: start, with: patches))
        }
        var expected = file
        expected.replaceSubrange(8..<18, with: Data(repeating: 0xEE, count: 10))
        #expect(rebuilt == expected)
    }

    @Test("Names are plain and unique: no folders, no control characters, no dots alone")
    func uniqueNames() {
        var taken: Set<String> = []
        let names = ["../../etc/passwd", "IMG_1.JPG", "img_1.jpg", "IMG_1.JPG", "..", "", "a\u{0}b\nc.png", "README"]
            .map { PhotoLibrary.Archive.Iterator.unique($0, among: &taken) }
        #expect(names == ["....etcpasswd", "IMG_1.JPG", "img_1 2.jpg", "IMG_1 3.JPG", "file", "file 2", "abc.png", "README"])
        // What would mislead or break another system: a right-to-left override (`photo‮gpj.exe`
        // shows as `photoexe.jpg`), line and paragraph separators, invisible marks, and the
        // characters Windows and macOS refuse.
        let tricky = ["photo\u{202E}gpj.exe", "a\u{2028}b\u{2029}c.jpg", "zero\u{200B}width\u{2066}.png", "12:30 <shot>?.jpg", "a|b*\"c\".heic"]
            .map { PhotoLibrary.Archive.Iterator.unique($0, among: &taken) }
        #expect(tricky == ["photogpj.exe", "abc.jpg", "zerowidth.png", "12-30 _shot__.jpg", "a_b__c_.heic"])
    }

    @Test("70,000 entries and a 4 GiB entry's ZIP64 fields read back in zipfile")
    func zip64() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-zip64-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var writer = ZipStreamWriter()
        var zip = Data()
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        for index in 0..<70_000 {
            let body = Data("\(index)".utf8)
            // The first says it will be large: its local header takes a ZIP64 field.
            zip.append(writer.begin(name: "\(index).txt", modified: date, expectedSize: index == 0 ? 5_000_000_000 : body.count))
            writer.add(body)
            zip.append(body)
            zip.append(writer.end())
        }
        zip.append(writer.finish())
        // The ZIP64 end record (found through its locator, just before the classic end record)
        // counts them all; the classic record says 0xFFFF.
        func le(_ at: Int, _ width: Int) -> UInt64 { (0..<width).reduce(0) { $0 | UInt64(zip[at + $1]) << (8 * UInt64($1)) } }
        let locator = zip.count - 22 - 20
        #expect(le(locator, 4) == 0x0706_4B50 && le(zip.count - 22 + 10, 2) == 0xFFFF)
        let record = Int(le(locator + 8, 8))
        #expect(le(record, 4) == 0x0606_4B50 && le(record + 32, 8) == 70_000)
        let entries = try Self.unpack(zip, in: folder)
        #expect(entries.count == 70_000)
        #expect(entries.first.map { String(decoding: $0.data, as: UTF8.self) } == "0")
        #expect(entries.last.map { ($0.name, String(decoding: $0.data, as: UTF8.self)) } ?? ("", "") == ("69999.txt", "69999"))
    }

    @Test("An entry is named by what its bytes are: a PNG imported as clip.mov is clip.png, an edit's render its own type")
    func entriesAreNamedByTheirBytes() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let url = temporary.folder.appendingPathComponent("clip.mov")
        try SyntheticPhoto(width: 40, height: 30, seed: 3).image().encoded(as: .png).write(to: url)
        let identifier = try #require(try await temporary.importFiles([url]).first)
        let asset = try #require(try await temporary.library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject)
        #expect(asset.uniformTypeIdentifier == UTType.png.identifier && asset.originalFilename == "clip.mov")
        #expect(asset.currentResource.deliveredFilename == "clip.png")
        let entries = try Self.unpack(try await Self.zip(temporary.library, [asset], .init(files: .originals)), in: temporary.folder)
        #expect(entries.map(\.name) == ["clip.png"])
        #expect(entries.first?.data == (try Data(contentsOf: url)))
    }
}
