import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// Issue 44 items 1 and 7: `shoebox import` takes Google Takeout's `.zip` and `.tgz` parts (and
/// any ZIP or tar) directly; a photo in one part meets its JSON in another; an archive cut short,
/// damaged, or with paths that climb out gets a note naming it, and nothing half-made.
@Suite struct ImportArchivesTests {
    /// Builds archives with Python's `zipfile` and `tarfile` (independent writers): `spec` is a
    /// JSON list of `{"archive", "kind": zip|zip64|tgz|tar, "entries": [{"name", "file"?, "text"?, "link"?}]}`.
    static func make(_ spec: [[String: Any]], in folder: URL) throws {
        let script = """
            import json, sys, tarfile, zipfile, io, time
            for archive in json.loads(sys.argv[1]):
                path = archive["archive"]
                def data(entry):
                    if "file" in entry:
                        return open(entry["file"], "rb").read()
                    return entry.get("text", "").encode()
                if archive["kind"].startswith("zip"):
                    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
                        for entry in archive["entries"]:
                            info = zipfile.ZipInfo(entry["name"], date_time=(2019, 6, 12, 14, 30, 0))
                            info.compress_type = zipfile.ZIP_STORED if entry.get("stored") else zipfile.ZIP_DEFLATED
                            with z.open(info, "w", force_zip64=archive["kind"] == "zip64") as out:
                                out.write(data(entry))
                else:
                    with tarfile.open(path, "w:gz" if archive["kind"] == "tgz" else "w", format=tarfile.PAX_FORMAT) as t:
                        for entry in archive["entries"]:
                            info = tarfile.TarInfo(entry["name"])
                            info.mtime = 1560349800
                            if "link" in entry:
                                info.type = tarfile.SYMTYPE
                                info.linkname = entry["link"]
                                t.addfile(info)
                                continue
                            body = data(entry)
                            info.size = len(body)
                            t.addfile(info, io.BytesIO(body))
            """
        let json = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
        let result = try ChildProcess.run("/bin/sh", ["-c", "cd \"$1\" && exec python3 -c \"$2\" \"$3\"", "sh", folder.path, script, json])
        try #require(result.status == 0, "python could not make the archives: \(result.standardError)")
    }

    /// A JPEG without a date of its own: its day comes from Takeout's JSON.
    static func photo(_ seed: UInt64, in folder: URL, named name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try SyntheticPhoto(width: 64, height: 48, seed: seed).image().encoded(as: .jpeg).write(to: url)
        return url.path
    }

    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test func takeoutPartsImportAsOneTreeWithDatesAndAlbums() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let folder = temporary.folder
        let album = "Takeout/Google Photos/Trip to Rome/"
        let json = Self.text(TakeoutImportTests.json(title: "IMG_1.jpg", taken: 1_560_349_800, geo: (41.89, 12.49)))
        // A path longer than tar's 100 characters: pax names it.
        let deep = "Takeout/Google Photos/Photos from 2019/" + String(repeating: "a", count: 90) + ".jpg"
        try Self.make(
            [
                [
                    "archive": "takeout-001.zip", "kind": "zip64",
                    "entries": [
                        ["name": album + "IMG_1.jpg", "file": try Self.photo(1, in: folder, named: "one.jpg"), "stored": true],
                        ["name": album + "metadata.json", "text": #"{"title": "Rome, summer 2019"}"#],
                    ],
                ],
                ["archive": "takeout-002.zip", "kind": "zip", "entries": [["name": album + "IMG_1.jpg.supplemental-metadata.json", "text": json]]],
                ["archive": "takeout-003.tgz", "kind": "tgz", "entries": [["name": deep, "file": try Self.photo(2, in: folder, named: "two.jpg")]]],
            ], in: folder)
        let parts = ["takeout-001.zip", "takeout-002.zip", "takeout-003.tgz"].map { folder.appendingPathComponent($0) }
        let report = await temporary.library.importItems(at: parts, recursive: false)
        #expect(report.archives == 3 && report.imported == 2 && report.takeoutJSON == 1 && report.failed.isEmpty, "\(report)")
        #expect(report.albums.count == 1, "\(report)")
        let assets = try await temporary.library.fetchAssets().allObjects()
        let rome = try #require(assets.first { $0.originalFilename == "IMG_1.jpg" })
        #expect(rome.creationDate == Date(timeIntervalSince1970: 1_560_349_800), "the JSON in another part gave the day")
        #expect(abs((rome.location?.latitude ?? 0) - 41.89) < 1e-9)
        #expect(assets.contains { $0.originalFilename.count == 94 }, "the pax-named photo: \(assets.map(\.originalFilename))")
        let albums = try await temporary.library.fetchAssetCollections(with: .album).allObjects()
        #expect(albums.map(\.localizedTitle) == ["Rome, summer 2019"])
        let staging = try FileManager.default.contentsOfDirectory(atPath: temporary.folder.appendingPathComponent("Test.shoebox/staging").path)
        #expect(staging.isEmpty, "the unpacked folder is gone: \(staging)")
    }

