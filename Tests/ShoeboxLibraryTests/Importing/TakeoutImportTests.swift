import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// Issue 44 item 1: a Google Takeout folder, built here in Takeout's shape: each photo meets its
/// JSON by Google's naming rules, the JSON fills what the file lacks, album folders become
/// albums and year folders do not.
@Suite struct TakeoutImportTests {
    static func json(
        title: String, taken: Int, geo: (Double, Double)? = nil, exifGeo: (Double, Double)? = nil, description: String = "", favorited: Bool = false
    )
        -> Data
    {
        func place(_ value: (Double, Double)?) -> [String: Any] {
            ["latitude": value?.0 ?? 0, "longitude": value?.1 ?? 0, "altitude": 0, "latitudeSpan": 0, "longitudeSpan": 0]
        }
        var object: [String: Any] = [
            "title": title, "description": description, "imageViews": "3",
            "creationTime": ["timestamp": "1700000000", "formatted": "14 Nov 2023, 22:13:20 UTC"],
            "photoTakenTime": ["timestamp": String(taken), "formatted": "…"], "geoData": place(geo), "geoDataExif": place(exifGeo),
            "url": "https://photos.google.com/photo/AF1Qip", "googlePhotosOrigin": ["mobileUpload": ["deviceType": "ANDROID_PHONE"]],
        ]
        if favorited { object["favorited"] = true }
        return try! JSONSerialization.data(withJSONObject: object)
    }

    @Test func googlesNamesForAPhotosJSON() {
        #expect(TakeoutMetadata.jsonNames(forMediaNamed: "IMG_1.JPG").prefix(2) == ["img_1.jpg.json", "img_1.jpg.supplemental-metadata.json"])
        #expect(TakeoutMetadata.jsonNames(forMediaNamed: "IMG_1(2).jpg").first == "img_1.jpg(2).json", "the counter moves before .json")
        #expect(TakeoutMetadata.jsonNames(forMediaNamed: "IMG_1(2).jpg").contains("img_1.jpg.supplemental-metadata(2).json"))
        #expect(TakeoutMetadata.jsonNames(forMediaNamed: "IMG_1-edited.jpg").first == "img_1.jpg.json", "an edited copy has its original's")
        #expect(TakeoutMetadata.jsonNames(forMediaNamed: "IMG_1-bearbeitet.jpg").first == "img_1.jpg.json")
        let long = "Screenshot_2019-06-14-18-30-00-123_com.example.app.jpg"  // 54 characters
        let names = TakeoutMetadata.jsonNames(forMediaNamed: long)
        #expect(names.contains(String(long.prefix(46)).lowercased() + ".json") && names.contains(String(long.prefix(51)).lowercased() + ".json"))
        let supplemental = "PXL_20190614_163000123.jpg.supplemental-metadata"
        #expect(TakeoutMetadata.jsonNames(forMediaNamed: "PXL_20190614_163000123.jpg").contains(String(supplemental.prefix(46)).lowercased() + ".json"))
        #expect(TakeoutMetadata.isYearFolder("Photos from 2019") && !TakeoutMetadata.isYearFolder("Rome 2019"))
    }

