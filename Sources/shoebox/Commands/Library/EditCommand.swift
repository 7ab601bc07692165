import ArgumentParser
import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxServer

struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Edit a photo (rotate, flip, straighten, crop, light, filter) or trim a movie, without touching its original.",
        discussion: """
            The edit is stored as Shoebox adjustment data (org.shoebox.adjustments: version 1 for rotate, crop and \
            trim alone, 2 with the rest) and rendered from the original, replacing any earlier edit; `shoebox revert` \
            undoes it. The steps run in order: rotate, flip, straighten, crop, then light and filter. Light values are \
            −1…1 (exposure −2…2 stops); 0 leaves it. A negative value follows an equals sign: --straighten=-2.5. With --as-copy the result is saved as a new asset that points \
            back to this one. Prints the edited asset as JSON with --json. At least one edit option is needed: \
            without one the command is a usage error (exit 64) and the asset is left as it is.
            """)
    @OptionGroup var options: LibraryOptions
    @Argument(help: "The asset's identifier.") var identifier: String
    @Option(help: ArgumentHelp("Degrees clockwise: 90, 180 or 270.", valueName: "degrees")) var rotate = 0
    @Flag(help: "Mirror left to right (after rotating).") var flip = false
    @Option(help: ArgumentHelp("Degrees clockwise, −45…45, to level a horizon (the photo is cut to stay filled).", valueName: "degrees"))
    var straighten = 0.0
    @Option(help: ArgumentHelp("The part to keep, in 0…1 of the rotated, flipped and straightened photo: x,y,width,height.", valueName: "x,y,w,h"))
    var crop: String?
    @Option(help: ArgumentHelp("Stops of exposure, −2…2.", valueName: "stops")) var exposure = 0.0
    @Option(help: ArgumentHelp("Contrast, −1…1.", valueName: "amount")) var contrast = 0.0
    @Option(help: ArgumentHelp("Highlights, −1…1 (negative brings them back).", valueName: "amount")) var highlights = 0.0
    @Option(help: ArgumentHelp("Shadows, −1…1 (positive lifts them).", valueName: "amount")) var shadows = 0.0
    @Option(help: ArgumentHelp("Saturation, −1…1 (−1 is black and white).", valueName: "amount")) var saturation = 0.0
    @Option(help: ArgumentHelp("Warmth, −1…1 (negative cooler).", valueName: "amount")) var warmth = 0.0
    @Option(help: ArgumentHelp("A filter.", valueName: "name"))
    var filter: Adjustments.Filter?
    @Option(help: ArgumentHelp("The part of a movie to keep, in seconds: start,end.", valueName: "start,end")) var trim: String?
    @Flag(help: "Save the result as a new asset (a modified version) instead of editing in place.") var asCopy = false
    @Flag(help: "Print JSON.") var json = false

    /// The options that make an edit, as the usage error names them.
    static let editOptions = [
        "--rotate", "--flip", "--straighten", "--crop", "--exposure", "--contrast", "--highlights", "--shadows", "--saturation", "--warmth",
        "--filter", "--trim",
    ]

    func validate() throws {
        let light = [exposure, contrast, highlights, shadows, saturation, warmth]
        guard rotate != 0 || flip || straighten != 0 || crop != nil || light.contains(where: { $0 != 0 }) || filter != nil || trim != nil else {
            throw ValidationError(
                "name at least one edit: \(Self.editOptions.joined(separator: ", ")) (`shoebox revert` drops an edit)")
        }
    }

    func run() async throws {
        let library = try await options.open()
        let asset = try await resolveAssets([identifier], in: library)[0]
        var adjustments = Adjustments(
            rotation: rotate, isFlipped: flip, straighten: straighten,
            light: .init(
                exposure: exposure, contrast: contrast, highlights: highlights, shadows: shadows,
                saturation: saturation, warmth: warmth))
        adjustments.filter = filter
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
            result =
                asCopy
                ? try await library.saveModifiedVersion(of: asset, applying: adjustments)
                : try await library.applyAdjustments(adjustments, to: asset)
        } catch let error as LibraryError {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
        await library.waitForBackgroundWork()
        if json {
            try JSONOutput.print(await AssetJSON.one(result, in: library).withNulls)
        } else {
            print(
                "\(result.localIdentifier)  \(result.pixelWidth)×\(result.pixelHeight)\(result.mediaType == .video ? String(format: "  %.2f s", result.duration) : "")"
            )
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

extension Adjustments.Filter: ExpressibleByArgument {}
