import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

/// `shoebox adjust` and `shoebox keywords` (issue 44 item 5): a person fixes dates, zones, places
/// and words from the command line; wrong input is a sentence and changes nothing.
@Suite struct AdjustCommandTests {
    let folder: URL
    let library: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-adjust-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        library = folder.appendingPathComponent("Test.shoebox").path
        for hour in [9, 10] {
            var metadata = ImageMetadata()
            metadata.dateTimeOriginal = .init(year: 2020, month: 5, day: 1, hour: hour, minute: 0, second: 0)
            try SyntheticPhoto(width: 60, height: 40, seed: UInt64(hour)).image().writingMetadata(metadata).encoded(as: .jpeg)
                .write(to: folder.appendingPathComponent("IMG_\(hour).jpg"))
        }
        _ = try CLIRunner.run(["init", "--library", library])
        _ = try CLIRunner.run([
            "import", "--library", library, folder.appendingPathComponent("IMG_9.jpg").path, folder.appendingPathComponent("IMG_10.jpg").path,
        ])
    }

    func run(_ arguments: [String]) throws -> ChildProcess.Result {
        try CLIRunner.run(arguments + ["--library", library])
    }

    /// A field `ls --json` leaves out or writes as `null`.
    static func absent(_ value: Any?) -> Bool { value == nil || value is NSNull }

    func assets() throws -> [[String: Any]] {
        let listed = try run(["ls", "--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]])
    }

    @Test func datesZonesPlacesAndWordsAreFixedAndUndone() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ids = try assets().compactMap { $0["localIdentifier"] as? String }
        #expect(ids.count == 2)

        let preview = try run(["adjust", "--time-zone", "Asia/Tokyo", "--preview"] + ids)
        #expect(preview.status == 0 && preview.standardOutput.contains("2020-05-01 09:00:00  →  2020-05-01 09:00:00 +09:00"), "\(preview.standardOutput)")
        #expect(try assets().allSatisfy { $0["timeZoneOffset"] is NSNull }, "a preview changes nothing")

        #expect(try run(["adjust", "--date", "2019-06-03T14:30", "--time-zone", "+02:00"] + ids).status == 0)
        #expect(try assets().map { $0["localCreationDate"] as? String } == ["2019-06-03T14:30:00", "2019-06-03T15:30:00"])
        #expect(try run(["adjust", "--shift=-1h30m"] + ids).status == 0)
        #expect(try assets().map { $0["localCreationDate"] as? String } == ["2019-06-03T13:00:00", "2019-06-03T14:00:00"])

        let words = try run(["adjust", "--caption", "Picnic", "--keywords", "Family, Places/Italy/Rome", "--rating", "4", ids[0], "--json"])
        #expect(words.status == 0, "\(words.standardError)")
        let changed = try #require(try JSONSerialization.jsonObject(with: Data(words.standardOutput.utf8)) as? [[String: Any]])
        #expect(changed.first?["caption"] as? String == "Picnic" && changed.first?["rating"] as? Int == 4)
        #expect(try run(["adjust", "--add-keyword", "family", "--add-keyword", "Cake", ids[1]]).status == 0)
        let keywords = try run(["keywords", "--json"])
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(keywords.standardOutput.utf8)) as? [[String: Any]])
        #expect(listed.map { $0["keyword"] as? String } == ["Cake", "Family", "Places/Italy/Rome"] && listed.map { $0["count"] as? Int } == [1, 2, 1])
        #expect(try run(["ls", "--keyword", "places/italy"]).standardOutput.contains(ids[0]))

        #expect(try run(["adjust", "--location", "41.89,12.49", ids[0]]).status == 0)
        // An export with sidecars: each file with what the library knows of it.
        let out = folder.appendingPathComponent("out")
        let exported = try run(["export", "--to", out.path, "--sidecars", ids[0]])
        #expect(exported.status == 0 && exported.standardOutput.contains("IMG_9.jpg.xmp"), "\(exported.standardOutput) \(exported.standardError)")
        let sidecar = try String(contentsOf: out.appendingPathComponent("IMG_9.jpg.xmp"), encoding: .utf8)
        #expect(sidecar.contains("Picnic") && sidecar.contains("Places|Italy|Rome") && sidecar.contains("exif:GPSLatitude=\"41,53.400000N\""))
        #expect(try assets().first?["userSet"] as? [String] == ["creationDate", "location"])
        #expect(try run(["adjust", "--revert", "date,location", ids[0]]).status == 0)
        let reverted = try #require(try assets().first { $0["localIdentifier"] as? String == ids[0] })
        #expect(reverted["localCreationDate"] as? String == "2020-05-01T09:00:00" && Self.absent(reverted["latitude"]) && Self.absent(reverted["userSet"]))
        #expect(reverted["caption"] as? String == "Picnic")
    }

    @Test func wrongInputIsASentenceAndChangesNothing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let id = try #require(try assets().first?["localIdentifier"] as? String)
        let cases: [([String], Int32, String)] = [
            (["adjust", id], 64, "name a change"),
            (["adjust", "--rating", "6", id], 64, "0 to 5"),
            (["adjust", "--date", "2019-02-30T10:00", id], 64, "2019-02-30T10:00"),
            (["adjust", "--shift", "soon", id], 64, "+1h"),
            (["adjust", "--time-zone", "Mars/Olympus", id], 64, "Mars/Olympus"),
            (["adjust", "--location", "north", id], 64, "latitude,longitude"),
            (["adjust", "--location", "91,0", id], 1, "no place on Earth"),
            (["adjust", "--date", "2019-06-01T10:00", "--shift", "+1h", id], 64, "not both"),
            (["adjust", "--revert", "title", id], 64, "date and location"),
            (["adjust", "--rating", "1", "NOPE"], 1, "no asset NOPE"),
            (["adjust", "--preview", "--rating", "1", id], 64, "--preview"),
        ]
        for (arguments, status, named) in cases {
            let result = try run(arguments)
            #expect(result.status == status && result.standardError.contains(named), "\(arguments): \(result.status) \(result.standardError)")
        }
        let asset = try #require(try assets().first)
        #expect(Self.absent(asset["rating"]) && Self.absent(asset["latitude"]) && Self.absent(asset["userSet"]), "\(asset)")
    }
}
