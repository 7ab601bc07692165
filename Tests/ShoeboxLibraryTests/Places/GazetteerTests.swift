import Foundation
import Testing

@testable import ShoeboxLibrary

/// The machine's place table (`scripts/places install`, named by `$SHOEBOX_PLACES`): time zones
/// of places on every continent, at sea, and near a border.
@Suite struct GazetteerTests {
    /// The table, or `nil` after saying why the test does nothing. Under CI the table must be
    /// there (`scripts/test` installs it), so its absence fails the test.
    static func table() -> Gazetteer? {
        if Gazetteer.standard.isAvailable { return Gazetteer.standard }
        let message = "no place table: run scripts/places install and set SHOEBOX_PLACES=$(scripts/places path)"
        if ProcessInfo.processInfo.environment["CI"] != nil {
            Issue.record(Comment(rawValue: message))
        } else {
            print("skipped: \(message)")
        }
        return nil
    }

    @Test(arguments: [
        (41.9028, 12.4964, "Europe/Rome"),  // Rome
        (34.0522, -118.2437, "America/Los_Angeles"),  // Los Angeles
        (-33.8688, 151.2093, "Australia/Sydney"),  // Sydney
        (27.7172, 85.3240, "Asia/Kathmandu"),  // Kathmandu (+05:45)
        (64.1466, -21.9426, "Atlantic/Reykjavik"),  // Reykjavík
        (-22.9068, -43.1729, "America/Sao_Paulo"),  // Rio de Janeiro
        (1.3521, 103.8198, "Asia/Singapore"),  // Singapore
        (47.5596, 7.5886, "Europe/Zurich"),  // Basel, a few km from France and Germany
    ])
    func aPlaceHasItsCitysZone(latitude: Double, longitude: Double, zone: String) throws {
        guard let places = Self.table() else { return }
        #expect(places.timeZone(latitude: latitude, longitude: longitude)?.identifier == zone)
    }

    @Test("A point is named by its nearest place and by the most populous around; countries by name")
    func namesOfPlaces() throws {
        guard let places = Self.table() else { return }
        // The Colosseum: nearest is a quarter of Rome, the most populous within 20 km Rome itself.
        let nearest = try #require(places.nearestPlace(latitude: 41.8902, longitude: 12.4922))
        #expect(nearest.name != "Rome" && nearest.countryCode == "IT", "\(nearest)")
        #expect(places.prominentPlace(latitude: 41.8902, longitude: 12.4922)?.name == "Rome")
        #expect(places.prominentPlace(latitude: 48.8584, longitude: 2.2945)?.name == "Paris")
        #expect(places.prominentPlace(latitude: 35.6586, longitude: 139.7454)?.name == "Tokyo")
        #expect(places.prominentPlace(latitude: 0, longitude: -30) == nil, "mid-Atlantic: nothing within 20 km")
        #expect(places.countryName(code: "IT") == "Italy" && places.countryName(code: "br") == "Brazil")
        #expect(places.countryName(code: "XX") == nil)
        #expect(places.placeName(latitude: 41.8902, longitude: 12.4922) == "Rome, Italy")
        #expect(places.placeName(latitude: 35.0116, longitude: 135.7681) == "Kyoto, Japan")
        #expect(places.isLoaded)
    }

    @Test func atSeaTheZoneIsTheNauticalOne() throws {
        guard let places = Self.table() else { return }
        #expect(places.count > 100_000)
        // The middle of the South Atlantic: no city within 300 km; 30° W is two hours behind.
        #expect(places.nearestPlace(latitude: -30, longitude: -30) == nil)
        #expect(places.timeZone(latitude: -30, longitude: -30)?.secondsFromGMT() == -7_200)
        #expect(places.timeZone(latitude: 91, longitude: 0) == nil)
    }

