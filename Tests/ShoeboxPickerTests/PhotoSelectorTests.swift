import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import Testing

@testable import ShoeboxPicker

@Suite struct PhotoSelectorTests {
    @Test func albumsAreTheNonEmptyOnesWithAllowedMedia() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let images = try PhotoSelector(library: fixture.library)
        let titles = try await images.albums().map(\.title)
        // Videos holds only movies; the library has no hidden or deleted assets to show anyway.
        #expect(titles == ["Recents", "Favorites", "Screenshots", "Panoramas", "Recently Added", "Trip"])
        let recents = try await #require(try images.albums().first { $0.title == "Recents" })
        #expect(recents.count == 6, "six photos, no movies")
        let trip = try await #require(try images.albums().first { $0.title == "Trip" })
        #expect(trip.count == 2, "the album's movie is not offered")

        let movies = try PhotoSelector(library: fixture.library, mediaTypes: [.movie])
        await #expect(try movies.albums().map(\.title) == ["Recents", "Videos", "Recently Added", "Trip"])
        #expect(throws: PickerError.self) { try PhotoSelector(library: fixture.library, mediaTypes: []) }
    }

    @Test func choosingAnAssetLoadsAPreviewAndItsSize() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let selector = try PhotoSelector(library: fixture.library, previewSize: PixelSize(width: 100, height: 100))
        #expect(!selector.isSelected && selector.image() == nil && selector.asset() == nil && selector.sizeLabel == nil)
        await #expect(throws: PickerError.self) { try await selector.selectAsset(at: 0) }  // no album yet
        let trip = try await #require(try selector.albums().first { $0.title == "Trip" })
        try await selector.selectAlbum(trip)
        #expect(selector.assets?.count == 2)
        let portrait = try await fixture.asset("portrait.jpg")
        #expect(try await selector.assets?.firstObject == portrait, "the album's order")
        try await selector.selectAsset(at: 0)
        #expect(selector.isSelected && selector.asset() == portrait)
        #expect(selector.sizeLabel == "300 x 400")
        // .aspectFill: the preview size is a minimum on both sides.
        #expect(selector.image()?.pixelSize == PixelSize(width: 100, height: 133))
        // Never larger than the original.
        let big = try await selector.image(targetSize: PixelSize(width: 1000, height: 700))
        #expect(big?.pixelSize == PixelSize(width: 300, height: 400))
        await #expect(throws: PickerError.self) { try await selector.selectAsset(at: 5) }
        await #expect(throws: PickerError.self) { try await selector.selectAsset(fixture.asset("clip.mp4")) }
    }

    @Test func switchingAlbumsClearsTheSelection() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let selector = try PhotoSelector(library: fixture.library)
        let albums = try await selector.albums()
        try await selector.selectAlbum(albums[0])
        try await selector.selectAsset(at: 0)
        #expect(selector.isSelected)
        try await selector.selectAlbum(try #require(albums.first { $0.title == "Favorites" }))
        #expect(!selector.isSelected && selector.image() == nil && selector.sizeLabel == nil)
        #expect(selector.assets?.count == 1)
        await #expect(throws: PickerError.self) { try await selector.selectAlbum(withIdentifier: "NOPE") }

        // In a session with a limit of 1, switching albums clears the session's selection too.
        let session = try await PickerSession(
            request: PickerRequest(), library: fixture.library,
            availability: PickerAvailability(hasLibrary: true))
        try await session.select(fixture.ids["landscape.jpg"]!)
        try await session.selectAlbum(withIdentifier: albums[1].id)
        #expect(session.selection.isEmpty)
        var several = PickerRequest()
        several.configuration.selectionLimit = 3
        let multi = try await PickerSession(request: several, library: fixture.library, availability: PickerAvailability(hasLibrary: true))
        try await multi.select(fixture.ids["landscape.jpg"]!)
        try await multi.selectAlbum(withIdentifier: albums[1].id)
        #expect(multi.selection == [fixture.ids["landscape.jpg"]!], "a multiple selection survives album switches")
        await session.cancel()
        await multi.cancel()
    }

    @Test func sizesBelowTheMinimumNameTheLimit() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        do {
            _ = try PhotoSelector(library: fixture.library, previewSize: PixelSize(width: 9, height: 100))
            Issue.record("a 9 px wide preview was accepted")
        } catch {
            #expect(error.code == .sizeTooSmall && error.message.contains("minimum of 10"))
        }
        let selector = try PhotoSelector(library: fixture.library)
        #expect(throws: PickerError.self) { try selector.setPreviewSize(PixelSize(width: 100, height: 5)) }
        try await selector.selectAlbum(try selector.albums()[0])
        try await selector.selectAsset(at: 0)
        do {
            _ = try await selector.image(targetSize: PixelSize(width: 0, height: 50))
            Issue.record("a zero-width image was made")
        } catch {
            #expect(error.code == .sizeTooSmall && error.message.contains("width"))
        }
        #expect(try await selector.image(targetSize: PixelSize(width: 10, height: 10)) != nil)
    }
}