    @Test func aTakeoutFolderImportsWithItsDatesPlacesAndAlbums() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let google = temporary.folder.appendingPathComponent("Takeout/Google Photos")
        let year = google.appendingPathComponent("Photos from 2019")
        let album = google.appendingPathComponent("Rome 2019")
        for folder in [year, album] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        func photo(_ seed: UInt64, taken exif: ImageMetadata.DateTime? = nil, gps: (Double, Double)? = nil) throws -> Data {
            var metadata = ImageMetadata()
            metadata.dateTimeOriginal = exif
            (metadata.latitude, metadata.longitude) = (gps?.0, gps?.1)
            return try Image.embeddingMetadata(metadata, in: SyntheticPhoto(width: 60, height: 40, seed: seed).image().encoded(as: .jpeg))
        }
        let rome = (41.8902, 12.4922)
        let june14 = 1_560_529_800  // 2019-06-14T16:30:00Z
        let colosseum = try photo(501)
        try colosseum.write(to: year.appendingPathComponent("IMG_1.jpg"))
        try Self.json(title: "IMG_1.jpg", taken: june14, geo: rome, description: "The Colosseum", favorited: true)
            .write(to: year.appendingPathComponent("IMG_1.jpg.supplemental-metadata.json"))
        try photo(502).write(to: year.appendingPathComponent("IMG_1(1).jpg"))
        try Self.json(title: "IMG_1.jpg", taken: june14 + 86_400).write(to: year.appendingPathComponent("IMG_1.jpg.supplemental-metadata(1).json"))
        try photo(503).write(to: year.appendingPathComponent("IMG_1-edited.jpg"))
        let long = "Screenshot_2019-06-14-18-30-00-123_com.example.app.jpg"
        try photo(504).write(to: year.appendingPathComponent(long))
        try Self.json(title: long, taken: june14 + 2 * 86_400, exifGeo: (48.8584, 2.2945))
            .write(to: year.appendingPathComponent(String(long.prefix(46)) + ".json"))
        // The camera's own date and place win over Google's.
        let own = ImageMetadata.DateTime(year: 2018, month: 1, day: 1, hour: 12, minute: 0, second: 0, utcOffset: 0)
        try photo(505, taken: own, gps: (51.5, -0.12)).write(to: year.appendingPathComponent("camera.jpg"))
        try Self.json(title: "camera.jpg", taken: june14, geo: rome).write(to: year.appendingPathComponent("camera.jpg.json"))
        // Another tool's JSON is left alone; a JSON cut short is named; their photos import.
        try photo(506).write(to: year.appendingPathComponent("other.jpg"))
        try Data(#"{"software": "something else"}"#.utf8).write(to: year.appendingPathComponent("other.jpg.json"))
        try photo(507).write(to: year.appendingPathComponent("cut.jpg"))
        try Self.json(title: "cut.jpg", taken: june14).prefix(40).write(to: year.appendingPathComponent("cut.jpg.json"))
        // The album holds the first photo again (Takeout writes it in both folders).
        try colosseum.write(to: album.appendingPathComponent("IMG_1.jpg"))
        try Self.json(title: "IMG_1.jpg", taken: june14, geo: rome).write(to: album.appendingPathComponent("IMG_1.jpg.json"))
        try Data(#"{"title": "Rome, summer 2019", "description": "", "access": "protected"}"#.utf8).write(to: album.appendingPathComponent("metadata.json"))

        let report = await temporary.library.importItems(at: [temporary.folder.appendingPathComponent("Takeout")], recursive: true)
        #expect(report.imported == 7 && report.duplicates == 1, "\(report)")
        #expect(report.takeoutJSON == 5, "IMG_1 (which -edited shares), IMG_1(1), the long name, camera, and the album's IMG_1: \(report)")
        #expect(report.failed.map { ($0.path as NSString).lastPathComponent } == ["cut.jpg.json"], "\(report.failed)")
        #expect(Set(report.skipped.map { ($0 as NSString).lastPathComponent }) == ["other.jpg.json", "metadata.json"])

        let assets = try await temporary.library.fetchAssets().allObjects()
        func asset(_ name: String) throws -> Asset { try #require(assets.first { $0.originalFilename == name }, "\(name)") }
        let first = try asset("IMG_1.jpg")
        #expect(first.creationDate == Date(timeIntervalSince1970: Double(june14)) && first.timeZoneOffset == 7_200, "Rome's summer zone")
        #expect(first.location?.latitude == rome.0 && first.isFavorite && first.caption == "The Colosseum")
        #expect(try asset("IMG_1(1).jpg").creationDate == Date(timeIntervalSince1970: Double(june14 + 86_400)), "the (1) JSON, not IMG_1's")
        #expect(try asset("IMG_1-edited.jpg").creationDate == first.creationDate)
        let screenshot = try asset(long)
        #expect(screenshot.creationDate == Date(timeIntervalSince1970: Double(june14 + 2 * 86_400)) && screenshot.location?.latitude == 48.8584)
        let camera = try asset("camera.jpg")
        #expect(camera.creationDate == Date(timeIntervalSince1970: 1_514_808_000) && camera.location?.latitude == 51.5, "the file's own win")
        #expect(try asset("other.jpg").caption == nil)

        let albums = try await temporary.library.fetchAssetCollections(with: .album).allObjects()
        #expect(albums.map(\.localizedTitle) == ["Rome, summer 2019"], "the album folder's title; no album for the year")
        let inAlbum = try await temporary.library.fetchAssets(in: try #require(albums.first)).allObjects()
        #expect(inAlbum.map(\.localIdentifier) == [first.localIdentifier])

        // Again: nothing new, the same album.
        let again = await temporary.library.importItems(at: [temporary.folder.appendingPathComponent("Takeout")], recursive: true)
        #expect(again.imported == 0 && again.albums == report.albums)
        #expect(try await temporary.library.fetchAssetCollections(with: .album).count == 1)
    }
}