    @Test func aMalformedTableIsRefusedWithItsLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("places-\(UUID().uuidString).tsv")
        try "41.9\t12.5\tRome\tIT\t07\tEurope/Rome\nnot a line\n".write(to: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: path) }
        #expect(throws: Gazetteer.LoadError.self) { try Gazetteer(contentsOf: path.path) }
        do {
            _ = try Gazetteer(contentsOf: path.path)
        } catch {
            #expect(error.description.contains("line 2"))
        }
    }

    @Test("The table is looked for in the environment's, the user's, the program's and the system's places, in that order")
    func whereTheTableIsLookedFor() {
        let program = URL(fileURLWithPath: "/opt/shoebox/bin/shoebox")
        #expect(
            Gazetteer.standardPaths(environment: ["SHOEBOX_PLACES": "/data/places.tsv", "HOME": "/home/ada"], executable: program) == [
                "/data/places.tsv", "/home/ada/.local/share/shoebox/places.tsv", "/opt/shoebox/share/shoebox/places.tsv",
                "/usr/local/share/shoebox/places.tsv", "/usr/share/shoebox/places.tsv",
            ])
        #expect(
            Gazetteer.standardPaths(environment: ["XDG_DATA_HOME": "/home/ada/data", "HOME": "/home/ada"], executable: nil) == [
                "/home/ada/data/shoebox/places.tsv", "/usr/local/share/shoebox/places.tsv", "/usr/share/shoebox/places.tsv",
            ])
        #expect(
            Gazetteer.standardPaths(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/ada"], executable: nil).first
                == "/home/ada/.local/share/shoebox/places.tsv", "a relative XDG_DATA_HOME is ignored, as the specification says")
        #expect(
            Gazetteer.standardPaths(environment: [:], executable: URL(fileURLWithPath: "/usr/local/bin/shoebox"))
                == ["/usr/local/share/shoebox/places.tsv", "/usr/share/shoebox/places.tsv"], "no path twice")
    }

    @Test("A table found later is read on its first use; a changed one on refresh, with a new fingerprint")
    func aTableAppearsAndChanges() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("places-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let places = Gazetteer(searching: [folder.appendingPathComponent("places.tsv").path])
        #expect(!places.isAvailable && places.fingerprint == nil && !places.refresh())
        try PlaceTableTests.writeTable(in: folder, city: "Rome")
        #expect(places.nearestPlace(latitude: 41.9, longitude: 12.5)?.name == "Rome", "found without a refresh")
        let first = try #require(places.fingerprint)
        #expect(!places.refresh(), "unchanged")
        try PlaceTableTests.writeTable(in: folder, city: "Roma")
        #expect(places.refresh())
        #expect(places.nearestPlace(latitude: 41.9, longitude: 12.5)?.name == "Roma")
        #expect(places.fingerprint != first && places.fingerprint?.count == 64)
        try FileManager.default.removeItem(at: folder)
        #expect(places.refresh() && !places.isAvailable, "gone")
    }

    @Test("A table's fingerprint is its files' hash, known without reading its cities; a table that does not read leaves the cities in use")
    func theFingerprintNeedsNoCities() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("places-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("places.tsv").path
        try PlaceTableTests.writeTable(in: folder, city: "Rome")
        let places = Gazetteer(searching: [path])
        let fingerprint = try #require(places.fingerprint)
        #expect(!places.isLoaded, "the fingerprint read no city")
        #expect(try Gazetteer(contentsOf: path).fingerprint == fingerprint, "the same hash as reading the table gives")
        #expect(places.nearestPlace(latitude: 41.9, longitude: 12.5)?.name == "Rome")
        #expect(places.isLoaded && places.fingerprint == fingerprint)

        // Unread, a changed table is told by its hash alone.
        let unread = Gazetteer(searching: [path])
        _ = unread.fingerprint
        try PlaceTableTests.writeTable(in: folder, city: "Roma")
        #expect(unread.refresh() && !unread.isLoaded && unread.fingerprint != fingerprint)
        #expect(unread.nearestPlace(latitude: 41.9, longitude: 12.5)?.name == "Roma")

        // In use, a table that does not read keeps the cities it replaces, and the fingerprint.
        #expect(places.refresh())
        let roma = places.fingerprint
        try "41.9\t12.5\tRome\tIT\t07\nnot a line\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(!places.refresh(), "half written")
        #expect(places.nearestPlace(latitude: 41.9, longitude: 12.5)?.name == "Roma" && places.fingerprint == roma)
    }

    @Test("Cities are read from bytes: empty lines skipped, the population optional, a short line named by its number")
    func theTablesSpelling() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("places-\(UUID().uuidString).tsv")
        defer { try? FileManager.default.removeItem(at: path) }
        try "41.9\t12.5\tRoma\tIT\t07\tEurope/Rome\t2318895\n\n35.01\t135.77\tKyōto\tJP\t22\tAsia/Tokyo\n".write(
            to: path, atomically: true, encoding: .utf8)
        let places = try Gazetteer(contentsOf: path.path)
        #expect(places.count == 2)
        let kyoto = try #require(places.nearestPlace(latitude: 35.0, longitude: 135.8))
        #expect(kyoto.name == "Kyōto" && kyoto.countryCode == "JP" && kyoto.regionCode == "22" && kyoto.population == 0)
        #expect(places.timeZone(latitude: 35.0, longitude: 135.8)?.identifier == "Asia/Tokyo")
        #expect(places.nearestPlace(latitude: 41.9, longitude: 12.5)?.population == 2_318_895)
        try "41.9\t12.5\tRoma\tIT\t07\tEurope/Rome\n\n91\t0\tNowhere\tXX\t\tEtc/UTC\n".write(to: path, atomically: true, encoding: .utf8)
        #expect {
            try Gazetteer(contentsOf: path.path)
        } throws: { error in
            (error as? Gazetteer.LoadError)?.reason == "has a malformed line 2: 91\t0\tNowhere\tXX\t\tEtc/UTC"
        }
    }

    @Test("The most prominent place is the most populous within the distance, as a search of every place finds it")
    func prominentPlaceIsTheMostPopulousNearby() throws {
        // Places crowded into a few degrees, with equal populations among them, and points
        // around them and across the antimeridian.
        var state: UInt64 = 20
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * Double(next() % 1_000_000) / 1_000_000 }
        var lines: [String] = []
        var places: [(latitude: Double, longitude: Double, population: Int)] = []
        for index in 0..<3_000 {
            let latitude = index % 3 == 0 ? uniform(59, 62) : uniform(41, 43)
            let longitude = index % 5 == 0 ? uniform(179, 180) : (index % 5 == 1 ? uniform(-180, -179) : uniform(11, 14))
            let population = Int(next() % 8) * 1_000
            places.append((latitude, longitude, population))
            lines.append("\(latitude)\t\(longitude)\tPlace \(index)\tIT\t07\tEurope/Rome\t\(population)")
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("places-\(UUID().uuidString).tsv")
        defer { try? FileManager.default.removeItem(at: path) }
        try (lines.joined(separator: "\n") + "\n").write(to: path, atomically: true, encoding: .utf8)
        let table = try Gazetteer(contentsOf: path.path)
        var found = 0
        for _ in 0..<2_000 {
            let latitude = next() % 3 == 0 ? uniform(58, 63) : uniform(40, 44)
            let longitude = next() % 3 == 0 ? uniform(178, 180) : (next() % 2 == 0 ? uniform(-180, -178) : uniform(10, 15))
            let kilometres = [1.0, 5, 20, 60][Int(next() % 4)]
            let near = places.filter { Gazetteer.kilometres(latitude, longitude, $0.latitude, $0.longitude) <= kilometres }
            let place = table.prominentPlace(latitude: latitude, longitude: longitude, withinKilometres: kilometres)
            guard let best = near.map(\.population).max() else {
                #expect(place == nil, "nothing within \(kilometres) km of \(latitude), \(longitude)")
                continue
            }
            found += 1
            let chosen = try #require(place, "\(near.count) places within \(kilometres) km of \(latitude), \(longitude)")
            #expect(chosen.population == best, "\(latitude), \(longitude) within \(kilometres) km")
            #expect(Gazetteer.kilometres(latitude, longitude, chosen.latitude, chosen.longitude) <= kilometres)
        }
        #expect(found > 500, "most points have a place near: \(found)")
    }
}

