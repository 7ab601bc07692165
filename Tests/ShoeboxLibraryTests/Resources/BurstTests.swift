import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// Bursts: photos an Apple camera names as one burst, or a run of one camera's frames under a
/// second apart, show as one key photo; every frame stays an asset.
@Suite struct BurstTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// A JPEG from `model` (serial `serial`) taken `offset` seconds after ``start``, to the millisecond.
    static func frame(
        _ temporary: TemporaryLibrary, _ name: String, offset: Double, model: String = "X-T5",
        serial: String? = "A1", seed: UInt64
    ) throws -> URL {
        var metadata = ImageMetadata()
        metadata.make = "FUJIFILM"
        metadata.model = model
        metadata.bodySerialNumber = serial
        var taken = ImageMetadata.DateTime(Self.start.addingTimeInterval(offset.rounded(.down)), timeZone: TimeZone(secondsFromGMT: 0)!)
        taken.fractionalSecond = offset - offset.rounded(.down)
        metadata.dateTimeOriginal = taken
        let url = temporary.folder.appendingPathComponent(name)
        try SyntheticPhoto(width: 96, height: 64, seed: seed).image().writingMetadata(metadata)
            .write(to: url, options: ImageEncodingOptions(keepsMetadata: true))
        return url
    }

    static func appleFrame(_ temporary: TemporaryLibrary, _ name: String, burst: String, seed: UInt64) throws -> URL {
        let url = temporary.folder.appendingPathComponent(name)
        try SyntheticLivePhoto(identifier: UUID().uuidString, burstIdentifier: burst, seed: seed).photoData().write(to: url)
        return url
    }

    static func all(_ library: PhotoLibrary) async throws -> [Asset] {
        try await library.fetchAssets(with: FetchOptions(includeAllBurstAssets: true)).allObjects()
    }

    @Test("Photos with one Apple burst identifier show as their first frame; every frame stays an asset")
    func appleBurst() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let burst = UUID().uuidString
        let files = try (1...4).map { try Self.appleFrame(temporary, "IMG_000\($0).JPG", burst: burst, seed: UInt64($0)) }
        let loose = try Self.frame(temporary, "DSCF0001.JPG", offset: 0, seed: 9)
        let ids = try await temporary.importFiles(files + [loose])
        #expect(ids.count == 5)

        let shown = try await temporary.library.fetchAssets().allObjects()
        #expect(shown.count == 2, "the burst's key photo and the loose photo")
        let key = try #require(shown.first { $0.burstIdentifier == burst })
        #expect(key.representsBurst && key.burstSelectionTypes == .autoPick)
        let frames = try await temporary.library.fetchAssets(withBurstIdentifier: burst).allObjects()
        #expect(frames.count == 4)
        #expect(frames.filter(\.representsBurst).map(\.localIdentifier) == [key.localIdentifier])
        #expect(frames.allSatisfy { $0.burstIdentifier == burst })
        #expect(key.localIdentifier == frames[0].localIdentifier, "the first frame, by the time taken")
        #expect(try await Self.all(temporary.library).count == 5)
        #expect(shown.first { $0.burstIdentifier == nil }?.representsBurst == false)

        // Counts agree with fetches: the summary table keeps a burst's other frames apart.
        let months = try await temporary.library.fetchMonthSections()
        #expect(months.map(\.count).reduce(0, +) == 2)
        #expect(try await temporary.library.burstFrameCounts([burst]) == [burst: 4])
    }

    @Test("A run of one camera's frames under a second apart becomes a burst, however it arrives")
    func cameraRun() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        // Two frames alone are two photos.
        let first = try await temporary.importFiles([
            try Self.frame(temporary, "DSCF0001.JPG", offset: 0.0, seed: 1),
            try Self.frame(temporary, "DSCF0002.JPG", offset: 0.4, seed: 2),
        ])
        #expect(try await temporary.library.fetchAssets().allObjects().allSatisfy { $0.burstIdentifier == nil })
        // Three more make a run of five; the earlier two join it (and are reported changed).
        _ = try await temporary.importFiles([
            try Self.frame(temporary, "DSCF0003.JPG", offset: 0.8, seed: 3),
            try Self.frame(temporary, "DSCF0004.JPG", offset: 1.3, seed: 4),
            try Self.frame(temporary, "DSCF0005.JPG", offset: 1.9, seed: 5),
            // 1.2 s after the last: not part of it.
            try Self.frame(temporary, "DSCF0006.JPG", offset: 3.1, seed: 6),
            // Another body of the same model, at the same moments: not part of it.
            try Self.frame(temporary, "B_0001.JPG", offset: 0.1, serial: "B2", seed: 7),
            try Self.frame(temporary, "B_0002.JPG", offset: 0.5, serial: "B2", seed: 8),
            try Self.frame(temporary, "B_0003.JPG", offset: 2.5, serial: "B2", seed: 9),
        ])
        let all = try await Self.all(temporary.library)
        #expect(all.count == 9)
        let run = all.filter { $0.originalFilename.hasPrefix("DSCF") && $0.originalFilename != "DSCF0006.JPG" }
        let burst = try #require(run.first?.burstIdentifier)
        #expect(burst.hasPrefix("run:"))
        #expect(run.allSatisfy { $0.burstIdentifier == burst }, "\(run.map { "\($0.originalFilename)=\($0.burstIdentifier ?? "-")" })")
        #expect(all.filter { $0.burstIdentifier == burst }.count == 5)
        #expect(all.first { $0.originalFilename == "DSCF0006.JPG" }?.burstIdentifier == nil)
        #expect(all.filter { $0.originalFilename.hasPrefix("B_") }.allSatisfy { $0.burstIdentifier == nil })
        let key = try #require(all.first { $0.representsBurst })
        #expect(key.localIdentifier == first[0], "the first frame taken")
        #expect(try await temporary.library.fetchAssets().count == 5, "the burst, DSCF0006 and the other body's three")
    }

    @Test("A frame that closes the gap between two runs makes them one burst, named as the first")
    func runsMerge() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let offsets = [0.0, 0.5, 0.9, 2.5, 2.9, 3.3]
        _ = try await temporary.importFiles(
            try offsets.enumerated().map { index, offset in
                try Self.frame(temporary, "F\(index).JPG", offset: offset, seed: UInt64(index + 1))
            })
        var all = try await Self.all(temporary.library)
        let early = try #require(all.first { $0.originalFilename == "F0.JPG" }?.burstIdentifier)
        let late = try #require(all.first { $0.originalFilename == "F3.JPG" }?.burstIdentifier)
        #expect(early != late)
        #expect(try await temporary.library.fetchAssets().count == 2)
        _ = try await temporary.importFiles([try Self.frame(temporary, "MIDDLE.JPG", offset: 1.7, seed: 20)])
        all = try await Self.all(temporary.library)
        #expect(all.count == 7 && all.allSatisfy { $0.burstIdentifier == early })
        #expect(all.filter(\.representsBurst).map(\.originalFilename) == ["F0.JPG"])
        #expect(try await temporary.library.fetchAssets().count == 1)
    }

    @Test("The key photo: the user's choice, else the first frame neither deleted nor hidden")
    func keyPhoto() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let ids = try await temporary.importFiles(
            try (0..<4).map { index in
                try Self.frame(temporary, "K\(index).JPG", offset: Double(index) * 0.3, seed: UInt64(index + 1))
            })
        let library = temporary.library
        func key() async throws -> Asset { try #require(try await library.fetchAssets().firstObject) }
        func asset(_ index: Int) async throws -> Asset { try #require(try await library.fetchAssets(withLocalIdentifiers: [ids[index]]).firstObject) }
        #expect(try await key().localIdentifier == ids[0])

        // Deleting the key photo: the next frame stands for the burst; restoring it, it is back.
        let frame0 = try await asset(0)
        try await library.performChanges { AssetChangeRequest.deleteAssets([frame0]) }
        #expect(try await key().localIdentifier == ids[1])
        #expect(
            try await library.fetchAssets(with: FetchOptions(predicate: .isTrashed(true), includeTrashedAssets: true)).count == 1,
            "a deleted frame shows in Recently Deleted")
        let trashed0 = try await asset(0)
        try await library.performChanges { AssetChangeRequest.restoreAssets([trashed0]) }
        #expect(try await key().localIdentifier == ids[0])

        // The user's choice.
        let frame2 = try await asset(2)
        try await library.performChanges { AssetChangeRequest(for: frame2).makeKeyPhotoOfBurst() }
        let chosen = try await key()
        #expect(chosen.localIdentifier == ids[2] && chosen.burstSelectionTypes == .userPick)
        let former = try await asset(0)
        #expect(former.burstSelectionTypes.isEmpty && !former.representsBurst)
        // Hidden, it gives way to the first frame; shown again, it is the key photo again.
        let chosen2 = try await asset(2)
        try await library.performChanges { AssetChangeRequest(for: chosen2).isHidden = true }
        #expect(try await key().localIdentifier == ids[0])
        #expect(try await key().burstSelectionTypes == .autoPick)
        let hidden2 = try await asset(2)
        try await library.performChanges { AssetChangeRequest(for: hidden2).isHidden = false }
        #expect(try await key().localIdentifier == ids[2])
        // A second choice replaces the first.
        let frame3 = try await asset(3)
        try await library.performChanges { AssetChangeRequest(for: frame3).makeKeyPhotoOfBurst() }
        #expect(try await key().localIdentifier == ids[3])
        #expect(
            try await library.fetchAssets(withBurstIdentifier: try #require(try await key().burstIdentifier)).allObjects()
                .filter { $0.burstSelectionTypes.contains(.userPick) }.map(\.localIdentifier) == [ids[3]])
    }

    @Test("Choosing a key photo for a photo in no burst is refused, naming the photo")
    func keyPhotoOutsideABurst() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let id = try #require(try await temporary.importFiles([try Self.frame(temporary, "ONE.JPG", offset: 0, seed: 1)]).first)
        let asset = try #require(try await temporary.library.fetchAssets(withLocalIdentifiers: [id]).firstObject)
        await #expect {
            try await temporary.library.performChanges { AssetChangeRequest(for: asset).makeKeyPhotoOfBurst() }
        } throws: { error in
            guard let error = error as? LibraryError, error.code == .invalidArgument else { return false }
            let message = error.message
            return message.contains(id) && message.contains("burst")
        }
    }

    @Test("Photos imported before bursts were known join their run when read again (the metadata job)")
    func rereadFindsRuns() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let ids = try await temporary.importFiles(
            try (0..<3).map { index in
                try Self.frame(temporary, "R\(index).JPG", offset: Double(index) * 0.2, seed: UInt64(index + 1))
            })
        // What a catalog from before migration v21 holds: no camera, no burst.
        let store = try #require(library.catalog as? SQLCatalogStore)
        _ = try await store.write { db in
            try await db.execute(
                """
                UPDATE asset SET cameraMake = NULL, cameraModel = NULL, cameraSerialNumber = NULL, burstIdentifier = NULL,
                  representsBurst = \(false), burstSelectionTypes = 0
                """)
        }
        #expect(try await library.fetchAssets().count == 3)
        #expect(try await library.enqueueMetadataReread() == 3)
        let worker = JobWorker(library: library, options: .init(concurrency: 1, pollInterval: .milliseconds(50)))
        let running = Task { await worker.run() }
        try await JobQueueTests.drain(library, worker: worker, kinds: [.metadata])
        running.cancel()
        let all = try await Self.all(library)
        let burst = try #require(all.first?.burstIdentifier)
        #expect(all.count == 3 && all.allSatisfy { $0.burstIdentifier == burst })
        #expect(all.filter(\.representsBurst).map(\.localIdentifier) == [ids[0]])
        #expect(try await library.fetchAssets().count == 1)
    }
}

