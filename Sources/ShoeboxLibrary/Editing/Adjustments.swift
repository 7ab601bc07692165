import Foundation
import ShoeboxImaging

/// Shoebox's portable edit: rotate and crop for photos, trim for movies. Every part of Shoebox
/// (the picker, the web app, the CLI, ``ImageManager``) reads and writes it, so an edit made in
/// one can be continued in another.
///
/// Stored as ``AdjustmentData`` with ``formatIdentifier`` `org.shoebox.adjustments`,
/// ``formatVersion`` `1`, and this JSON (every key optional):
///
/// ```json
/// {
///   "rotation": 90,
///   "crop": { "x": 0.1, "y": 0.0, "width": 0.8, "height": 1.0 },
///   "trim": { "start": 1.5, "end": 4.0 }
/// }
/// ```
///
/// - `rotation`: degrees clockwise, a multiple of 90 (0, 90, 180, 270; others are normalised
///   modulo 360). Applied first, to the upright original (its EXIF orientation already applied).
/// - `crop`: a rectangle in unit coordinates (origin top-left) of the rotated image. Applied
///   second.
/// - `trim`: start and end in seconds of the original movie (`start < end`).
///
/// Photos take `rotation` and `crop`; movies take `trim`. Asking for a photo trim or a movie
/// crop or rotation is an ``LibraryError/invalidArgument(_:)`` error. Unknown keys are ignored,
/// so later versions can add some without breaking older readers.
public struct Adjustments: Sendable, Hashable, Codable {
    /// `org.shoebox.adjustments`.
    public static let formatIdentifier = "org.shoebox.adjustments"
    /// `1`.
    public static let formatVersion = "1"

    /// A movie cut, in seconds of the original.
    public struct Trim: Sendable, Hashable, Codable {
        public var start: Double
        public var end: Double

        public init(start: Double, end: Double) {
            self.start = start
            self.end = end
        }
    }

    /// Degrees clockwise, a multiple of 90.
    public var rotation: Int
    /// The part kept, in unit coordinates of the rotated image.
    public var crop: NormalizedRect?
    /// The part of a movie kept.
    public var trim: Trim?

    public init(rotation: Int = 0, crop: NormalizedRect? = nil, trim: Trim? = nil) {
        self.rotation = rotation
        self.crop = crop
        self.trim = trim
    }

    enum CodingKeys: String, CodingKey { case rotation, crop, trim }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rotation = try container.decodeIfPresent(Int.self, forKey: .rotation) ?? 0
        crop = try container.decodeIfPresent(NormalizedRect.self, forKey: .crop)
        trim = try container.decodeIfPresent(Trim.self, forKey: .trim)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if rotation != 0 { try container.encode(rotation, forKey: .rotation) }
        try container.encodeIfPresent(crop, forKey: .crop)
        try container.encodeIfPresent(trim, forKey: .trim)
    }

    /// Whether it changes nothing.
    public var isIdentity: Bool {
        quarterTurns == 0 && (crop == nil || crop == .unit) && trim == nil
    }

    /// `rotation` as clockwise quarter turns, 0…3.
    var quarterTurns: Int { (((rotation / 90) % 4) + 4) % 4 }

    /// Checks the values: rotation a multiple of 90, a crop inside the unit square, a trim with
    /// `0 ≤ start < end`.
    public func validate() throws(LibraryError) {
        guard rotation % 90 == 0 else {
            throw .invalidArgument("rotation \(rotation)° is not a multiple of 90")
        }
        if let crop {
            do {
                _ = try crop.pixelRect(in: PixelSize(width: 1_000_000, height: 1_000_000))
            } catch {
                throw .invalidArgument("crop: \(error.message)")
            }
        }
        if let trim {
            guard trim.start.isFinite, trim.end.isFinite, trim.start >= 0, trim.start < trim.end else {
                throw .invalidArgument("trim \(trim.start)…\(trim.end) s must have 0 ≤ start < end")
            }
        }
    }

    /// As ``AdjustmentData`` in this format.
    public var adjustmentData: AdjustmentData {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding plain numbers and optionals cannot fail.
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return AdjustmentData(formatIdentifier: Self.formatIdentifier, formatVersion: Self.formatVersion, data: data)
    }

    /// Reads adjustment data in this format.
    ///
    /// - Throws: ``LibraryError/invalidArgument(_:)`` when it is in another format or version, or
    ///   its JSON is malformed.
    public init(_ adjustmentData: AdjustmentData) throws(LibraryError) {
        guard Self.canHandle(adjustmentData) else {
            throw .invalidArgument("adjustment data is \(adjustmentData.formatIdentifier) \(adjustmentData.formatVersion), not \(Self.formatIdentifier) \(Self.formatVersion)")
        }
        do {
            self = try JSONDecoder().decode(Adjustments.self, from: adjustmentData.data)
        } catch {
            throw .invalidArgument("malformed \(Self.formatIdentifier) JSON: \(error)")
        }
        try validate()
    }

    /// Whether `adjustmentData` is in this format (a `canHandleAdjustmentData` answer).
    public static func canHandle(_ adjustmentData: AdjustmentData) -> Bool {
        adjustmentData.formatIdentifier == formatIdentifier && adjustmentData.formatVersion == formatVersion
    }

    // MARK: Applying

    /// Applies rotation then crop to an upright photo.
    ///
    /// - Throws: ``LibraryError/invalidArgument(_:)`` for a trim or invalid values;
    ///   ``LibraryError/renderFailed(_:)`` when the pixels cannot be decoded.
    public func applied(to image: Image) throws(LibraryError) -> Image {
        try validate()
        guard trim == nil else { throw .invalidArgument("a photo cannot be trimmed") }
        do {
            var result = quarterTurns == 0 && crop != nil ? image : try image.rotated(byQuarterTurns: quarterTurns)
            if let crop, crop != .unit {
                result = try result.cropping(toNormalized: crop)
            }
            return result
        } catch {
            if case .invalidArgument(let detail) = error { throw .invalidArgument(detail) }
            throw .renderFailed("cannot apply the adjustments to the image: \(error.message)")
        }
    }
}
