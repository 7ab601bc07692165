import Foundation
import ShoeboxImaging

/// Shoebox's portable edit: rotate, flip, straighten, crop, light and a filter for photos; trim
/// for movies. Every part of Shoebox (the picker, the web app's editor, the CLI,
/// ``ImageManager``) reads and writes it, so an edit made in one can be continued in another.
///
/// Stored as ``AdjustmentData`` with ``formatIdentifier`` `org.shoebox.adjustments` and this JSON
/// (every key optional):
///
/// ```json
/// {
///   "rotation": 90,
///   "flip": true,
///   "straighten": -2.5,
///   "crop": { "x": 0.1, "y": 0.0, "width": 0.8, "height": 1.0 },
///   "light": { "exposure": 0.5, "contrast": 0.2, "highlights": -0.3, "shadows": 0.4, "saturation": 0.1, "warmth": -0.2 },
///   "filter": "vivid",
///   "trim": { "start": 1.5, "end": 4.0 }
/// }
/// ```
///
/// A photo's steps, each on the result of the one before:
/// - `rotation`: degrees clockwise, a multiple of 90, of the upright original (its EXIF
///   orientation already applied).
/// - `flip`: mirrored left to right.
/// - `straighten`: degrees clockwise, −45…45, about the centre, cut to the largest centred
///   rectangle of the same proportions (``ImageEdit/straightenedSize(of:degrees:)``).
/// - `crop`: a rectangle in unit coordinates (origin top-left) of that result.
/// - `light` (``Light``) and `filter` (``Filter``): one tone curve on each channel, then one
///   channel mix (``toneCurve``, ``colorMatrix``).
///
/// `trim` is a movie's start and end in seconds of the original (`start < end`). Photos take
/// every key but `trim`; movies take `trim` only; anything else is an
/// ``LibraryError/Code/invalidArgument`` error.
///
/// ``formatVersion`` is `2`; an edit using only version 1's keys (`rotation`, `crop`, `trim`) is
/// written as version `1`, so readers of version 1 still continue it. Unknown keys are ignored.
public struct Adjustments: Sendable, Hashable, Codable {
    /// `org.shoebox.adjustments`.
    public static let formatIdentifier = "org.shoebox.adjustments"
    /// `2`: the newest version this reader takes (it takes `1` too).
    public static let formatVersion = "2"
    /// Every version this reader takes.
    public static let formatVersions: Set<String> = ["1", "2"]

    /// A movie cut, in seconds of the original.
    public struct Trim: Sendable, Hashable, Codable {
        /// Where the kept part begins, in seconds from the original's start (0 or more).
        public var start: Double
        /// Where the kept part ends, in seconds from the original's start (after ``start``).
        public var end: Double

        /// A cut keeping `start`…`end` seconds of the original, unchecked (``Adjustments/validate()``
        /// requires `0 ≤ start < end`).
        public init(start: Double, end: Double) {
            self.start = start
            self.end = end
        }
    }

    /// Degrees clockwise, a multiple of 90.
    public var rotation: Int
    /// Mirrored left to right after the rotation.
    public var isFlipped: Bool
    /// Degrees clockwise, −45…45, after the flip.
    public var straighten: Double
    /// The part kept, in unit coordinates of the rotated, flipped and straightened image.
    public var crop: NormalizedRect?
    /// The light and colour sliders.
    public var light: Light
    /// A look on top of the light.
    public var filter: Filter?
    /// The part of a movie kept.
    public var trim: Trim?

    /// An edit from its steps, unchecked (``validate()`` checks them); the defaults change nothing.
    public init(
        rotation: Int = 0, isFlipped: Bool = false, straighten: Double = 0, crop: NormalizedRect? = nil,
        light: Light = .neutral, filter: Filter? = nil, trim: Trim? = nil
    ) {
        self.rotation = rotation
        self.isFlipped = isFlipped
        self.straighten = straighten
        self.crop = crop
        self.light = light
        self.filter = filter
        self.trim = trim
    }

    enum CodingKeys: String, CodingKey { case rotation, flip, straighten, crop, light, filter, trim }

