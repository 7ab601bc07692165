internal import Crypto
import Foundation
import Synchronization

/// An offline directory of places: GeoNames' cities with their countries, regions, continents
/// and time zones, read from a tab-separated table and the files beside it (`scripts/places`
/// writes them from PyPI packages; nothing is fetched at run time).
///
/// The library asks it for the time zone of a photo that records where it was taken but not its
/// UTC offset: the zone of the nearest city. Within a few kilometres of a border that can be the
/// neighbour's zone; at sea, far from any city, the zone is the nautical one of the longitude.
///
/// ```swift
/// if let zone = Gazetteer.standard.timeZone(latitude: 41.9, longitude: 12.5) {
///     print(zone.identifier)   // Europe/Rome
/// }
/// ```
public final class Gazetteer: Sendable {
    /// A city of the table.
    package struct Place: Sendable, Hashable {
        /// The city's name as GeoNames spells it (`Rome`).
        package let name: String
        /// ISO 3166 country code (`IT`).
        package let countryCode: String
        /// GeoNames' first-level administrative division code (`07`), or empty.
        package let regionCode: String
        /// The IANA time zone identifier (`Europe/Rome`).
        package let timeZoneIdentifier: String
        /// The city's latitude in decimal degrees (north positive).
        package let latitude: Double
        /// The city's longitude in decimal degrees (east positive).
        package let longitude: Double
        /// How many people live there (GeoNames'; 0 where the table does not say).
        package let population: Int
    }

    /// Why a table could not be read.
    public struct LoadError: Error, CustomStringConvertible {
        /// The table's path, as given.
        public let path: String
        /// What is wrong: `cannot be read`, `is empty`, or `has a malformed line …` with its number.
        public let reason: String
        /// The path and the reason in a sentence (`the place table /x/places.tsv is empty`).
        public var description: String { "the place table \(path) \(reason)" }
    }

    /// The files beside the table that it reads: country names and continents, region names.
    static let companions = ["countries.tsv", "regions.tsv"]

    /// The continents' English names by GeoNames' codes.
    static let continentNames = [
        "AF": "Africa", "AN": "Antarctica", "AS": "Asia", "EU": "Europe", "NA": "North America", "OC": "Oceania",
        "SA": "South America",
    ]

    /// Beyond this distance from any city, a place gets the nautical zone of its longitude.
    static let nearbyKilometres = 300.0

    /// The cities, and their indexes per 1° cell of latitude and longitude.
    private struct Table: Sendable {
        var places: [Place] = []
        var cells: [Int32: [Int32]] = [:]
        /// The same indexes, each cell's most populous first (ties in table order): the first
        /// near enough is the cell's most prominent place.
        var cellsByPopulation: [Int32: [Int32]] = [:]
        /// Country names by ISO code, from `countries.tsv` next to the table (empty without one).
        var countries: [String: String] = [:]
        /// Continent codes (`EU`) by country code, from `countries.tsv`'s third column.
        var continents: [String: String] = [:]
        /// Region names by country code and region code (`ES/29`: Madrid), from `regions.tsv`.
        var regions: [String: String] = [:]
        /// The file read, and how it and its companions looked then (a change reads them again).
        var path = ""
        var stamp: [FileStamp?] = []
        /// SHA-256 of the table, `countries.tsv` and `regions.tsv`, in hex.
        var fingerprint = ""

        /// The file this was read from, as ``Gazetteer/source(at:)`` would find it.
        var source: Source { Source(path: path, stamp: stamp, fingerprint: fingerprint) }
    }

    /// What a file looked like when it was read: its size, modification date and file number
    /// (a table renamed into place is a new file).
    private struct FileStamp: Sendable, Hashable {
        let size: Int
        let modified: Date?
        let number: Int

        /// The stamps of the table at `path` and of the files beside it that it reads.
        static func of(table path: String) -> [FileStamp?] {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            return ([path] + Gazetteer.companions.map { folder.appendingPathComponent($0).path }).map { FileStamp(path: $0) }
        }

