import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxPicker
import ShoeboxServer

/// Every JSON body a route decodes, through the server's own decoder, and the checks the route
/// makes of it before anything else. The first byte picks the body; the rest is the JSON.
enum JSONBodyFuzzTarget {
    static let bodies = 19

    static func run(_ data: Data) {
        guard let selector = data.first else { return }
        let body = Data(data.dropFirst())
        switch Int(selector) % bodies {
        case 0: decode(RequestBody.NewAlbum.self, body).map { checkTitle($0.title) }
        case 1: decode(RequestBody.Rename.self, body).map { checkTitle($0.title) }
        case 2: _ = decode(RequestBody.Members.self, body)
        case 3: _ = decode(RequestBody.Edit.self, body)
        case 4: _ = decode(RequestBody.Batch.self, body)
        case 5: decode(RequestBody.UploadStart.self, body).map { UploadFuzzTarget.checkName($0.filename) }
        case 6: decode(RequestBody.StatusChange.self, body).map(checkStatus)
        case 7: _ = decode(RequestBody.LimitedSelection.self, body)
        case 8: decode(RequestBody.Answer.self, body).map(checkAnswer)
        case 9: _ = decode(RequestBody.JobSelection.self, body)
        case 10: _ = decode(RequestBody.Pick.self, body)
        case 11: decode(RequestBody.Crop.self, body).map(checkCrop)
        case 12: decode(RequestBody.Trim.self, body).map(checkTrim)
        case 13: _ = decode(RequestBody.CameraSettings.self, body)
        case 14: decode(ClientManifest.self, body).map(checkManifest)
        case 15: decode(PickerRequest.self, body).map(checkPickerRequest)
        case 16: decode(FetchQuery.self, body).map(QueryFuzzTarget.checkOptions)
        case 17: decode(RequestBody.MetadataChange.self, body).map { _ = try? $0.adjustment() }
        default: decode(Adjustments.self, body).map(checkAdjustments)
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ body: Data) -> T? {
        try? JSONResponse.decode(T.self, from: body)
    }

    /// `PUT /api/assets/ID/adjustments`: what validates renders a monotonic curve, a finite mix
    /// and a non-empty picture, and survives its own adjustment data.
    private static func checkAdjustments(_ adjustments: Adjustments) {
        guard (try? adjustments.validate()) != nil else { return }
        let curve = adjustments.toneCurve
        FuzzCheck.require(curve.count == 256 && zip(curve, curve.dropFirst()).allSatisfy { $0 <= $1 }, "the tone curve of \(adjustments) reverses levels")
        FuzzCheck.require(curve[0] == 0, "the tone curve of \(adjustments) lifts black")
        FuzzCheck.require(adjustments.colorMatrix.count == 9 && adjustments.colorMatrix.allSatisfy(\.isFinite), "the mix of \(adjustments)")
        let size = ImageEdit.straightenedSize(of: PixelSize(width: 4000, height: 3000), degrees: adjustments.straighten)
        FuzzCheck.require(size.width >= 1 && size.height >= 1 && size.width <= 4000 && size.height <= 3000, "straightened to \(size)")
        let again = try? Adjustments(adjustments.adjustmentData)
        FuzzCheck.require(again == adjustments, "\(adjustments) read back from its data as \(String(describing: again))")
    }

    private static func checkTitle(_ title: String) {
        guard let accepted = try? AssetCollectionChangeRequest.validatedTitle(title) else { return }
        FuzzCheck.require(
            !accepted.isEmpty && accepted.count <= 200 && accepted == title.trimmingCharacters(in: .whitespacesAndNewlines),
            "the album title \(title.debugDescription) was taken as \(accepted.debugDescription)")
    }

    private static func checkStatus(_ change: RequestBody.StatusChange) {
        do {
            let status = try change.decided()
            FuzzCheck.require(status != .restricted, "a client set restricted")
            FuzzCheck.require(
                (status == nil) == (change.status == nil || change.status == "notDetermined"), "\(change.status ?? "nil") read as \(String(describing: status))"
            )
        } catch {
            FuzzCheck.require(
                change.status.map { Authorization.Status(rawValue: $0) == nil || $0 == "restricted" } ?? false, "\(change.status ?? "nil") was refused")
        }
    }

    private static func checkAnswer(_ answer: RequestBody.Answer) {
        let known = ["allow", "deny", "selectPhotos"].contains(answer.answer)
        FuzzCheck.require(((try? answer.authorizationAnswer()) != nil) == known, "the answer \(answer.answer.debugDescription)")
    }

    /// The picker's check of a crop: a square inside the photo.
    private static func checkCrop(_ crop: RequestBody.Crop) {
        guard let rect = crop.rect else { return }
        let size = PixelSize(width: 4032, height: 3024)
        if let clamped = rect.clamped(to: size) {
            FuzzCheck.require(
                clamped.x >= 0 && clamped.y >= 0 && clamped.width > 0 && clamped.height > 0
                    && clamped.x + clamped.width <= size.width && clamped.y + clamped.height <= size.height, "\(rect) clamped to \(clamped)")
        }
    }

    private static func checkTrim(_ trim: RequestBody.Trim) {
        guard let range = try? trim.range() else { return }
        FuzzCheck.require(range.lowerBound < range.upperBound && range.lowerBound == trim.start && range.upperBound == trim.end, "trim \(range)")
    }

    /// A manifest that passes `validate()` has the identifier and name the Privacy page can show;
    /// stored as JSON, it reads back the same.
    private static func checkManifest(_ manifest: ClientManifest) {
        FuzzCheck.require(roundTrips(manifest), "the manifest \(manifest.identifier.debugDescription) does not read back from JSON")
        guard (try? manifest.validate()) != nil else { return }
        let identifier = manifest.identifier
        FuzzCheck.require(
            !identifier.isEmpty && identifier.count <= 200 && !identifier.contains(where: { $0.isWhitespace || $0.isNewline }),
            "identifier \(identifier.debugDescription)")
        FuzzCheck.require(
            !ClientManifest.reservedIdentifiers.contains(identifier.lowercased()) && !identifier.lowercased().hasPrefix("shoebox."),
            "the reserved identifier \(identifier.debugDescription) was accepted")
        FuzzCheck.require(
            manifest.displayName.count <= 100 && !manifest.displayName.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
            "display name \(manifest.displayName.debugDescription)")
    }

    /// A picker request is stored as JSON (any server reads the session): it must read back the
    /// same. One that passes validation has media types, limits and a filter that make sense.
    private static func checkPickerRequest(_ request: PickerRequest) {
        FuzzCheck.require(roundTrips(request), "the picker request does not read back from JSON")
        let availability = PickerAvailability(hasLibrary: true, captureDevices: [.rear: .init(hasFlash: true), .front: .init(hasFlash: false)])
        guard (try? request.validate(in: availability)) != nil else { return }
        FuzzCheck.require(!request.mediaTypes.isEmpty, "no media types")
        FuzzCheck.require(request.videoMaximumDuration.isFinite && request.videoMaximumDuration > 0, "videoMaximumDuration \(request.videoMaximumDuration)")
        FuzzCheck.require(request.maximumEditedImagePixelSize >= ImagePickerController.minimumEditedImagePixelSize, "maximumEditedImagePixelSize")
        let configuration = request.configuration
        FuzzCheck.require(
            configuration.selectionLimit >= 0 && configuration.minimumSelectionCount >= 0
                && (configuration.selectionLimit == 0 || configuration.minimumSelectionCount <= configuration.selectionLimit),
            "selection limits \(configuration.minimumSelectionCount)…\(configuration.selectionLimit)")
        if let filter = configuration.filter {
            FuzzCheck.require(numbersHold(filter), "the filter \(filter) passed with a number out of range")
            _ = filter.predicate
        }
    }

    private static func numbersHold(_ filter: PickerFilter) -> Bool {
        switch filter {
        case .maximumFileSize(let bytes): bytes > 0
        case .maximumDuration(let seconds): seconds.isFinite && seconds > 0
        case .fileFormats(let types): !types.isEmpty
        case .any(let filters), .all(let filters): filters.allSatisfy(numbersHold)
        case .not(let inner): numbersHold(inner)
        case .images, .videos, .screenshots, .panoramas: true
        }
    }

    private static func roundTrips<T: Codable & Equatable>(_ value: T) -> Bool {
        guard let encoded = try? JSONResponse.encoder.encode(value) else { return false }
        return (try? JSONResponse.decode(T.self, from: encoded)) == value
    }
}
