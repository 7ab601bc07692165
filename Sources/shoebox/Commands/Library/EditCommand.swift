import ArgumentParser
import Foundation
import ShoeboxImaging
import ShoeboxLibrary

struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Rotate and crop a photo, or trim a movie, without touching its original.",
        discussion: """
            The edit is stored as Shoebox adjustment data (org.shoebox.adjustments, version 1) and rendered from \
            the original, replacing any earlier edit; `shoebox revert` undoes it. With --as-copy the result is \
            saved as a new asset that points back to this one. Prints the edited asset as JSON with --json.
            """)
    @OptionGroup var options: LibraryOptions
    @Argument(help: "The asset's identifier.") var identifier: String
    @Option(help: ArgumentHelp("Degrees clockwise: 90, 180 or 270.", valueName: "degrees")) var rotate = 0
    @Option(help: ArgumentHelp("The part to keep, in 0…1 of the rotated photo: x,y,width,height.", valueName: "x,y,w,h")) var crop: String?
    @Option(help: ArgumentHelp("The part of a movie to keep, in seconds: start,end.", valueName: "start,end")) var trim: String?
    @Flag(help: "Save the result as a new asset (a modified version) instead of editing in place.") var asCopy = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let library = try await options.open()
        let asset = try await resolveAssets([identifier], in: library)[0]
        var adjustments = Adjustments(rotation: rotate)
        if let crop {
            let values = try Self.numbers(crop, count: 4, name: "--crop")
            adjustments.crop = NormalizedRect(x: values[0], y: values[1], width: values[2], height: values[3])
        }
        if let trim {
            let values = try Self.numbers(trim, count: 2, name: "--trim")
            adjustments.trim = Adjustments.Trim(start: values[0], end: values[1])
        }
        let result: Asset
        do {
            result = asCopy
                ? try await library.saveModifiedVersion(of: asset, applying: adjustments)
                : try await library.applyAdjustments(adjustments, to: asset)
        } catch let error as LibraryError {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
        await library.waitForBackgroundWork()
        if json {
            try JSONOutput.print(ListCommand.Record(result))
        } else {
            print("\(result.localIdentifier)  \(result.pixelWidth)×\(result.pixelHeight)\(result.mediaType == .video ? String(format: "  %.2f s", result.duration) : "")")
        }
    }

    static func numbers(_ text: String, count: Int, name: String) throws -> [Double] {
        let values = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard values.count == count else {
            throw ValidationError("\(name) takes \(count) comma-separated numbers, not \(text)")
        }
        return values
    }
}

struct RevertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revert",
        abstract: "Drop assets' edits: their current version is the original again.")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Asset identifiers.") var identifiers: [String]

    func run() async throws {
        let library = try await options.open()
        let assets = try await resolveAssets(identifiers, in: library)
        do {
            try await library.performChanges {
                for asset in assets { AssetChangeRequest(for: asset).revertAssetContentToOriginal() }
            }
        } catch let error as LibraryError {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
    }
}
