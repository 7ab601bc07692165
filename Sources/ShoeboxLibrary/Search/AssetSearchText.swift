import Foundation

/// The words an asset is found by, as the catalog indexes them (SQLite's FTS5, PostgreSQL's
/// full-text search): its file names, its camera's make and model, its lens, its title, caption,
/// keywords and label, and the place it
/// was taken — the nearest place of the place table within ``cityKilometres`` (often a quarter),
/// the most populous within ``prominentKilometres`` (the city), the region, the country and the
/// continent (`celio rome latium italy europe`), with the common other names of a few countries
/// (`usa`, `uk`).
///
/// Words are folded as search folds what is typed (``words(in:)``): lowercase, without accents,
/// split at anything that is not a letter or a digit, so `IMG_0042.JPG` is `img 0042 jpg` and
/// `São Paulo` is `sao paulo` in either engine.
package enum AssetSearchText {
    /// How far a photo may be from its nearest place to be found by that place's name.
    package static let cityKilometres = 50.0
    /// How far a photo may be from the most populous place around to be found by its name.
    package static let prominentKilometres = 20.0

    /// Other names people search countries by, added to the country's own.
    static let countryAliases: [String: String] = [
        "US": "usa america", "GB": "uk britain england scotland wales", "AE": "uae emirates", "KR": "korea", "KP": "korea",
        "NL": "holland", "CZ": "czechia", "RU": "russia", "VN": "vietnam", "IR": "iran", "SY": "syria", "LA": "laos",
        "BO": "bolivia", "VE": "venezuela", "TZ": "tanzania", "TW": "taiwan", "MD": "moldova", "CD": "congo", "CG": "congo",
    ]

    /// The folded words of `text`, in order (repeats kept).
    package static func words(in text: String) -> [String] {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
            .lowercased()
        var words: [String] = []
        var current = ""
        for scalar in folded.unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// Where `record` was taken, as the Places view groups it: the most populous place within
    /// ``prominentKilometres`` (the city people name it by), else the nearest within
    /// ``cityKilometres``, and the country of the nearest place (ISO 3166 code). Both `nil`
    /// without GPS or a place table, or far from every place.
    package static func place(for record: AssetRecord, places: Gazetteer?) -> (name: String?, country: String?) {
        guard let latitude = record.latitude, let longitude = record.longitude, let places,
            let nearest = places.nearestPlace(latitude: latitude, longitude: longitude)
        else { return (nil, nil) }
        if let prominent = places.prominentPlace(latitude: latitude, longitude: longitude, withinKilometres: prominentKilometres) {
            return (prominent.name, prominent.countryCode)
        }
        let near = Gazetteer.kilometres(latitude, longitude, nearest.latitude, nearest.longitude) <= cityKilometres
        return (near ? nearest.name : nil, nearest.countryCode)
    }

    /// The text to index for `record` (each word once), with its place from `places`.
    package static func text(for record: AssetRecord, places: Gazetteer?) -> String {
        var fields = [
            record.originalFilename, record.companionFilename, record.cameraMake, record.cameraModel, record.lensModel,
            record.title, record.caption, record.keywords, record.label,
        ]
        if let latitude = record.latitude, let longitude = record.longitude, let places,
            let place = places.nearestPlace(latitude: latitude, longitude: longitude)
        {
            // The nearest place (a quarter: `Celio`) and the one people name it by (`Rome`).
            if Gazetteer.kilometres(latitude, longitude, place.latitude, place.longitude) <= cityKilometres { fields.append(place.name) }
            fields.append(places.prominentPlace(latitude: latitude, longitude: longitude, withinKilometres: prominentKilometres)?.name)
            // Its region (`Madrid` for the outskirts of Madrid in Fuencarral), country and continent.
            fields.append(places.regionName(countryCode: place.countryCode, regionCode: place.regionCode))
            fields.append(places.countryName(code: place.countryCode))
            fields.append(countryAliases[place.countryCode])
            fields.append(places.continentName(countryCode: place.countryCode))
        }
        var seen: Set<String> = []
        return fields.compactMap { $0 }.flatMap(words(in:)).filter { seen.insert($0).inserted }.joined(separator: " ")
    }
}