    @Test func badArchivesAreNamedAndNothingHalfMadeOrOutsideStays() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let folder = temporary.folder
        let big = try Self.photo(3, in: folder, named: "big.jpg")
        try Self.make(
            [
                [
                    "archive": "climb.tgz", "kind": "tgz",
                    "entries": [
                        ["name": "../../escaped.jpg", "file": try Self.photo(4, in: folder, named: "four.jpg")],
                        ["name": "fine/IMG_5.jpg", "file": try Self.photo(5, in: folder, named: "five.jpg")],
                        ["name": "fine/link.jpg", "link": "/etc/passwd"],
                    ],
                ],
                [
                    "archive": "cut.zip", "kind": "zip",
                    "entries": [
                        ["name": "IMG_6.jpg", "file": try Self.photo(6, in: folder, named: "six.jpg"), "stored": true],
                        ["name": "IMG_7.jpg", "file": big, "stored": true],
                    ],
                ],
                [
                    "archive": "cut.tgz", "kind": "tgz",
                    "entries": [
                        ["name": "IMG_8.jpg", "file": try Self.photo(8, in: folder, named: "eight.jpg")],
                        ["name": "IMG_9.jpg", "file": big],
                    ],
                ],
                [
                    "archive": "damaged.zip", "kind": "zip",
                    "entries": [["name": "IMG_10.jpg", "file": try Self.photo(10, in: folder, named: "ten.jpg"), "stored": true]],
                ],
            ], in: folder)
        // Cut the ZIP inside its second entry and the .tgz near its end; flip a byte of the last one's photo.
        for (name, keep) in [("cut.zip", 0.8), ("cut.tgz", 0.9)] {
            let url = folder.appendingPathComponent(name)
            let data = try Data(contentsOf: url)
            try data.prefix(Int(Double(data.count) * keep)).write(to: url)
        }
        let damaged = folder.appendingPathComponent("damaged.zip")
        var bytes = [UInt8](try Data(contentsOf: damaged))
        bytes[200] ^= 0xFF
        try Data(bytes).write(to: damaged)

        let archives = ["climb.tgz", "cut.zip", "cut.tgz", "damaged.zip"].map { folder.appendingPathComponent($0) }
        let report = await temporary.library.importItems(at: archives)
        let names = Set(try await temporary.library.fetchAssets().allObjects().map(\.originalFilename))
        #expect(names == ["IMG_5.jpg", "IMG_6.jpg", "IMG_8.jpg"], "what came before each cut, and the fine entry: \(names)")
        #expect(!FileManager.default.fileExists(atPath: temporary.folder.appendingPathComponent("Test.shoebox/escaped.jpg").path))
        #expect(!FileManager.default.fileExists(atPath: temporary.folder.appendingPathComponent("escaped.jpg").path))
        func failure(_ text: String) -> Bool { report.failed.contains { $0.message.contains(text) } }
        #expect(failure("../../escaped.jpg in climb.tgz: its path climbs out of the archive"), "\(report.failed)")
        #expect(failure("fine/link.jpg in climb.tgz: a link, which is not unpacked"), "\(report.failed)")
        #expect(failure("cut.zip: it is cut short"), "\(report.failed)")
        #expect(failure("cut.tgz: it is cut short: the archive ends inside IMG_9.jpg, which was not kept"), "\(report.failed)")
        #expect(failure("IMG_10.jpg in damaged.zip: its bytes do not match its checksum"), "\(report.failed)")
        #expect(report.archives == 4)
    }
}
