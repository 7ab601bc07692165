import Foundation
import ShoeboxImaging

/// What a person corrects of what the camera got wrong, for one asset or a selection: when and
/// where it was taken, its title, caption, keywords, rating and label
/// (``PhotoLibrary/adjustMetadata(of:_:)``). Each `nil` leaves its field as it is.
///
/// ```swift
/// // The camera's clock was still on home time: the photos were taken in Tokyo.
/// var fix = MetadataAdjustment()
/// fix.date = .timeZone(TimeZone(identifier: "Asia/Tokyo")!)
/// fix.keywords = .add(["Japan"])
/// let preview = try library.previewDates(fix.date!, of: selection)
/// print(preview.map(\.after.localDateString))
/// try await library.adjustMetadata(of: selection, fix)
/// ```
///
/// The date and place a person sets win over the file's and are kept when the file is read
/// again (``Asset/userSetFields``); ``revertsToFileValues`` gives the file's back. Shoebox's
/// addition: PhotoKit sets a date or a location one asset at a time.
public struct MetadataAdjustment: Sendable, Hashable {
    /// How the date and time change.
    public enum DateChange: Sendable, Hashable {
        /// The earliest of the assets is set to `time`, a wall-clock time read in `timeZone`
        /// (or in `time`'s own offset, or else in the earliest asset's zone); the others move by
        /// as much, so a selection keeps its order and spacing, as Photos does. With a zone
        /// given, every asset takes it.
        case set(ImageMetadata.DateTime, timeZone: TimeZone?)
        /// Every asset moves by this many seconds (negative: earlier), each keeping its zone.
        case shift(seconds: TimeInterval)
        /// The camera's clock was set to this zone: the time it shows stays, and the instant is
        /// what that time was there (photos from a trip whose camera kept home time).
        case timeZone(TimeZone)
    }

    /// How the keywords change.
    public enum KeywordChange: Sendable, Hashable {
        /// These, in this order, in place of the asset's.
        case replace([String])
        /// These, after the asset's own (those it has already are not added twice).
        case add([String])
        /// These go (compared case aside); a keyword the asset lacks is no error.
        case remove([String])
    }

    /// When it was taken.
    public var date: DateChange?
    /// Where it was taken: `.some(nil)` removes the location.
    public var location: Asset.Location??
    /// Its title; `""` removes it.
    public var title: String?
    /// Its caption; `""` removes it.
    public var caption: String?
    /// Its keywords.
    public var keywords: KeywordChange?
    /// Its rating, 1 to 5 stars; 0 removes it.
    public var rating: Int?
    /// Its colour label; `""` removes it.
    public var label: String?
    /// Gives back the file's values of these fields, in place of what the person set (not
    /// with a ``date`` or ``location`` of the same field).
    public var revertsToFileValues: Asset.MetadataFields

    /// An adjustment of the fields given.
    public init(
        date: DateChange? = nil, location: Asset.Location?? = nil, title: String? = nil, caption: String? = nil,
        keywords: KeywordChange? = nil, rating: Int? = nil, label: String? = nil, revertsToFileValues: Asset.MetadataFields = []
    ) {
        (self.date, self.location, self.title, self.caption) = (date, location, title, caption)
        (self.keywords, self.rating, self.label, self.revertsToFileValues) = (keywords, rating, label, revertsToFileValues)
    }

    /// Whether it changes nothing.
    public var isEmpty: Bool {
        date == nil && location == nil && title == nil && caption == nil && keywords == nil && rating == nil && label == nil
            && revertsToFileValues.isEmpty
    }

    /// The adjustment's values checked: a rating of 0 to 5, a location on the globe, no field
    /// both set and reverted, keywords that are words.
    func validated() throws(LibraryError) {
        guard !isEmpty else {
            throw LibraryError.invalidArgument("the adjustment changes nothing: give a date, place, title, caption, keywords, rating, label or revert")
        }
        if let rating, !(0...5).contains(rating) { throw LibraryError.invalidArgument("a rating is 0 to 5 stars, not \(rating)") }
        if let location = location ?? nil {
            guard location.latitude.isFinite, location.longitude.isFinite, (-90...90).contains(location.latitude),
                (-180...180).contains(location.longitude)
            else {
                throw LibraryError.invalidArgument("\(location.latitude), \(location.longitude) is no place on Earth (latitude −90…90, longitude −180…180)")
            }
        }
        if date != nil, revertsToFileValues.contains(.creationDate) {
            throw LibraryError.invalidArgument("set the date or revert it to the file's, not both")
        }
        if location != nil, revertsToFileValues.contains(.location) {
            throw LibraryError.invalidArgument("set the place or revert it to the file's, not both")
        }
        if case .shift(let seconds)? = date, !seconds.isFinite || abs(seconds) > 500 * 365.25 * 86_400 {
            throw LibraryError.invalidArgument("a shift of \(seconds) seconds is more than 500 years")
        }
        switch keywords {
        case .replace(let list)?, .add(let list)?, .remove(let list)?:
            if let long = list.first(where: { $0.count > 200 }) {
                throw LibraryError.invalidArgument("the keyword “\(long.prefix(40))…” is longer than 200 characters")
            }
        case nil:
            break
        }
    }

    /// A wall-clock time as people type it: `2019-06-12T14:30` (or with a space for the `T`),
    /// with seconds or not, with an offset (`Z`, `+02:00`) or not; `nil` for anything else.
    package static func wallClock(_ text: String) -> ImageMetadata.DateTime? {
        var clock = text.trimmingCharacters(in: .whitespaces)
        if clock.count == 16 || (clock.count > 16 && !clock.dropFirst(16).hasPrefix(":")) {
            clock.insert(contentsOf: ":00", at: clock.index(clock.startIndex, offsetBy: 16))
        }
        let offset = clock.count > 19 ? String(clock.dropFirst(19)) : nil
        guard clock.count >= 19, clock.dropFirst(10).first == "T" || clock.dropFirst(10).first == " ",
            let time = ImageMetadata.DateTime(exif: String(clock.prefix(19)), offset: offset), offset == nil || time.utcOffset != nil
        else { return nil }
        // A day the month has (no 30 February), and no leap second.
        let leap = time.year % 4 == 0 && (time.year % 100 != 0 || time.year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][time.month - 1]
        guard time.day <= days, time.second < 60 else { return nil }
        return time
    }

    /// A zone as people name it: `Europe/Rome`, `UTC`, or an offset (`+09:00`, `-05:30`);
    /// `nil` for an unknown name.
    package static func timeZone(_ text: String) -> TimeZone? {
        if let offset = ImageMetadata.DateTime.parseOffset(text) { return TimeZone(secondsFromGMT: offset) }
        if text == "UTC" || text == "GMT" { return TimeZone(secondsFromGMT: 0) }
        guard text.contains("/") else { return nil }
        return TimeZone(identifier: text)
    }

    /// `asset`'s keywords after ``keywords``.
    func keywords(of asset: Asset) -> [String]? {
        switch keywords {
        case nil: return nil
        case .replace(let list)?: return list
        case .add(let list)?:
            let have = Set(asset.keywords.map { $0.lowercased() })
            return asset.keywords + list.filter { !have.contains($0.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()) }
        case .remove(let list)?:
            let gone = Set(list.map { $0.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() })
            return asset.keywords.filter { !gone.contains($0.lowercased()) }
        }
    }
}