    /// Reads the JSON format above; a missing key leaves its step out. Values are not checked
    /// (``init(_:)`` checks them).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rotation = try container.decodeIfPresent(Int.self, forKey: .rotation) ?? 0
        isFlipped = try container.decodeIfPresent(Bool.self, forKey: .flip) ?? false
        straighten = try container.decodeIfPresent(Double.self, forKey: .straighten) ?? 0
        crop = try container.decodeIfPresent(NormalizedRect.self, forKey: .crop)
        light = try container.decodeIfPresent(Light.self, forKey: .light) ?? .neutral
        filter = try container.decodeIfPresent(Filter.self, forKey: .filter)
        trim = try container.decodeIfPresent(Trim.self, forKey: .trim)
    }

    /// Writes the JSON format above, leaving out every step that changes nothing.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if rotation != 0 { try container.encode(rotation, forKey: .rotation) }
        if isFlipped { try container.encode(true, forKey: .flip) }
        if straighten != 0 { try container.encode(straighten, forKey: .straighten) }
        try container.encodeIfPresent(crop, forKey: .crop)
        if !light.isNeutral { try container.encode(light, forKey: .light) }
        try container.encodeIfPresent(filter, forKey: .filter)
        try container.encodeIfPresent(trim, forKey: .trim)
    }

    /// Whether it changes nothing.
    public var isIdentity: Bool {
        quarterTurns == 0 && !isFlipped && straighten == 0 && (crop == nil || crop == .unit) && light.isNeutral && filter == nil
            && trim == nil
    }

    /// Whether it uses a key version 1 does not have (flip, straighten, light, filter).
    var needsVersion2: Bool { isFlipped || straighten != 0 || !light.isNeutral || filter != nil }

    /// Whether it changes a photo's pixels beyond turning it (so a movie cannot take it).
    var changesPhotoOnly: Bool { quarterTurns != 0 || !(crop == nil || crop == .unit) || needsVersion2 }

    /// `rotation` as clockwise quarter turns, 0…3.
    var quarterTurns: Int { (((rotation / 90) % 4) + 4) % 4 }

    /// Checks the values: rotation a multiple of 90, straightening within −45…45°, a crop inside
    /// the unit square, every light slider in its range, a trim with `0 ≤ start < end`.
    public func validate() throws(LibraryError) {
        guard rotation % 90 == 0 else {
            throw .invalidArgument("rotation \(rotation)° is not a multiple of 90")
        }
        guard straighten.isFinite, abs(straighten) <= 45 else {
            throw .invalidArgument("straighten \(straighten)° is outside −45…45")
        }
        try light.validate()
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
        // Encoding fails only for a value that is not finite, which ``validate()`` refuses before
        // anything is rendered or stored; such an edit would read back as no edit.
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return AdjustmentData(formatIdentifier: Self.formatIdentifier, formatVersion: needsVersion2 ? Self.formatVersion : "1", data: data)
    }

    /// Reads adjustment data in this format.
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` when it is in another format or version, or
    ///   its JSON is malformed.
    public init(_ adjustmentData: AdjustmentData) throws(LibraryError) {
        guard Self.canHandle(adjustmentData) else {
            throw .invalidArgument("adjustment data is \(adjustmentData.formatIdentifier) \(adjustmentData.formatVersion), not \(Self.formatIdentifier) 1 or 2")
        }
        do {
            self = try JSONDecoder().decode(Adjustments.self, from: adjustmentData.data)
        } catch {
            throw .invalidArgument("malformed \(Self.formatIdentifier) JSON: \(error)")
        }
        if adjustmentData.formatVersion == "1" {
            // Version 1 had no such keys: a reader of 1 ignored them, so this one does too.
            (isFlipped, straighten, light, filter) = (false, 0, .neutral, nil)
        }
        try validate()
    }

    /// Whether `adjustmentData` is in this format (a `canHandleAdjustmentData` answer).
    public static func canHandle(_ adjustmentData: AdjustmentData) -> Bool {
        adjustmentData.formatIdentifier == formatIdentifier && formatVersions.contains(adjustmentData.formatVersion)
    }

    // MARK: Applying

    /// Applies the photo's steps to an upright photo: rotation, flip, straightening, crop, then
    /// light and filter.
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` for a trim or invalid values;
    ///   ``LibraryError/Code/renderFailed`` when the pixels cannot be decoded.
    public func applied(to image: Image) throws(LibraryError) -> Image {
        try validate()
        guard trim == nil else { throw .invalidArgument("a photo cannot be trimmed") }
        let colors = !light.isNeutral || filter != nil
        let edit = ImageEdit(
            quarterTurns: quarterTurns, isFlipped: isFlipped, straightenDegrees: straighten, crop: crop,
            toneCurve: colors ? toneCurve : nil, colorMatrix: colors ? colorMatrix : nil)
        do {
            return try image.applying(edit)
        } catch {
            if error.code == .invalidArgument { throw .invalidArgument(error.detail, underlying: error) }
            throw .renderFailed("cannot apply the adjustments to the image: \(error.message)", underlying: error)
        }
    }
}