extension BurstTests {
    @Test("One phone model in the same second is no burst without evidence; a serial or phones' BURST names are")
    func runsNeedEvidence() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        // Two people with the same phone (no serial, as most phones write), three photos in one second.
        let people = try await temporary.importFiles([
            try Self.frame(temporary, "IMG_0001.JPG", offset: 0.0, model: "Pixel 7", serial: nil, seed: 1),
            try Self.frame(temporary, "PXL_20231114_221320123.jpg", offset: 0.3, model: "Pixel 7", serial: nil, seed: 2),
            try Self.frame(temporary, "IMG_0002.JPG", offset: 0.6, model: "Pixel 7", serial: nil, seed: 3),
        ])
        #expect(people.count == 3)
        #expect(try await temporary.library.fetchAssets().count == 3, "every photo shows in the timeline")
        #expect(try await Self.all(temporary.library).allSatisfy { $0.burstIdentifier == nil })
        // A phone's burst, named as Android's camera names it: one burst.
        _ = try await temporary.importFiles(
            try (1...4).map { index in
                try Self.frame(
                    temporary, "IMG_20231114_221500_BURST00\(index).jpg", offset: 100 + Double(index) * 0.2, model: "Pixel 7", serial: nil,
                    seed: UInt64(10 + index))
            })
        let named = try await Self.all(temporary.library).filter { $0.originalFilename.contains("BURST") }
        #expect(named.count == 4 && Set(named.compactMap(\.burstIdentifier)).count == 1 && named.allSatisfy { $0.burstIdentifier != nil })
        #expect(try await temporary.library.fetchAssets().count == 4, "the three photos and the burst's key photo")
    }

    @Test("Runs made without evidence before are taken apart when the catalog is upgraded; a run the person chose a key photo of stays")
    func oldRunsWithoutEvidenceComeApart() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let offsets: [Double] = [0, 0.3, 0.6, 30, 30.3, 30.6]
        var files: [URL] = []
        for (index, offset) in offsets.enumerated() {
            files.append(try Self.frame(temporary, "P\(index).JPG", offset: offset, model: "Pixel 7", serial: nil, seed: UInt64(30 + index)))
        }
        let ids = try await temporary.importFiles(files)
        #expect(try await temporary.library.fetchAssets().count == 6)
        // As the earlier rule grouped them: two runs, the second with a key photo the person chose.
        let store = try #require(temporary.library.catalog as? SQLCatalogStore)
        try await store.write { db in
            try await db.execute(
                "UPDATE asset SET burstIdentifier = 'run:old-a', representsBurst = (localIdentifier = \(ids[0])) WHERE localIdentifier IN \(list: Array(ids[0..<3]))"
            )
            try await db.execute(
                "UPDATE asset SET burstIdentifier = 'run:old-b', representsBurst = (localIdentifier = \(ids[4])), burstSelectionTypes = CASE WHEN localIdentifier = \(ids[4]) THEN 2 ELSE 0 END WHERE localIdentifier IN \(list: Array(ids[3..<6]))"
            )
            try await db.execute(SQLStatement(CatalogSchema.burstEvidenceStatement(falseValue: db.dialect == .postgres ? "FALSE" : "0")))
        }
        let all = try await Self.all(temporary.library)
        #expect(all.filter { ids[0..<3].contains($0.localIdentifier) }.allSatisfy { $0.burstIdentifier == nil && !$0.representsBurst })
        #expect(all.filter { ids[3..<6].contains($0.localIdentifier) }.allSatisfy { $0.burstIdentifier == "run:old-b" })
        #expect(try await temporary.library.fetchAssets().count == 4, "the three again, and the chosen burst's key photo")
    }
}