        init?(path: String) {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
            size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            modified = attributes[.modificationDate] as? Date
            number = (attributes[.systemFileNumber] as? NSNumber)?.intValue ?? 0
        }
    }

    /// The table's file as found (without reading its cities): where it is, how it and its
    /// companions looked, and their fingerprint.
    private struct Source: Sendable {
        var path: String
        var stamp: [FileStamp?]
        var fingerprint: String
    }

    /// What is known of the table: its file (``fingerprint`` needs no more), and its cities once
    /// a lookup needed them (``standard``'s are read on first use).
    private struct State: Sendable {
        var source: Source?
        var table: Table?
    }

    private let state: Mutex<State>
    /// The places' folded names in order, made on the first name search of a table.
    private let names = Mutex<NameIndex?>(nil)

    /// Every place's name folded (case and accents aside), sorted, with its index in the table.
    private struct NameIndex: Sendable {
        let fingerprint: String
        let keys: [String]
        let indexes: [Int32]
    }
    private let paths: [String]
    /// Whether ``refresh()`` looks at the files again (not for a table read once by path).
    private let follows: Bool

    /// The table at `path` (see `scripts/places`), read now and kept as read (``refresh()``
    /// leaves it).
    public init(contentsOf path: String) throws(LoadError) {
        let table = try Self.read(path)
        state = Mutex(State(source: table.source, table: table))
        paths = [path]
        follows = false
    }

    /// The first table of `paths` that exists, read on first use; while none exists, each use
    /// looks again, so a table installed later is found without a restart (and ``refresh()``
    /// reads one that changed).
    public init(searching paths: [String]) {
        state = Mutex(State())
        self.paths = paths
        follows = true
    }

