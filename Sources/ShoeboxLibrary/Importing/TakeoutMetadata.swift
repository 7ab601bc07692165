import Foundation
import ShoeboxImaging

/// What Google Takeout's JSON beside a photo says of it (`IMG_0042.JPG.json`,
/// `IMG_0042.JPG.supplemental-metadata.json`): when it was taken (`photoTakenTime`), where
/// (`geoData`, else `geoDataExif`; `0, 0` is Google's "nowhere"), its description and whether it
/// was a favorite. Photos a file's own EXIF dates or places keep them: the JSON only fills what
/// the file lacks (Google's `photoTakenTime` is what Google made of the EXIF, or of the upload
/// time when there was none).
struct TakeoutMetadata: Sendable, Hashable {
    /// The original file name Google kept (`title`).
    var title: String
    /// When it was taken, an instant.
    var takenDate: Date?
    /// Where it was taken.
    var location: Asset.Location?
    /// Its description, if it has one.
    var caption: String?
    /// Whether it was a favorite in Google Photos.
    var isFavorite: Bool

    /// Why a JSON file is not Takeout's.
    struct ParseError: Error {
        let reason: String
        /// Whether it is JSON of another shape (another tool's), rather than broken.
        var isForeign = false
    }

    /// Reads the JSON at `url`; `path` names it in errors.
    init(contentsOf url: URL, path: String) async throws(LibraryError) {
        let data = try await ImportSidecars.read(url, path: path, kind: "Takeout JSON")
        do {
            self = try Self(data: data)
        } catch {
            // Another tool's JSON beside a photo is left alone, as any JSON is.
            throw .importFailed(
                path: path, code: error.isForeign ? .sidecar : .corrupt,
                message: error.isForeign ? "\(error.reason): skipped" : "a Takeout JSON that cannot be read: \(error.reason); its photo was imported without it"
            )
        }
    }

    /// Reads one photo's JSON.
    init(data: Data) throws(ParseError) {
        guard let object = Self.object(data) else { throw ParseError(reason: "it is not JSON") }
        guard let title = object["title"] as? String, object["photoTakenTime"] != nil || object["creationTime"] != nil else {
            throw ParseError(reason: "it is JSON, but not Google Takeout's metadata of a photo (no title and photoTakenTime)", isForeign: true)
        }
        self.title = title
        func date(_ key: String) -> Date? {
            let timestamp = (object[key] as? [String: Any])?["timestamp"]
            let seconds = (timestamp as? String).flatMap(Double.init) ?? (timestamp as? NSNumber)?.doubleValue
            return seconds.flatMap { $0 > 0 && $0.isFinite ? Date(timeIntervalSince1970: $0) : nil }
        }
        takenDate = date("photoTakenTime") ?? date("creationTime")
        location = Self.location(object["geoData"]) ?? Self.location(object["geoDataExif"])
        let text = (object["description"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        caption = text.isEmpty ? nil : text
        isFavorite = object["favorited"] as? Bool ?? false
    }

    /// The title of an album folder's `metadata.json`, if `data` is one (a title, no photo time).
    static func albumTitle(_ data: Data) -> String? {
        guard let object = object(data), object["photoTakenTime"] == nil,
            let title = (object["title"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty
        else { return nil }
        return title
    }

    private static func object(_ data: Data) -> [String: Any]? {
        guard data.count <= 4 << 20 else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    private static func location(_ value: Any?) -> Asset.Location? {
        guard let geo = value as? [String: Any], let latitude = (geo["latitude"] as? NSNumber)?.doubleValue,
            let longitude = (geo["longitude"] as? NSNumber)?.doubleValue, latitude.isFinite, longitude.isFinite,
            abs(latitude) <= 90, abs(longitude) <= 180, latitude != 0 || longitude != 0
        else { return nil }
        let altitude = (geo["altitude"] as? NSNumber)?.doubleValue
        return Asset.Location(latitude: latitude, longitude: longitude, altitude: altitude.flatMap { $0 != 0 && $0.isFinite ? $0 : nil })
    }

    /// The names, lowercased and best first, that Takeout gives the JSON of the media file
    /// `name`: `IMG_0042.JPG.json` and `IMG_0042.JPG.supplemental-metadata.json`, cut to 46–51
    /// characters before `.json` as Google cuts long names (`….supplemental-metad.json`); for
    /// `IMG_0042(1).JPG`, the counter moved before `.json` (`IMG_0042.JPG(1).json`); for an edited
    /// copy (`IMG_0042-edited.JPG`), its original's JSON; last, the old `IMG_0042.json`.
    static func jsonNames(forMediaNamed name: String) -> [String] {
        var stem = (name as NSString).deletingPathExtension
        let fileExtension = (name as NSString).pathExtension
        var counter = ""
        if stem.hasSuffix(")"), let open = stem.lastIndex(of: "("), stem[stem.index(after: open)..<stem.index(before: stem.endIndex)].allSatisfy(\.isNumber),
            stem.index(after: open) < stem.index(before: stem.endIndex)
        {
            counter = String(stem[open...])
            stem = String(stem[..<open])
        }
        for suffix in editedSuffixes where stem.lowercased().hasSuffix(suffix) {
            stem = String(stem.dropLast(suffix.count))
            break
        }
        let original = fileExtension.isEmpty ? stem : stem + "." + fileExtension
        var names: [String] = []
        for full in [original, original + ".supplemental-metadata"] {
            names.append(full + counter + ".json")
            for length in (46...51).reversed() where full.count > length {
                names.append(String(full.prefix(length)) + counter + ".json")
            }
        }
        names.append(stem + counter + ".json")
        var seen: Set<String> = []
        return names.map { $0.lowercased() }.filter { seen.insert($0).inserted }
    }

    /// What Google Photos adds to an edited copy's name, in the languages Takeout is most often
    /// exported in (lowercased).
    static let editedSuffixes = ["-edited", "-bearbeitet", "-modifié", "-editado", "-modificato", "-bewerkt", "-編集済み"]

    /// Whether `folder` is one of Takeout's year folders (`Photos from 2019`), which are no album.
    static func isYearFolder(_ folder: String) -> Bool {
        let words = folder.split(separator: " ")
        guard let year = words.last, year.count == 4, year.allSatisfy(\.isNumber) else { return false }
        return words.count >= 2 && folder.lowercased().hasPrefix("photos from")
    }
}
