import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// The Places view's data: countries and cities with counts and covers, map clusters at a
/// scale, and fetches by place or by a cluster's bounds, from the catalog's place columns (in
/// both engines when `scripts/test` runs the library suites on PostgreSQL).
@Suite struct LibraryPlacesTests {
    @Test("Countries and cities with counts and covers, the most photographed first; a fetch by place")
    func places() async throws {
        let (temporary, identifiers) = try await LibrarySearchTests.library()
        defer { temporary.remove() }
        let library = temporary.library
        let countries = try await library.fetchPlaces()
        #expect(countries.map(\.code) == ["IT", "BR", "CH"], "Italy has two (a photo and a movie), then by name")
        #expect(countries.map(\.name) == ["Italy", "Brazil", "Switzerland"])
        #expect(countries.map(\.count) == [2, 1, 1])
        let italy = try #require(countries.first)
        #expect(italy.cities.map(\.name) == ["Rome"] && italy.cities.first?.count == 2)
        #expect(italy.cover?.localIdentifier == identifiers["Birthday.mp4"], "the most recently added")
        #expect(countries[1].cities.map(\.name) == ["São Paulo"])
        #expect(countries[2].cities.map(\.name) == ["Zürich"])
        let rome = try #require(italy.cities.first)
        #expect(abs(rome.latitude - 41.8902) < 0.001 && abs(rome.longitude - 12.4922) < 0.001)

        let inRome = try await library.fetchAssets(with: FetchOptions(predicate: .place(country: "IT", name: "Rome"))).allObjects()
        #expect(Set(inRome.map(\.originalFilename)) == ["IMG_0001.JPG", "Birthday.mp4"])
        #expect(try await library.fetchAssets(with: FetchOptions(predicate: .place(country: "BR", name: nil))).count == 1)
        #expect(try await library.fetchAssets(with: FetchOptions(predicate: .place(country: "FR", name: nil))).count == 0)
        // Only videos: the filters of the fetch apply.
        let videos = try await library.fetchPlaces(with: FetchOptions(predicate: .mediaType(.video)))
        #expect(videos.map(\.code) == ["IT"] && videos.first?.count == 1)

        // A photo moved to Paris moves with its place; one in Recently Deleted leaves.
        let photo = try #require(try await library.fetchAssets(withLocalIdentifiers: [identifiers["IMG_0002.JPG"]!]).firstObject)
        try await library.performChanges { AssetChangeRequest(for: photo).location = Asset.Location(latitude: 48.8584, longitude: 2.2945) }
        let zurich = try #require(try await library.fetchAssets(withLocalIdentifiers: [identifiers["Zürich lake.jpg"]!]).firstObject)
        try await library.performChanges { AssetChangeRequest.deleteAssets([zurich]) }
        let after = try await library.fetchPlaces()
        #expect(after.map(\.code) == ["IT", "FR"] && after[1].cities.map(\.name) == ["Paris"])
    }

    @Test("Map clusters gather what is close at the scale asked; a cluster's bounds fetch its photos")
    func clusters() async throws {
        let (temporary, _) = try await LibrarySearchTests.library()
        defer { temporary.remove() }
        let library = temporary.library
        // 30° cells: Rome and Zürich share one (three photos), São Paulo has its own.
        let world = try await library.fetchMapClusters(cellDegrees: 30)
        #expect(world.map(\.count) == [3, 1])
        // 1° cells: Rome (two), Zürich and São Paulo apart.
        let close = try await library.fetchMapClusters(cellDegrees: 1)
        #expect(close.map(\.count) == [2, 1, 1])
        let europe = try #require(world.first)
        #expect(europe.south < 41.9 && europe.north > 47.3 && europe.west < 8.6 && europe.east > 12.4)
        #expect(europe.latitude > 41.8 && europe.latitude < 47.4, "the middle of the three")
        #expect(europe.cover != nil)
        let inside = try await library.fetchAssets(
            with: FetchOptions(
                predicate: .region(
                    south: europe.south, west: europe.west,
                    north: europe.north, east: europe.east)))
        #expect(inside.count == 3)
        // A box across the antimeridian (west > east) holds what is east of west or west of east.
        #expect(
            try await library.fetchAssets(with: FetchOptions(predicate: .region(south: -90, west: 170, north: 90, east: 10))).count == 2,
            "Zürich (8.5°E) and São Paulo (46.6°W) are in it; Rome's photo and movie (12.5°E) are not")
        await #expect(throws: LibraryError.self) { _ = try await library.fetchMapClusters(cellDegrees: 0) }
    }

    @Test("A limited client sees the places of the photos it may see, and no others")
    func limitedClient() async throws {
        let (temporary, identifiers) = try await LibrarySearchTests.library()
        defer { temporary.remove() }
        let authorization = Authorization(library: temporary.library)
        let client = ClientManifest(
            identifier: "com.example.places", displayName: "Places Example",
            usageDescriptions: [.photoLibrary: "To show your photos on a map."])
        try await authorization.register(client)
        try await authorization.setLimitedSelection([identifiers["Zürich lake.jpg"]!], client: client.identifier)
        try await authorization.setStatus(.limited, for: .photoLibrary(.readWrite), client: client.identifier)
        let app = try await PhotoLibrary.open(
            at: temporary.library.url, configuration: temporary.library.configuration,
            clientIdentifier: client.identifier)
        #expect(try await app.fetchPlaces().map(\.code) == ["CH"])
        #expect(try await app.fetchMapClusters(cellDegrees: 30).map(\.count) == [1])
        await app.close()
    }

    @Test("Rows from before places get theirs from the searchIndex job")
    func backfill() async throws {
        let (temporary, _) = try await LibrarySearchTests.library()
        defer { temporary.remove() }
        let library = temporary.library
        let store = try #require(library.catalog as? SQLCatalogStore)
        _ = try await store.write { db in try await db.execute("UPDATE asset SET searchText = NULL, placeName = NULL, placeCountry = NULL") }
        #expect(try await library.fetchPlaces().isEmpty)
        #expect(try await library.enqueueMissingWork() > 0)
        #expect(try await library.fetchPlaces().map(\.code) == ["IT", "BR", "CH"])
    }
}