    /// The first table found of, in order (``standardPaths(environment:executable:)``):
    /// 1. `$SHOEBOX_PLACES`, when set;
    /// 2. the user's own, `$XDG_DATA_HOME/shoebox/places.tsv` (by default
    ///    `~/.local/share/shoebox/places.tsv`), where `scripts/places install` puts it;
    /// 3. beside the program: `share/shoebox/places.tsv` under the folder above its `bin`
    ///    (`/opt/shoebox/bin/shoebox` reads `/opt/shoebox/share/shoebox/places.tsv`);
    /// 4. `/usr/local/share/shoebox/places.tsv`, then `/usr/share/shoebox/places.tsv`.
    ///
    /// Read on first use (a fraction of a second: ask from a thread that may block). Without
    /// one (``isAvailable`` is `false`) places have no name and no time zone; one installed
    /// later is found by the next use, and libraries then name their photos by it in the
    /// background (the `places` job).
    public static let standard = Gazetteer(
        searching: standardPaths(
            environment: ProcessInfo.processInfo.environment, executable: Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])))

    /// Where ``standard`` looks for the table, first found wins: `$SHOEBOX_PLACES`, the user's
    /// data folder (`$XDG_DATA_HOME`, else `$HOME/.local/share`), `share/shoebox` beside the
    /// program's `bin` folder, `/usr/local/share/shoebox`, `/usr/share/shoebox`.
    package static func standardPaths(environment: [String: String], executable: URL?) -> [String] {
        var paths: [String] = []
        if let path = environment["SHOEBOX_PLACES"], !path.isEmpty { paths.append(path) }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            paths.append(data + "/shoebox/places.tsv")
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            paths.append(home + "/.local/share/shoebox/places.tsv")
        }
        if let executable {
            let prefix = executable.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            paths.append(prefix.appendingPathComponent("share/shoebox/places.tsv").path)
        }
        for path in ["/usr/local/share/shoebox/places.tsv", "/usr/share/shoebox/places.tsv"] where !paths.contains(path) {
            paths.append(path)
        }
        return paths
    }

    /// The table's file, once one is found (the first of the paths searched that exists).
    public var path: String? {
        found()?.path
    }

    /// Which table this is: the SHA-256 of the table, its `countries.tsv` and `regions.tsv`, in hex; `nil`
    /// without a table. A library records the fingerprint of the table that named its photos,
    /// and names them again when it differs (``PhotoLibrary/placeTableChanged()``).
    ///
    /// Hashes the files the first time (a few milliseconds); it does not read the cities, so a
    /// program that only records which table there is (`shoebox init`, a worker's look) never
    /// pays for that.
    package var fingerprint: String? {
        found()?.fingerprint
    }

    /// Reads the table again if its file changed, appeared or went since it was read (by its
    /// size, modification date and file number: a stat, no read, when nothing changed). Blocks: call it from
    /// a thread that may.
    ///
    /// A table made with ``init(contentsOf:)`` stays as it was read.
    ///
    /// - Returns: Whether the table changed (a table read for the first time counts).
    @discardableResult
    public func refresh() -> Bool {
        guard follows else { return false }
        let current = paths.first(where: { FileManager.default.fileExists(atPath: $0) })
        let stamp = current.map { FileStamp.of(table: $0) }
        return state.withLock { state in
            if let known = state.source, known.path == current, known.stamp == stamp { return false }
            guard let current else {
                defer { state = State() }
                return state.source != nil || state.table != nil
            }
            let previous = state.source?.fingerprint
            if state.table != nil {
                // Cities in use: the new ones are read now, and a table that does not read
                // (half written) leaves the old in place; the next look reads it.
                guard let fresh = try? Self.read(current) else { return false }
                state = State(source: fresh.source, table: fresh)
            } else {
                guard let fresh = Self.source(at: current) else { return false }
                state.source = fresh
            }
            return state.source?.fingerprint != previous
        }
    }

    /// The countries' outlines for maps, `world.json` beside the table (Natural Earth's 1:110m
    /// countries as SVG paths in degrees: see `scripts/places`), if it is there.
    package var worldOutlinesURL: URL? {
        for path in paths where FileManager.default.fileExists(atPath: path) {
            let outlines = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("world.json")
            return FileManager.default.fileExists(atPath: outlines.path) ? outlines : nil
        }
        return nil
    }

    /// Whether there is a table (reads it if it was not yet read).
    public var isAvailable: Bool { loaded() != nil }

    /// Whether the table has been read already (never reads it: safe where nothing may block).
    public var isLoaded: Bool { state.withLock { $0.table != nil } }

    /// How people would name a point: the most populous place within 20 km (else the nearest
    /// within 300 km) and its country — `Rome, Italy`, `Kyoto, Japan`; `nil` far from any.
    public func placeName(latitude: Double, longitude: Double) -> String? {
        guard let place = prominentPlace(latitude: latitude, longitude: longitude) ?? nearestPlace(latitude: latitude, longitude: longitude)
        else { return nil }
        return [place.name, countryName(code: place.countryCode)].compactMap { $0 }.joined(separator: ", ")
    }

    /// Places whose name starts with `text`, case and accents aside, the most populous first:
    /// what a person picks a photo's place from. `Paris, US` (after a comma: a country's name
    /// or ISO code) narrows the search to that country. The first search of a table folds its
    /// names (a fraction of a second: ask from a thread that may block).
    package func places(named text: String, limit: Int = 10) -> [Place] {
        let parts = text.split(separator: ",", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let name = parts.first.map(Self.folded), !name.isEmpty, let table = loaded() else { return [] }
        let country = parts.count > 1 ? Self.folded(parts[1]) : ""
        let index = names.withLock { cached -> NameIndex in
            if let cached, cached.fingerprint == table.fingerprint { return cached }
            let sorted = table.places.indices.map { (Self.folded(table.places[$0].name), Int32($0)) }.sorted { $0.0 < $1.0 }
            let made = NameIndex(fingerprint: table.fingerprint, keys: sorted.map(\.0), indexes: sorted.map(\.1))
            cached = made
            return made
        }
        // The first key not before the prefix; the matches follow it.
        var low = 0
        var high = index.keys.count
        while low < high {
            let middle = (low + high) / 2
            if index.keys[middle] < name { low = middle + 1 } else { high = middle }
        }
        var found: [Place] = []
        var position = low
        while position < index.keys.count, index.keys[position].hasPrefix(name) {
            let place = table.places[Int(index.indexes[position])]
            position += 1
            if !country.isEmpty {
                let countryName = table.countries[place.countryCode].map(Self.folded) ?? ""
                guard place.countryCode.lowercased() == country || countryName.hasPrefix(country) else { continue }
            }
            found.append(place)
        }
        // Exact names first (`Rome` before `Romeoville`), then by population.
        return Array(
            found.sorted { left, right in
                let (a, b) = (Self.folded(left.name) == name, Self.folded(right.name) == name)
                return a != b ? a : left.population > right.population
            }.prefix(max(0, limit)))
    }

    private static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The cities, read now if no lookup read them yet (and a table is there).
    private func loaded() -> Table? {
        state.withLock { state in
            if state.table == nil, let path = state.source?.path ?? paths.first(where: { FileManager.default.fileExists(atPath: $0) }) {
                state.table = try? Self.read(path)
                if let table = state.table { state.source = table.source }
            }
            return state.table
        }
    }

    /// The table's file, hashed if it was not yet (its cities are not read).
    private func found() -> Source? {
        state.withLock { state in
            if state.source == nil, let path = paths.first(where: { FileManager.default.fileExists(atPath: $0) }) {
                state.source = Self.source(at: path)
            }
            return state.source
        }
    }

    /// The file at `path` and its companions, stamped and hashed (as ``read(_:)`` hashes them).
    private static func source(at path: String) -> Source? {
        let stamp = FileStamp.of(table: path)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return Source(path: path, stamp: stamp, fingerprint: fingerprint(of: data, companions: companionContents(beside: path)))
    }

    /// The contents of ``companions`` beside the table at `path`, in order (`nil` for one that is not there).
    private static func companionContents(beside path: String) -> [Data?] {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        return companions.map { FileManager.default.contents(atPath: folder.appendingPathComponent($0).path) }
    }

    /// SHA-256 of the table's bytes and of the companions that are there, in hex.
    private static func fingerprint(of table: Data, companions: [Data?]) -> String {
        var hash = SHA256()
        hash.update(data: table)
        for case let bytes? in companions { hash.update(data: bytes) }
        return Hex.encode(hash.finalize())
    }

    private static func read(_ path: String) throws(LoadError) -> Table {
        let stamp = FileStamp.of(table: path)
        guard let data = FileManager.default.contents(atPath: path) else { throw LoadError(path: path, reason: "cannot be read") }
        var table = Table()
        table.path = path
        table.stamp = stamp
        try readCities(data, into: &table)
        guard !table.places.isEmpty else { throw LoadError(path: path, reason: "is empty") }
        let contents = companionContents(beside: path)
        if let names = contents[0] {
            for line in String(decoding: names, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                if fields.count >= 2, !fields[0].isEmpty, !fields[1].isEmpty { table.countries[String(fields[0])] = String(fields[1]) }
                if fields.count >= 3, !fields[0].isEmpty, !fields[2].isEmpty { table.continents[String(fields[0])] = String(fields[2]) }
            }
        }
        if let names = contents[1] {
            for line in String(decoding: names, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                if fields.count >= 3, !fields[0].isEmpty, !fields[1].isEmpty, !fields[2].isEmpty {
                    table.regions["\(fields[0])/\(fields[1])"] = String(fields[2])
                }
            }
        }
        table.fingerprint = fingerprint(of: data, companions: contents)
        return table
    }

    /// The cities of the table's bytes: a line each, `latitude`, `longitude`, name, country,
    /// region, zone and (optionally) population split by tabs; empty lines are skipped. Scans
    /// bytes rather than `Character`s (the table is 170,000 lines: splitting it as text took
    /// seconds in a debug build, the main cost of every `shoebox` command then).
    private static func readCities(_ data: Data, into table: inout Table) throws(LoadError) {
        var zones: [String: String] = [:]  // one String per zone, shared by its cities
        let bytes = [UInt8](data)
        let path = table.path
        var failure: LoadError?
        bytes.withUnsafeBufferPointer { buffer in
            let newline = UInt8(ascii: "\n")
            let tab = UInt8(ascii: "\t")
            var start = 0
            var fields: [Range<Int>] = []
            fields.reserveCapacity(8)
            while start < buffer.count {
                var end = start
                fields.removeAll(keepingCapacity: true)
                var fieldStart = start
                while end < buffer.count, buffer[end] != newline {
                    if buffer[end] == tab {
                        fields.append(fieldStart..<end)
                        fieldStart = end + 1
                    }
                    end += 1
                }
                defer { start = end + 1 }
                guard end > start else { continue }
                fields.append(fieldStart..<end)
                func text(_ index: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: buffer[fields[index]]), as: UTF8.self) }
                guard fields.count >= 6, let latitude = Double(text(0)), let longitude = Double(text(1)),
                    (-90...90).contains(latitude), (-180...180).contains(longitude), !fields[5].isEmpty
                else {
                    let line = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
                    failure = LoadError(path: path, reason: "has a malformed line \(table.places.count + 1): \(line.prefix(80))")
                    return
                }
                let spelled = text(5)
                let zone = zones[spelled] ?? spelled
                zones[spelled] = zone
                table.cells[cell(latitude, longitude), default: []].append(Int32(table.places.count))
                table.places.append(
                    Place(
                        name: text(2), countryCode: text(3), regionCode: text(4), timeZoneIdentifier: zone,
                        latitude: latitude, longitude: longitude, population: fields.count > 6 ? Int(text(6)) ?? 0 : 0))
            }
        }
        if let failure { throw failure }
        let populations = table.places.map(\.population)
        table.cellsByPopulation = table.cells.mapValues { indexes in
            indexes.enumerated().sorted { left, right in
                let (a, b) = (populations[Int(left.element)], populations[Int(right.element)])
                return a != b ? a > b : left.offset < right.offset
            }.map(\.element)
        }
    }

    /// The English name of the country with ISO 3166 code `code` (`IT`: Italy), from
    /// `countries.tsv` next to the table; `nil` when the code or the file is unknown.
    package func countryName(code: String) -> String? {
        loaded()?.countries[code.uppercased()]
    }

    /// The English name of the continent of the country with ISO 3166 code `code` (`IT`:
    /// Europe), from `countries.tsv`; `nil` when the table does not say.
    package func continentName(countryCode code: String) -> String? {
        loaded()?.continents[code.uppercased()].flatMap { Self.continentNames[$0] }
    }

    /// The name of a place's region (GeoNames' first-level division: a state, province or
    /// autonomous community; `ES`, `29`: Madrid), from `regions.tsv` next to the table; `nil`
    /// when the table does not name it.
    package func regionName(countryCode: String, regionCode: String) -> String? {
        guard !regionCode.isEmpty else { return nil }
        return loaded()?.regions["\(countryCode.uppercased())/\(regionCode)"]
    }

    /// How many places the table holds.
    public var count: Int { loaded()?.places.count ?? 0 }

    /// The city nearest to a point, if one lies within ``nearbyKilometres``.
    package func nearestPlace(latitude: Double, longitude: Double) -> Place? {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude), let table = loaded() else { return nil }
        var best: (place: Place, distance: Double)?
        // Rings of cells around the point's, until the ring is farther than the best so far.
        let centre = (lat: Int(floor(latitude)), lon: Int(floor(longitude)))
        for radius in 0...4 {
            for dLat in -radius...radius {
                for dLon in -radius...radius where max(abs(dLat), abs(dLon)) == radius {
                    let lat = centre.lat + dLat
                    guard (-90..<90).contains(lat) else { continue }
                    let lon = ((centre.lon + dLon + 180) % 360 + 360) % 360 - 180
                    for index in table.cells[Self.cell(Double(lat), Double(lon))] ?? [] {
                        let place = table.places[Int(index)]
                        let distance = Self.kilometres(latitude, longitude, place.latitude, place.longitude)
                        if distance < best?.distance ?? .infinity { best = (place, distance) }
                    }
                }
            }
            // A ring of radius r is at least r - 1 degrees of latitude (111 km each) away.
            if let best, best.distance < Double(radius) * 111 { break }
        }
        guard let best, best.distance <= Self.nearbyKilometres else { return nil }
        return best.place
    }

    /// The place people would name a point by: the most populous within `kilometres` (`Rome`
    /// for the Colosseum, whose nearest place is the quarter `Celio`); `nil` when none is that near.
    package func prominentPlace(latitude: Double, longitude: Double, withinKilometres kilometres: Double = 20) -> Place? {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude), let table = loaded() else { return nil }
        // Cells of a degree: enough columns to span the distance at this latitude.
        let rows = Int((kilometres / 111).rounded(.up))
        let columns = min(180, Int((kilometres / max(1, 111 * cos(latitude * .pi / 180))).rounded(.up)))
        // No place farther in latitude than the distance is within it (a great circle is at least
        // that long): the test before the trigonometry.
        let latitudeReach = kilometres / (6371 * .pi / 180) + 1e-9
        var best: Int?
        var bestPopulation = -1
        for dLat in -rows...rows {
            let lat = Int(floor(latitude)) + dLat
            guard (-90..<90).contains(lat) else { continue }
            for dLon in -columns...columns {
                let lon = ((Int(floor(longitude)) + dLon + 180) % 360 + 360) % 360 - 180
                // The most populous first: the first near enough is this cell's best.
                for index in table.cellsByPopulation[Self.cell(Double(lat), Double(lon))] ?? [] {
                    let index = Int(index)
                    guard table.places[index].population > bestPopulation else { break }
                    let (placeLatitude, placeLongitude) = (table.places[index].latitude, table.places[index].longitude)
                    guard abs(placeLatitude - latitude) <= latitudeReach,
                        Self.kilometres(latitude, longitude, placeLatitude, placeLongitude) <= kilometres
                    else { continue }
                    best = index
                    bestPopulation = table.places[index].population
                    break
                }
            }
        }
        return best.map { table.places[$0] }
    }

    /// The time zone of a point: its nearest city's, else (at sea) the nautical zone of its
    /// longitude, a whole number of hours from UTC; `nil` without a table.
    package func timeZone(latitude: Double, longitude: Double) -> TimeZone? {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude), isAvailable else { return nil }
        if let place = nearestPlace(latitude: latitude, longitude: longitude), let zone = TimeZone(identifier: place.timeZoneIdentifier) {
            return zone
        }
        return TimeZone(secondsFromGMT: Int((longitude / 15).rounded()) * 3600)
    }

    private static func cell(_ latitude: Double, _ longitude: Double) -> Int32 {
        let row: Int = Int(latitude.rounded(.down)) + 90
        let column: Int = Int(longitude.rounded(.down)) + 180
        return Int32(row * 360 + column)
    }

    /// Great-circle distance (haversine, mean Earth radius).
    static func kilometres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let radians: Double = .pi / 180
        let sinLat: Double = sin((lat2 - lat1) * radians / 2)
        let sinLon: Double = sin((lon2 - lon1) * radians / 2)
        let cosines: Double = cos(lat1 * radians) * cos(lat2 * radians)
        let a: Double = sinLat * sinLat + cosines * sinLon * sinLon
        return 2 * 6371 * asin(min(1, a.squareRoot()))
    }
}