/// Drive modes from real cameras' maker notes: copies of corpus files, their dates and serials
/// rewritten with exiftool.
@Suite(.enabled(if: corpus != nil, Comment(rawValue: corpusMissing)))
struct BurstDriveModeTests {
    /// A copy of the corpus file `source`, taken `offset` seconds after 2024-01-02 03:04:05, with
    /// the maker note's serial removed (Nikon) and `assignments` written (exiftool's `-TAG=VALUE`).
    static func copy(_ source: String, to name: String, in temporary: TemporaryLibrary, offset: Double, _ assignments: [String] = []) throws -> URL {
        let url = temporary.folder.appendingPathComponent(name)
        try FileManager.default.copyItem(at: try #require(corpus).url(source), to: url)
        let seconds = Int(offset)
        let hundredths = Int(((offset - Double(seconds)) * 100).rounded())
        let arguments = [
            "-q", "-q", "-overwrite_original", "-n", "-DateTimeOriginal=2024:01:02 03:04:\(String(format: "%02d", 5 + seconds))",
            "-SubSecTimeOriginal=\(String(format: "%02d", hundredths))",
        ]
        _ = try ChildProcess.run("exiftool", arguments + assignments + [url.path])
        return url
    }

    @Test("Frames a maker note says were shot continuously are a burst without a serial; single frames are not")
    func continuousDriveIsEvidence() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        // A Nikon D70 in continuous mode, its serial removed: the drive mode is the only evidence.
        let continuous = try (0..<3).map {
            try Self.copy("exiftool-t/NikonD70.jpg", to: "C\($0).JPG", in: temporary, offset: Double($0) * 0.3, ["-Nikon:SerialNumber="])
        }
        // The same camera set to single frames, a minute later: three photos.
        let single = try (0..<3).map {
            try Self.copy(
                "exiftool-t/NikonD70.jpg", to: "S\($0).JPG", in: temporary, offset: 40 + Double($0) * 0.3,
                ["-Nikon:SerialNumber=", "-Nikon:ShootingMode=0"])
        }
        let ids = try await temporary.importFiles(continuous + single)
        #expect(ids.count == 6)
        let all = try await BurstTests.all(temporary.library)
        let frames = all.filter { $0.originalFilename.hasPrefix("C") }
        #expect(frames.count == 3 && Set(frames.compactMap(\.burstIdentifier)).count == 1 && frames.allSatisfy { $0.burstIdentifier != nil })
        #expect(all.filter { $0.originalFilename.hasPrefix("S") }.allSatisfy { $0.burstIdentifier == nil })
        #expect(try await temporary.library.fetchAssets().count == 4, "the burst's key photo and the three single frames")
    }

