import ArgumentParser
import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxServer

struct AdjustCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adjust",
        abstract: "Fix what the camera got wrong: date and time, time zone, place, title, caption, keywords, rating, label.",
        discussion: """
            One change for every asset named, all of them or none. The date: --date sets the earliest of them to that \
            time (read in --time-zone, else in its own zone) and moves the others by as much, keeping their order and \
            spacing; --shift moves each by an amount (+1h, +1d2h; an earlier one after an equals sign: --shift=-30m); --time-zone alone says which zone the \
            camera's clock was in (the time it shows stays). --preview prints what the dates would become and changes \
            nothing. The place: --place searches the offline place table (Rome, Paris US) and takes the best match; \
            --location gives coordinates; --no-location removes it. The date and place you set win over the file's and \
            are kept when the file is read again; --revert date,location gives the file's back. Keywords: --keywords \
            replaces them (comma-separated; a path such as Places/Italy/Rome for a hierarchy), --add-keyword and \
            --remove-keyword change them; "" clears a title, caption or label, and --rating 0 a rating. Prints the \
            changed assets as JSON with --json.
            """)
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Asset identifiers.") var identifiers: [String]
    @Option(help: ArgumentHelp("When the (earliest) asset was taken: 2019-06-12T14:30, seconds and an offset optional.", valueName: "date"))
    var date: String?
    @Option(help: ArgumentHelp("Move every date by this much: +1h, -30m, +1d2h, -90s.", valueName: "amount")) var shift: String?
    @Option(help: ArgumentHelp("The zone the camera's clock was in (Europe/Rome, UTC, +09:00); with --date, the zone it is read in.", valueName: "zone"))
    var timeZone: String?
    @Option(help: ArgumentHelp("Where it was taken: a place of the offline table (Rome; Paris, US).", valueName: "name")) var place: String?
    @Option(help: ArgumentHelp("Where it was taken: latitude,longitude in degrees.", valueName: "lat,lon")) var location: String?
    @Flag(help: "Remove the location.") var noLocation = false
    @Option(help: "A title (\"\" removes it).") var title: String?
    @Option(help: "A caption (\"\" removes it).") var caption: String?
    @Option(help: ArgumentHelp("Replace the keywords with these (comma-separated; \"\" removes them all).", valueName: "list")) var keywords: String?
    @Option(help: "Add a keyword (repeatable).") var addKeyword: [String] = []
    @Option(help: "Remove a keyword (repeatable).") var removeKeyword: [String] = []
    @Option(help: ArgumentHelp("Stars, 0 to 5 (0 removes the rating).", valueName: "stars")) var rating: Int?
    @Option(help: "A colour label (\"\" removes it).") var label: String?
    @Option(help: ArgumentHelp("Give back the file's values: date, location, or date,location.", valueName: "fields")) var revert: String?
    @Flag(help: "Print what the dates would become; change nothing.") var preview = false
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        let places = [place != nil, location != nil, noLocation].filter { $0 }.count
        guard places <= 1 else { throw ValidationError("give one of --place, --location and --no-location") }
        guard [keywords != nil, !addKeyword.isEmpty, !removeKeyword.isEmpty].filter({ $0 }).count <= 1 else {
            throw ValidationError("give one of --keywords, --add-keyword and --remove-keyword")
        }
        guard date == nil || shift == nil else { throw ValidationError("give --date or --shift, not both") }
        guard shift == nil || timeZone == nil else { throw ValidationError("--shift keeps each asset's zone: give --shift or --time-zone, not both") }
        if let rating, !(0...5).contains(rating) { throw ValidationError("--rating is 0 to 5 stars, not \(rating)") }
        if preview, date == nil, shift == nil, timeZone == nil { throw ValidationError("--preview shows a date change: give --date, --shift or --time-zone") }
        let changes: [Bool] = [
            date != nil, shift != nil, timeZone != nil, places > 0, title != nil, caption != nil, keywords != nil, !addKeyword.isEmpty,
            !removeKeyword.isEmpty, rating != nil, label != nil, revert != nil,
        ]
        guard changes.contains(true) else {
            throw ValidationError(
                "name a change: --date, --shift, --time-zone, --place, --location, --no-location, --title, --caption, --keywords, --add-keyword, --remove-keyword, --rating, --label or --revert"
            )
        }
    }

    func run() async throws {
        let library = try await options.open()
        let assets = try await resolveAssets(identifiers, in: library)
        var adjustment = MetadataAdjustment(title: title, caption: caption, rating: rating, label: label)
        adjustment.date = try dateChange()
        if noLocation { adjustment.location = .some(nil) }
        if let location { adjustment.location = .some(try Self.coordinates(location)) }
        if let place { adjustment.location = .some(try Self.find(place, in: library)) }
        if let keywords { adjustment.keywords = .replace(Self.list(keywords)) }
        if !addKeyword.isEmpty { adjustment.keywords = .add(addKeyword) }
        if !removeKeyword.isEmpty { adjustment.keywords = .remove(removeKeyword) }
        for field in revert.map(Self.list) ?? [] {
            switch field {
            case "date", "creationDate": adjustment.revertsToFileValues.insert(.creationDate)
            case "location", "place": adjustment.revertsToFileValues.insert(.location)
            default:
                Terminal.standardError("error: --revert takes date and location, not \(field)")
                throw ExitCode.validationFailure
            }
        }
        do {
            if preview, let change = adjustment.date {
                try printPreview(try library.previewDates(change, of: assets))
                return
            }
            try await library.adjustMetadata(of: assets, adjustment)
        } catch let error as LibraryError {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
        let changed = try await library.fetchAssets(withLocalIdentifiers: assets.map(\.localIdentifier)).allObjects()
        if json {
            try JSONOutput.print(await AssetJSON.list(changed, in: library).map(\.withNulls))
            return
        }
        for asset in changed {
            let taken = Self.text(asset.captureTime)
            let place = asset.location.map { String(format: "%.5f, %.5f", $0.latitude, $0.longitude) } ?? "no location"
            print("\(asset.localIdentifier)  \(taken)  \(place)  \(asset.originalFilename)")
        }
    }

    private func dateChange() throws -> MetadataAdjustment.DateChange? {
        let zone = try timeZone.map { text in
            guard let zone = MetadataAdjustment.timeZone(text) else {
                Terminal.standardError("error: --time-zone must be a zone name (Europe/Rome), UTC or an offset (+09:00), not \(text)")
                throw ExitCode.validationFailure
            }
            return zone
        }
        if let date {
            guard let time = MetadataAdjustment.wallClock(date) else {
                Terminal.standardError("error: --date must be a date and time, 2019-06-12T14:30 (seconds and an offset optional), not \(date)")
                throw ExitCode.validationFailure
            }
            return .set(time, timeZone: zone)
        }
        if let shift {
            guard let seconds = Self.seconds(shift) else {
                Terminal.standardError("error: --shift must be an amount such as +1h, -30m, +1d2h or -90s, not \(shift)")
                throw ExitCode.validationFailure
            }
            return .shift(seconds: seconds)
        }
        return zone.map { .timeZone($0) }
    }

    private func printPreview(_ previews: [DatePreview]) throws {
        let sorted = previews.sorted { $0.before.date < $1.before.date }
        if json {
            struct Row: Encodable {
                let localIdentifier: String
                let before: String
                let after: String
            }
            try JSONOutput.print(sorted.map { Row(localIdentifier: $0.asset.localIdentifier, before: Self.text($0.before), after: Self.text($0.after)) })
            return
        }
        for preview in sorted {
            print("\(preview.asset.localIdentifier)  \(Self.text(preview.before))  →  \(Self.text(preview.after))  \(preview.asset.originalFilename)")
        }
        print("\(sorted.count) would change (nothing changed: run without --preview to apply)")
    }

    /// `2024-05-01 09:00:00 +09:00`: the clock where it was taken, with its offset when known
    /// (as `shoebox ls` prints it).
    static func text(_ time: CaptureTime) -> String {
        time.localDateString.replacingOccurrences(of: "T", with: " ") + (time.offsetString.map { " " + $0 } ?? "")
    }

    /// `+1h`, `-30m`, `+1d2h`, `-90s`, or a bare number of seconds.
    static func seconds(_ text: String) -> TimeInterval? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        var sign = 1.0
        if rest.first == "-" || rest.first == "+" {
            sign = rest.first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        if let plain = Double(rest), plain.isFinite { return sign * plain }
        let units: [Character: Double] = ["d": 86_400, "h": 3_600, "m": 60, "s": 1]
        var total = 0.0
        var number = ""
        var seen = false
        for character in rest {
            if character.isASCII, character.isNumber || character == "." {
                number.append(character)
            } else if let unit = units[character], let value = Double(number) {
                total += value * unit
                number = ""
                seen = true
            } else {
                return nil
            }
        }
        guard seen, number.isEmpty else { return nil }
        return sign * total
    }

    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func coordinates(_ text: String) throws -> Asset.Location {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let latitude = parts[0], let longitude = parts[1] else {
            Terminal.standardError("error: --location must be latitude,longitude in degrees (41.8902,12.4922), not \(text)")
            throw ExitCode.validationFailure
        }
        return Asset.Location(latitude: latitude, longitude: longitude)
    }

    /// The best match of the offline place table, said on standard error.
    static func find(_ name: String, in library: PhotoLibrary) throws -> Asset.Location {
        let places = library.configuration.places ?? Gazetteer.standard
        guard places.isAvailable else {
            Terminal.standardError(
                "error: the offline place table is not installed (scripts/places install), so --place cannot look up \(name): give --location")
            throw ExitCode.failure
        }
        guard let place = places.places(named: name, limit: 1).first else {
            Terminal.standardError("error: no place called \(name) in the offline place table (try the start of its name, or --location)")
            throw ExitCode.failure
        }
        let country = places.countryName(code: place.countryCode) ?? place.countryCode
        Terminal.standardError("place: \(place.name), \(country) (\(place.latitude), \(place.longitude))")
        return Asset.Location(latitude: place.latitude, longitude: place.longitude)
    }
}
