import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

@Suite struct AdjustmentsTests {
    @Test func versionTwoKeysRoundTripAndVersionOneEditsStayVersionOne() throws {
        let full = Adjustments(
            rotation: 90, isFlipped: true, straighten: -2.5, crop: NormalizedRect(x: 0.1, y: 0, width: 0.8, height: 1),
            light: .init(exposure: 0.5, contrast: 0.2, highlights: -0.3, shadows: 0.4, saturation: 0.1, warmth: -0.2),
            filter: .vivid)
        let data = full.adjustmentData
        #expect(data.formatVersion == "2")
        #expect(
            String(decoding: data.data, as: UTF8.self)
                == #"{"crop":{"height":1,"width":0.8,"x":0.1,"y":0},"filter":"vivid","flip":true,"light":{"contrast":0.2,"exposure":0.5,"highlights":-0.3,"saturation":0.1,"shadows":0.4,"warmth":-0.2},"rotation":90,"straighten":-2.5}"#
        )
        #expect(try Adjustments(data) == full)
        #expect(Adjustments(rotation: 180).adjustmentData.formatVersion == "1")
        #expect(Adjustments(light: .init(warmth: 0.1)).adjustmentData.formatVersion == "2")
        // A version 1 reader ignored these keys; so does this reader for data labelled 1.
        let labelledOne = AdjustmentData(formatIdentifier: Adjustments.formatIdentifier, formatVersion: "1", data: data.data)
        #expect(try Adjustments(labelledOne) == Adjustments(rotation: 90, crop: full.crop))
        #expect(!Adjustments.canHandle(AdjustmentData(formatIdentifier: Adjustments.formatIdentifier, formatVersion: "3", data: Data())))
    }

    @Test func outOfRangeValuesAreNamed() {
        func message(_ adjustments: Adjustments) -> String? {
            do {
                try adjustments.validate()
                return nil
            } catch { return error.message }
        }
        #expect(message(Adjustments(straighten: 50))?.contains("straighten") == true)
        #expect(message(Adjustments(light: .init(exposure: 2.5)))?.contains("exposure") == true)
        #expect(message(Adjustments(light: .init(shadows: -1.2)))?.contains("shadows") == true)
        #expect(message(Adjustments(light: .init(warmth: .infinity)))?.contains("warmth") == true)
        #expect(message(Adjustments(light: .init(exposure: -2, contrast: 1, highlights: -1, shadows: 1, saturation: -1, warmth: 1))) == nil)
        let decoded = try? JSONDecoder().decode(Adjustments.self, from: Data(#"{"filter":"lomo"}"#.utf8))
        #expect(decoded == nil)
    }

    @Test func toneCurveKeepsEndsOrderAndMovesTheRightTones() {
        #expect(Adjustments().toneCurve == (0...255).map { UInt8($0) })
        #expect(Adjustments().colorMatrix == [1, 0, 0, 0, 1, 0, 0, 0, 1])
        for light in [
            Adjustments.Light(exposure: 2), .init(exposure: -2), .init(contrast: 1), .init(contrast: -1), .init(highlights: 1),
            .init(highlights: -1), .init(shadows: 1), .init(shadows: -1),
            .init(exposure: 1, contrast: 1, highlights: -1, shadows: 1),
        ] {
            let curve = Adjustments(light: light).toneCurve
            // Black stays black; white stays white unless exposure darkens everything.
            #expect(curve.first == 0 && (curve.last == 255 || light.exposure < 0), "\(light) moves black or white")
            #expect(zip(curve, curve.dropFirst()).allSatisfy { $0 <= $1 }, "\(light) reverses levels")
        }
        // +1 stop: mid grey (sRGB 128, 21.6 % linear) to 43.2 % linear, sRGB 175.5 → 176.
        #expect(Adjustments(light: .init(exposure: 1)).toneCurve[128] == 176)
        #expect(Adjustments(light: .init(exposure: -2)).toneCurve[255] == 137)
        // Shadows move the dark third most, highlights the bright third, contrast both ways.
        let shadows = Adjustments(light: .init(shadows: 1)).toneCurve
        let highlights = Adjustments(light: .init(highlights: -1)).toneCurve
        #expect(Int(shadows[64]) - 64 > Int(shadows[200]) - 200)
        #expect(Int(highlights[200]) < 200 && highlights[255] == 255 && highlights[30] >= 26)
        let contrast = Adjustments(light: .init(contrast: 0.5)).toneCurve
        #expect(contrast[64] < 64 && contrast[192] > 192 && contrast[128] == 128)
    }

    @Test func colorMatrixRemovesColourWarmsAndFilters() {
        func apply(_ matrix: [Double], _ rgb: [Double]) -> [Double] { (0..<3).map { row in (0..<3).reduce(0) { $0 + matrix[row * 3 + $1] * rgb[$1] } } }
        let mono = apply(Adjustments(filter: .mono).colorMatrix, [200, 100, 50])
        #expect(abs(mono[0] - mono[1]) < 1e-9 && abs(mono[1] - mono[2]) < 1e-9)
        #expect(abs(mono[0] - (0.2126 * 200 + 0.7152 * 100 + 0.0722 * 50)) < 1e-9)
        let warm = apply(Adjustments(light: .init(warmth: 1)).colorMatrix, [100, 100, 100])
        #expect(warm[0] > 100 && warm[1] == 100 && warm[2] < 100)
        let sepia = apply(Adjustments(filter: .sepia).colorMatrix, [100, 100, 100])
        #expect(sepia[0] > sepia[1] && sepia[1] > sepia[2])
        // A filter's light adds to the user's, held in range.
        #expect(Adjustments(light: .init(saturation: 0.9), filter: .vivid).colorMatrix == Adjustments(light: .init(saturation: 1)).colorMatrix)
        #expect(Adjustments(light: .init(saturation: -0.5), filter: .mono).colorMatrix == Adjustments(filter: .mono).colorMatrix)
    }

    @Test func renderAppliesEveryStepFromTheOriginal() async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        let id = try await fixture.importFiles([try fixture.photo("IMG_0001.jpg", seed: 3)])[0]
        let asset = try await #require(try fixture.library.fetchAssets(withLocalIdentifiers: [id]).firstObject)
        let adjustments = Adjustments(
            rotation: 90, isFlipped: true, straighten: 5, crop: NormalizedRect(x: 0, y: 0, width: 1, height: 0.5),
            light: .init(exposure: 0.3), filter: .mono)
        let edited = try await fixture.library.applyAdjustments(adjustments, to: asset)
        // 120×80 turned: 80×120; straightened 5°: the largest 2:3 inside; half its height.
        let straightened = ImageEdit.straightenedSize(of: PixelSize(width: 80, height: 120), degrees: 5)
        #expect(edited.pixelWidth == straightened.width)
        #expect(edited.pixelHeight == Int((Double(straightened.height) * 0.5).rounded()) || edited.pixelHeight == straightened.height / 2)
        let render = try await Image(contentsOfFile: fixture.library.currentURL(for: edited).path).bitmap()
        // Mono: every pixel grey (JPEG may leave a level or two between channels).
        var worst = 0
        for y in stride(from: 0, to: render.height, by: 3) {
            for x in stride(from: 0, to: render.width, by: 3) {
                let channels = (0..<3).map { Int(render[x, y, $0]) }
                worst = max(worst, channels.max()! - channels.min()!)
            }
        }
        #expect(worst <= 6)
        // The edit goes on from its data, and Revert brings the original back.
        let input = try await fixture.library.requestContentEditingInput(for: edited)
        #expect(try Adjustments(try #require(input.adjustmentData)) == adjustments)
        let reverted = try await fixture.library.revertAssetContentToOriginal(edited)
        #expect(!reverted.hasAdjustments && reverted.pixelWidth == 120 && reverted.pixelHeight == 80)
    }

    @Test func moviesRefusePhotoSteps() async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        let clip = try SyntheticMovie(duration: 2).write(to: fixture.folder.appendingPathComponent("clip.mp4"))
        let id = try await fixture.importFiles([clip])[0]
        let movie = try await #require(try fixture.library.fetchAssets(withLocalIdentifiers: [id]).firstObject)
        for adjustments in [Adjustments(isFlipped: true), Adjustments(straighten: 3), Adjustments(light: .init(contrast: 0.2)), Adjustments(filter: .noir)] {
            await #expect(throws: LibraryError.self) { try await fixture.library.applyAdjustments(adjustments, to: movie) }
        }
        let still = try await #require(try fixture.library.fetchAssets(withLocalIdentifiers: [id]).firstObject)
        #expect(!still.hasAdjustments)
    }
}
