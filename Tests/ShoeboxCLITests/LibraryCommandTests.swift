import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@Suite struct LibraryCommandTests {
    let folder: URL
    let library: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-lib-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("in/sub"), withIntermediateDirectories: true)
        library = folder.appendingPathComponent("Test.shoebox").path
        try SyntheticPhoto(width: 90, height: 60, seed: 1).image().write(to: folder.appendingPathComponent("in/one.jpg"))
        try SyntheticPhoto(width: 60, height: 90, seed: 2).image().write(to: folder.appendingPathComponent("in/sub/two.png"))
        // The same bytes under the same name in a sub-folder: a duplicate, whichever of the two the
        // concurrent import stores first.
        try FileManager.default.copyItem(at: folder.appendingPathComponent("in/one.jpg"), to: folder.appendingPathComponent("in/sub/one.jpg"))
        try Data("notes".utf8).write(to: folder.appendingPathComponent("in/notes.txt"))
        // A JPEG cut short: the camera's card was pulled mid-write.
        let jpeg = try SyntheticPhoto(width: 200, height: 150, seed: 3).image().encoded(as: .jpeg)
        try jpeg.prefix(jpeg.count / 2).write(to: folder.appendingPathComponent("in/broken.jpg"))
        _ = try CLIRunner.run(["init", "--library", library])
    }

    func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    func run(_ arguments: [String]) throws -> ChildProcess.Result {
        try CLIRunner.run(arguments + ["--library", library])
    }

    @Test func importListChangeAndExport() throws {
        #expect(try run(["init"]).status == 0)
        let imported = try run(["import", "--recursive", "--json", folder.appendingPathComponent("in").path])
        #expect(imported.status == 1, "one file failed")
        let summary = try #require(try json(imported.standardOutput) as? [String: Any])
        #expect(summary["imported"] as? Int == 2)
        #expect(summary["duplicates"] as? Int == 1)
        let failed = try #require(summary["failed"] as? [[String: Any]])
        #expect(failed.count == 1)
        #expect(failed.first?["code"] as? String == "corrupt")
        #expect((failed.first?["path"] as? String)?.hasSuffix("broken.jpg") == true)
        #expect((failed.first?["message"] as? String)?.hasSuffix("broken.jpg: the file is damaged: it ends early") == true)
        #expect((summary["skipped"] as? [String])?.map { ($0 as NSString).lastPathComponent } == ["notes.txt"])
        #expect((summary["assets"] as? [String])?.count == 3)

        let listed = try run(["ls", "--json", "--sort", "filename"])
        #expect(listed.status == 0)
        let assets = try #require(try json(listed.standardOutput) as? [[String: Any]])
        #expect(assets.map { $0["originalFilename"] as? String } == ["one.jpg", "two.png"])
        for key in [
            "localIdentifier", "mediaType", "pixelWidth", "pixelHeight", "creationDate", "duration", "originalFilename",
            "isFavorite", "isHidden", "contentHash",
        ] {
            #expect(assets.first?[key] != nil, "\(key)")
        }
        // What is not known is there as null (a script sees every key), a burst's key photo false.
        for key in ["timeZoneOffset", "timeZone", "latitude", "longitude", "originalAssetIdentifier", "creatorClient", "burstIdentifier"] {
            #expect(assets.first?[key] is NSNull, "\(key) is \(String(describing: assets.first?[key]))")
        }
        #expect(assets.first?["representsBurst"] as? Bool == false)
        let first = try #require(assets.first?["localIdentifier"] as? String)
        let second = try #require(assets.last?["localIdentifier"] as? String)
        // Search, as the web app's field: a file name's word, a kind; what it understood on stderr.
        let searched = try run(["ls", "--json", "--search", "TWO photos"])
        #expect((try json(searched.standardOutput) as? [[String: Any]])?.map { $0["originalFilename"] as? String } == ["two.png"])
        #expect(searched.standardError.contains("“two” · Photos"), "\(searched.standardError)")
        #expect((try json(try run(["ls", "--json", "--search", "videos"]).standardOutput) as? [Any])?.isEmpty == true)

        #expect(try run(["favorite", first]).status == 0)
        let favorites = try #require(try json(try run(["ls", "--favorites", "--json"]).standardOutput) as? [[String: Any]])
        #expect(favorites.map { $0["localIdentifier"] as? String } == [first])

        #expect(try run(["hide", second]).status == 0)
        #expect((try json(try run(["ls", "--json"]).standardOutput) as? [Any])?.count == 1)
        #expect(try run(["hide", "--off", second]).status == 0)

        #expect(try run(["delete", second]).status == 0)
        let trash = try #require(try json(try run(["ls", "--trash", "--json"]).standardOutput) as? [[String: Any]])
        #expect(trash.map { $0["localIdentifier"] as? String } == [second])
        #expect(try run(["restore", second]).status == 0)
        #expect((try json(try run(["ls", "--json"]).standardOutput) as? [Any])?.count == 2)

        let out = folder.appendingPathComponent("out")
        #expect(try run(["export", first, first, "--to", out.path, "--original"]).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(names == ["one 2.jpg", "one.jpg"])
        #expect(try Data(contentsOf: out.appendingPathComponent("one.jpg")) == Data(contentsOf: folder.appendingPathComponent("in/one.jpg")))

        #expect(try run(["delete", second]).status == 0)
        let purge = try run(["purge", "--yes"])
        #expect(purge.status == 0 && purge.standardOutput.contains("purged 1"))
        #expect((try json(try run(["ls", "--json"]).standardOutput) as? [Any])?.count == 1)

        let unknown = try run(["favorite", "NOPE/L0/001"])
        #expect(unknown.status == 1 && unknown.standardError.contains("no asset NOPE/L0/001"))
    }

    @Test func albums() throws {
        let imported = try run([
            "import", "--album", "Trip", "--json", folder.appendingPathComponent("in/one.jpg").path,
            folder.appendingPathComponent("in/sub/two.png").path,
        ])
        #expect(imported.status == 0, "\(imported.standardError)")
        let ids = try #require((try json(imported.standardOutput) as? [String: Any])?["assets"] as? [String])
        let listed = try #require(try json(try run(["albums", "--json"]).standardOutput) as? [[String: Any]])
        let trip = try #require(listed.first { $0["title"] as? String == "Trip" })
        #expect(trip["count"] as? Int == 2 && trip["type"] as? String == "album")
        #expect(listed.filter { $0["type"] as? String == "smartAlbum" }.count == 8)
        let recents = try #require(listed.first { $0["title"] as? String == "Recents" })
        #expect(recents["count"] as? Int == 2)

        #expect(try run(["album", "rename", "Trip", "Big trip"]).status == 0)
        #expect(try run(["album", "remove", "Big trip", ids[0]]).status == 0)
        let created = try run(["album", "create", "Empty"])
        #expect(created.status == 0 && created.standardOutput.hasSuffix("/L0/001\n"))
        #expect(try run(["album", "add", "Empty", ids[0], ids[1]]).status == 0)
        let after = try #require(try json(try run(["albums", "--json"]).standardOutput) as? [[String: Any]])
        #expect(after.first { $0["title"] as? String == "Big trip" }?["count"] as? Int == 1)
        #expect(after.first { $0["title"] as? String == "Empty" }?["count"] as? Int == 2)
        #expect(try run(["album", "delete", "Empty"]).status == 0)
        #expect(try run(["album", "delete", "Empty"]).status == 1)
    }

    @Test("A folder with a Live Photo's two files imports one asset; export --original writes both")
    func livePhotoImportAndExport() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = folder.appendingPathComponent("live")
        try FileManager.default.createDirectory(at: live, withIntermediateDirectories: true)
        let (photo, movie) = try SyntheticLivePhoto(identifier: UUID().uuidString, seed: 5).write(to: live, stem: "IMG_0042")
        let imported = try run(["import", "--json", live.path])
        #expect(imported.status == 0, "\(imported.standardError)")
        // Whichever file the concurrent import commits first, the movie counts as paired.
        let summary = try #require(try json(imported.standardOutput) as? [String: Any])
        #expect(summary["imported"] as? Int == 1 && summary["paired"] as? Int == 1, "\(summary)")
        #expect(Set(summary["assets"] as? [String] ?? []).count == 1)
        let listed = try #require(try json(try run(["ls", "--json"]).standardOutput) as? [[String: Any]])
        let id = try #require(listed.first?["localIdentifier"] as? String)
        #expect(listed.count == 1)

        let out = folder.appendingPathComponent("out")
        let exported = try run(["export", id, "--to", out.path, "--original"])
        #expect(exported.status == 0, "\(exported.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["IMG_0042.JPG", "IMG_0042.MOV"])
        #expect(try Data(contentsOf: out.appendingPathComponent("IMG_0042.MOV")) == Data(contentsOf: movie))
        #expect(try Data(contentsOf: out.appendingPathComponent("IMG_0042.JPG")) == Data(contentsOf: photo))
        // Without --original: the current version, the photo alone.
        #expect(try run(["export", id, "--to", folder.appendingPathComponent("current").path]).standardOutput.hasSuffix("IMG_0042.JPG\n"))
        // As one ZIP: both originals, as Python's zipfile reads them.
        let zip = folder.appendingPathComponent("Live.zip")
        let zipped = try run(["export", id, "--zip", zip.path, "--original"])
        #expect(zipped.status == 0 && zipped.standardOutput == zip.path + "\n", "\(zipped.standardError)")
        let listing = try ChildProcess.run(
            "python3",
            [
                "-c",
                "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; "
                    + "print(' '.join(f'{n}:{len(z.read(n))}' for n in z.namelist()))", zip.path,
            ])
        let sizes = try [photo, movie].map { "\($0.lastPathComponent):\(try Data(contentsOf: $0).count)" }.joined(separator: " ")
        #expect(listing.status == 0 && listing.standardOutput == sizes + "\n", "\(listing.standardOutput) \(listing.standardError)")
        #expect(!FileManager.default.fileExists(atPath: zip.path + ".partial"))
        // Where to write: one of --to and --zip.
        let nowhere = try run(["export", id])
        #expect(nowhere.status == 64 && nowhere.standardError.contains("--to FOLDER or --zip"), "\(nowhere.standardError)")
    }

    @Test func editRevertExportAndFolders() throws {
        let imported = try run(["import", "--json", folder.appendingPathComponent("in/one.jpg").path])
        let id = try #require((try json(imported.standardOutput) as? [String: Any])?["assets"] as? [String]).first ?? ""
        let edited = try run(["edit", id, "--rotate", "90", "--crop", "0,0,1,0.5", "--json"])
        #expect(edited.status == 0, "\(edited.standardError)")
        let record = try #require(try json(edited.standardOutput) as? [String: Any])
        #expect(record["pixelWidth"] as? Int == 60 && record["pixelHeight"] as? Int == 45 && record["hasAdjustments"] as? Bool == true)

        let out = folder.appendingPathComponent("out").path
        let current = try run(["export", id, "--to", out])
        #expect(current.standardOutput.hasSuffix("one_edited.jpg\n"))
        #expect(try Image(contentsOfFile: out + "/one_edited.jpg").pixelSize == PixelSize(width: 60, height: 45))
        #expect(try run(["export", id, "--to", out, "--original"]).standardOutput.hasSuffix("one.jpg\n"))
        #expect(try Image(contentsOfFile: out + "/one.jpg").pixelSize == PixelSize(width: 90, height: 60))

        let copy = try run(["edit", id, "--rotate", "180", "--as-copy", "--json"])
        let copyRecord = try #require(try json(copy.standardOutput) as? [String: Any])
        #expect(copyRecord["originalAssetIdentifier"] as? String == id)
        #expect(try run(["edit", id, "--rotate", "45"]).status == 1)
        #expect(try run(["edit", id, "--crop", "1,2"]).status != 0)

        #expect(try run(["revert", id]).status == 0)
        let listed = try #require(try json(try run(["ls", "--json"]).standardOutput) as? [[String: Any]])
        let reverted = try #require(listed.first { $0["localIdentifier"] as? String == id })
        #expect(reverted["pixelWidth"] as? Int == 90 && reverted["hasAdjustments"] as? Bool == false)

        let folderID = try run(["album", "create-folder", "Trips"]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try run(["album", "create", "Rome", "--folder", "Trips"]).status == 0)
        let albums = try #require(try json(try run(["albums", "--json"]).standardOutput) as? [[String: Any]])
        #expect(albums.first { $0["title"] as? String == "Trips" }?["type"] as? String == "folder")
        #expect(albums.first { $0["title"] as? String == "Rome" }?["folder"] as? String == folderID)
        #expect(try run(["album", "move", "Rome", "--top-level"]).status == 0)
        let moved = try #require(try json(try run(["albums", "--json"]).standardOutput) as? [[String: Any]])
        #expect(moved.first { $0["title"] as? String == "Rome" }?["folder"] == nil)
        #expect(try run(["purge", "--set-retention", "7"]).standardOutput.hasPrefix("retention 7.0 days"))
    }

    /// Issue 18 items 9 and 15: a folder's import names what it left out (sidecars, sub-folders
    /// without --recursive) and says in plain words what is wrong with a file.
    @Test func importSaysWhatItSkippedAndWhy() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<plist/>".utf8).write(to: folder.appendingPathComponent("in/one.aae"))
        try XMPPacketFixture.empty.write(to: folder.appendingPathComponent("in/two.xmp"))
        let result = try run(["import", folder.appendingPathComponent("in").path])
        #expect(result.status == 1, "broken.jpg failed")
        #expect(result.standardError.contains("skipped 2 sidecar or text files, not photos or movies: notes.txt, one.aae"), "\(result.standardError)")
        #expect(
            result.standardError.contains(
                "waiting: two.xmp is the XMP sidecar of a photo or movie named two and any extension, which this import did not bring in"),
            "two.png is in sub/, which a flat import leaves: \(result.standardError)")
        #expect(result.standardError.contains("skipped 1 sub-folder (--recursive imports them too): \(folder.appendingPathComponent("in/sub").path)"))
        #expect(result.standardError.contains("broken.jpg: the file is damaged: it ends early"))
        #expect(!result.standardError.lowercased().contains("vips"), "no internals: \(result.standardError)")
        #expect(result.standardOutput.contains("imported 1, duplicates 0, sidecars waiting 1, skipped 2, failed 1"), "\(result.standardOutput)")
    }

    /// Issue 44 item 3: `--albums-from-folders` files in/ and in/sub/ into albums, in/ being a
    /// folder that holds both photos and a folder.
    @Test func importMakesAlbumsFromFolders() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try run(["import", "--recursive", "--albums-from-folders", folder.appendingPathComponent("in").path])
        #expect(result.standardOutput.contains("failed 1, into 2 albums"), "\(result.standardOutput)")
        let listed = try #require(try json(try run(["albums", "--json"]).standardOutput) as? [[String: Any]])
        let made = listed.filter { $0["type"] as? String != "smartAlbum" }.map { "\($0["type"] ?? "") \($0["title"] ?? "") \($0["count"] ?? "")" }
        #expect(made.sorted() == ["album in 1", "album sub 2", "folder in 2"], "\(made)")
    }

    /// Imports `file` on its own; returns its asset's identifier.
    func importOne(_ file: String) throws -> String {
        let imported = try run(["import", "--json", folder.appendingPathComponent(file).path])
        #expect(imported.status == 0, "\(imported.standardError)")
        return try #require((try json(imported.standardOutput) as? [String: Any])?["assets"] as? [String]).first ?? ""
    }

    /// Issue 39 item 4: `shoebox edit ID` with no edit option is a usage error that names the
    /// options, and the photo's edit stays (it used to be replaced by an empty one, exit 0).
    @Test func editWithoutAnEditOptionIsAUsageError() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let id = try importOne("in/one.jpg")
        #expect(try run(["edit", id, "--rotate", "90"]).status == 0)
        for bare in [["edit", id], ["edit", id, "--json"], ["edit", id, "--as-copy"]] {
            let result = try run(bare)
            #expect(result.status == 64, "\(bare): \(result.status) \(result.standardError)")
            for option in ["--rotate", "--flip", "--straighten", "--crop", "--exposure", "--filter", "--trim"] {
                #expect(result.standardError.contains(option), "\(bare) does not name \(option): \(result.standardError)")
            }
        }
        let listed = try #require(try json(try run(["ls", "--json"]).standardOutput) as? [[String: Any]])
        #expect(listed.count == 1 && listed.first?["hasAdjustments"] as? Bool == true && listed.first?["pixelWidth"] as? Int == 60)
    }

    /// Issue 39 item 4: `shoebox purge` without identifiers empties Recently Deleted only when
    /// the person says so: asked on a terminal, `--yes` otherwise (here standard input is not a
    /// terminal, so it refuses and purges nothing).
    @Test func purgingEverythingNeedsYesWithoutATerminal() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let id = try importOne("in/one.jpg")
        #expect(try run(["delete", id]).status == 0)
        let refused = try run(["purge"])
        #expect(refused.status == 1, "\(refused.status) \(refused.standardError)")
        #expect(refused.standardError.contains("--yes") && refused.standardError.contains("1 item"), "\(refused.standardError)")
        let trash = try #require(try json(try run(["ls", "--trash", "--json"]).standardOutput) as? [[String: Any]])
        #expect(trash.count == 1, "nothing is purged without --yes")
        let purged = try run(["purge", "--yes"])
        #expect(purged.status == 0 && purged.standardOutput == "purged 1\n", "\(purged.standardOutput) \(purged.standardError)")
        // Nothing left: nothing to ask about.
        #expect(try run(["purge"]).standardOutput == "purged 0\n")
    }

    /// Issue 39 item 4: on a terminal, `shoebox purge` asks first, as the web app does; only y purges.
    @Test func purgingEverythingAsksOnATerminal() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let id = try importOne("in/one.jpg")
        #expect(try run(["delete", id]).status == 0)
        let declined = try TerminalInput.run(["purge", "--library", library], typing: "n\n")
        #expect(declined.status == 1, "\(declined.status) \(declined.standardOutput) \(declined.standardError)")
        #expect(declined.standardError.contains("Delete 1 item forever? This cannot be undone. [y/N]"), "\(declined.standardError)")
        #expect(declined.standardError.contains("nothing purged"))
        #expect((try json(try run(["ls", "--trash", "--json"]).standardOutput) as? [[String: Any]])?.count == 1)
        let accepted = try TerminalInput.run(["purge", "--library", library], typing: "y\n")
        #expect(accepted.status == 0 && accepted.standardOutput == "purged 1\n", "\(accepted.standardOutput) \(accepted.standardError)")
        #expect((try json(try run(["ls", "--trash", "--json"]).standardOutput) as? [[String: Any]])?.count == 0)
    }

    /// Issue 39 item 22: a text file without an extension (README) is skipped with a note, as
    /// notes.txt is, not a failure.
    @Test func aTextFileWithoutAnExtensionIsSkippedLikeNotesTxt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("Holiday photos, 2024.\nAsk Ann for the rest.\n".utf8).write(to: folder.appendingPathComponent("in/README"))
        let result = try run(["import", "--json", folder.appendingPathComponent("in").path])
        #expect(result.status == 1, "broken.jpg failed")
        let summary = try #require(try json(result.standardOutput) as? [String: Any])
        #expect((summary["skipped"] as? [String])?.map { ($0 as NSString).lastPathComponent } == ["README", "notes.txt"])
        let failed = try #require(summary["failed"] as? [[String: Any]])
        #expect(failed.compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } } == ["broken.jpg"], "\(failed)")
    }

    /// Issue 39 item G: a file whose name is not valid UTF-8 (a Latin-1 name from an old
    /// camera or archive) is imported, not left out without a word; its name is read as Latin-1.
    @Test func aFileNameThatIsNotUTF8IsImported() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let latin = folder.appendingPathComponent("latin")
        try FileManager.default.createDirectory(at: latin, withIntermediateDirectories: true)
        let photo = try SyntheticPhoto(width: 40, height: 30, seed: 9).image().encoded(as: .jpeg)
        // "caf\xE9.jpg": é in Latin-1, which is not UTF-8.
        let name = Array((latin.path + "/caf").utf8) + [0xE9] + Array(".jpg".utf8)
        let descriptor = (name.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        try #require(descriptor >= 0, "cannot make the file: errno \(errno)")
        photo.withUnsafeBytes { _ = write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        let result = try run(["import", "--json", latin.path])
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        let summary = try #require(try json(result.standardOutput) as? [String: Any])
        #expect(summary["imported"] as? Int == 1, "\(summary)")
        let listed = try #require(try json(try run(["ls", "--json"]).standardOutput) as? [[String: Any]])
        #expect(listed.map { $0["originalFilename"] as? String } == ["café.jpg"])
    }

    /// Issue 39 item 22: options before a subcommand (`shoebox jobs --library X reread-metadata`)
    /// are that subcommand's, not a reason to run the default one.
    @Test func optionsBeforeASubcommandAreItsOwn() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try importOne("in/one.jpg")
        let reread = try CLIRunner.run(["jobs", "--library", library, "reread-metadata", "--all", "--json"])
        #expect(reread.status == 0, "\(reread.standardError)")
        #expect(reread.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"queued": 1}"#, "\(reread.standardOutput)")
        let created = try CLIRunner.run(["album", "--library=\(library)", "create", "Rome"])
        #expect(created.status == 0, "\(created.standardError)")
        let albums = try #require(try json(try run(["albums", "--json"]).standardOutput) as? [[String: Any]])
        #expect(albums.contains { $0["title"] as? String == "Rome" })
        // Without a subcommand, the options are the default one's, as before.
        #expect(try CLIRunner.run(["jobs", "--library", library, "--json"]).status == 0)
    }

    /// Issue 18 item 15: the exit statuses are the README's: 64 for a usage error, 1 for a failure.
    @Test func exitStatusesAreTheDocumentedOnes() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        for usage in [["ls", "--limit", "-1"], ["import"], ["ls", "--no-such-option"], ["album", "create"], ["frobnicate"]] {
            let result = try run(usage)
            #expect(result.status == 64, "\(usage): \(result.status) \(result.standardError)")
        }
        let failure = try run(["favorite", "no-such-asset"])
        #expect(failure.status == 1, "\(failure.status) \(failure.standardError)")
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../README.md"), encoding: .utf8)
        #expect(readme.contains("the exit status is 0 on\nsuccess, 1 on failure and 64 for a usage error"))
    }

    @Test(
        "Library commands have --help",
        arguments: [
            "init", "import", "ls", "favorite", "hide", "delete", "restore", "purge", "export", "albums", "album create", "album add", "album create-folder",
            "album move", "edit", "revert", "adjust", "keywords",
        ])
    func help(_ command: String) throws {
        let result = try CLIRunner.run(command.split(separator: " ").map(String.init) + ["--help"])
        #expect(result.status == 0 && result.standardOutput.contains("--library"))
    }

    /// Issue 18 item 15: a `--library` that does not exist is an error for every command but
    /// `init`, never a new empty library.
    @Test func aMistypedLibraryIsAnErrorNotANewLibrary() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let typo = folder.appendingPathComponent("Tset.shoebox").path
        for command in [["ls"], ["albums"], ["import", folder.appendingPathComponent("in/one.jpg").path], ["privacy", "list"], ["doctor"]] {
            let result = try CLIRunner.run(command + ["--library", typo])
            #expect(result.status == 1 && result.standardError.contains("no library at \(typo)"), "\(command): \(result.status) \(result.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: typo), "a mistyped path became a library")
        #expect(try CLIRunner.run(["init", "--library", typo]).status == 0)
        #expect(try CLIRunner.run(["ls", "--library", typo]).status == 0)
    }
}

/// An XMP packet that says nothing: a sidecar as a tool writes it before anything is set.
enum XMPPacketFixture {
    static let empty = Data(
        #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about=""/></rdf:RDF></x:xmpmeta>"#
            .utf8)
}