/// Picking a photo's place by name (issue 44 item 5): the start of a name, accents and case
/// aside, exact names and the most populous first, narrowed by a country after a comma.
@Suite struct GazetteerNameSearchTests {
    @Test func placesAreFoundByTheStartOfTheirName() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("places-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("places.tsv")
        try """
        41.89193\t12.51133\tRome\tIT\t07\tEurope/Rome\t2318895
        41.57\t-88.08\tRomeoville\tUS\tIL\tAmerica/Chicago\t39650
        34.25\t-85.16\tRome\tUS\tGA\tAmerica/New_York\t36303
        48.85341\t2.3488\tParis\tFR\t11\tEurope/Paris\t2138551
        33.66\t-95.55\tParis\tUS\tTX\tAmerica/Chicago\t24171
        -23.5475\t-46.63611\tSão Paulo\tBR\t27\tAmerica/Sao_Paulo\t10021295

        """.write(to: path, atomically: true, encoding: .utf8)
        try "IT\tItaly\tEU\nUS\tUnited States\tNA\nFR\tFrance\tEU\nBR\tBrazil\tSA\n".write(
            to: folder.appendingPathComponent("countries.tsv"), atomically: true, encoding: .utf8)
        let places = try Gazetteer(contentsOf: path.path)
        #expect(places.places(named: "rome").map(\.regionCode) == ["07", "GA", "IL"], "exact names first, each the most populous first")
        #expect(places.places(named: "Rom").map(\.name) == ["Rome", "Romeoville", "Rome"], "no exact name: by population")
        #expect(places.places(named: "rome, us").map(\.regionCode) == ["GA", "IL"])
        #expect(places.places(named: "Paris, United").map(\.regionCode) == ["TX"])
        #expect(places.places(named: "sao paulo").first?.name == "São Paulo")
        #expect(places.places(named: "ROME", limit: 1).count == 1)
        #expect(places.places(named: "Xyzzy").isEmpty && places.places(named: "  ").isEmpty)
    }
}