    @Test("A Canon's maker-note serial tells two bodies apart, and one body's single frames under a second apart are a run")
    func makerNoteSerial() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        // Single frames from one body (its serial only in the maker note): a run, as with EXIF's serial.
        let one = try (0..<3).map {
            try Self.copy(
                "exiftool-t/Canon.jpg", to: "A\($0).JPG", in: temporary, offset: Double($0) * 0.3,
                ["-Canon:ContinuousDrive=0", "-Canon:SerialNumber=1111111111"])
        }
        // Three bodies of one model in the same second, single frames: three photos.
        let three = try (0..<3).map {
            try Self.copy(
                "exiftool-t/Canon.jpg", to: "B\($0).JPG", in: temporary, offset: 30 + Double($0) * 0.3,
                ["-Canon:ContinuousDrive=0", "-Canon:SerialNumber=222222222\($0)"])
        }
        _ = try await temporary.importFiles(one + three)
        let all = try await BurstTests.all(temporary.library)
        let run = all.filter { $0.originalFilename.hasPrefix("A") }
        #expect(run.count == 3 && Set(run.compactMap(\.burstIdentifier)).count == 1 && run.allSatisfy { $0.burstIdentifier != nil })
        #expect(all.filter { $0.originalFilename.hasPrefix("B") }.allSatisfy { $0.burstIdentifier == nil })
    }

    @Test("Upgrading the catalog queues a metadata read of photos from a named camera without a serial, and their runs form")
    func upgradeReadsDriveModes() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let files = try (0..<3).map {
            try Self.copy("exiftool-t/NikonD70.jpg", to: "U\($0).JPG", in: temporary, offset: Double($0) * 0.3, ["-Nikon:SerialNumber="])
        }
        let other = try temporary.photo("plain.jpg", seed: 4)
        _ = try await temporary.importFiles(files + [other])
        // What a catalog from before holds: no drive modes, no run.
        let store = try #require(library.catalog as? SQLCatalogStore)
        try await store.write { db in
            try await db.execute("UPDATE asset SET continuousDrive = NULL, burstIdentifier = NULL, representsBurst = \(false), burstSelectionTypes = 0")
            try await db.execute("DELETE FROM job")
            let dialect = db.dialect
            let queue = CatalogSchema.driveModeStatements(
                bool: "BOOLEAN", now: dialect == .postgres ? "now()" : "strftime('%Y-%m-%d %H:%M:%f', 'now')")[1]
            try await db.execute(SQLStatement(queue))
            try await db.execute(SQLStatement(queue))  // twice: nothing is queued twice
        }
        #expect(try await library.fetchAssets().count == 4)
        let queued = try await store.statement { db in try await db.query("SELECT subject FROM job WHERE kind = 'metadata'") }
        #expect(queued.count == 3, "the three Nikon frames; the generated photo names no camera")
        let worker = JobWorker(library: library, options: .init(concurrency: 1, pollInterval: .milliseconds(50)))
        let running = Task { await worker.run() }
        try await JobQueueTests.drain(library, worker: worker, kinds: [.metadata])
        running.cancel()
        #expect(try await library.fetchAssets().count == 2, "the burst's key photo and the other photo")
    }
}
