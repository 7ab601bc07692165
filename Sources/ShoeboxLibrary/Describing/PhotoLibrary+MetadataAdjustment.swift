import Foundation
import ShoeboxImaging

/// Correcting what the camera got wrong: dates, places, titles, captions, keywords and ratings
/// for one asset or many, with a preview of the dates first.
extension PhotoLibrary {
    /// What `change` would make of each asset's date, in the order given, without changing
    /// anything: the preview a person sees before applying it.
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` for a time that does not exist in its
    ///   zone or a result outside the years 1800 to 9999.
    public func previewDates(_ change: MetadataAdjustment.DateChange, of assets: [Asset]) throws(LibraryError) -> [DatePreview] {
        guard let earliest = assets.min(by: { $0.creationDate < $1.creationDate }) else { return [] }
        let previews: [DatePreview]
        switch change {
        case .shift(let seconds):
            previews = assets.map {
                DatePreview(asset: $0, before: $0.captureTime, after: $0.captureTime.moved(to: $0.creationDate.addingTimeInterval(seconds)))
            }
        case .timeZone(let zone):
            previews = try assets.map { asset throws(LibraryError) in
                // The clock's reading stays; it is read in the zone it was really in.
                let before = asset.captureTime
                let shown = TimeZone(secondsFromGMT: before.timeZoneOffset ?? 0) ?? zone
                var clock = ImageMetadata.DateTime(before.date, timeZone: shown)
                clock.utcOffset = nil
                guard let whole = clock.date(assuming: zone) else {
                    throw LibraryError.invalidArgument("\(clock) does not exist in \(zone.identifier)")
                }
                let date = whole.addingTimeInterval(before.date.timeIntervalSince1970 - before.date.timeIntervalSince1970.rounded(.down))
                return DatePreview(asset: asset, before: before, after: Self.captureTime(date, in: zone))
            }
        case .set(let time, let givenZone):
            let zone = givenZone ?? time.utcOffset.flatMap { TimeZone(secondsFromGMT: $0) }
            var clock = time
            clock.utcOffset = nil
            let readIn = zone ?? Self.zone(of: earliest.captureTime)
            guard let target = clock.date(assuming: readIn) else {
                throw LibraryError.invalidArgument("\(clock) does not exist in \(readIn.identifier)")
            }
            let delta = target.timeIntervalSince(earliest.creationDate)
            previews = assets.map { asset in
                let date = asset.creationDate.addingTimeInterval(delta)
                let after = zone.map { Self.captureTime(date, in: $0) } ?? asset.captureTime.moved(to: date)
                return DatePreview(asset: asset, before: asset.captureTime, after: after)
            }
        }
        let earliestAllowed = Date(timeIntervalSince1970: -5_364_662_400)  // 1800-01-01
        let latestAllowed = Date(timeIntervalSince1970: 253_402_300_799)  // 9999-12-31
        if let out = previews.first(where: { !(earliestAllowed...latestAllowed).contains($0.after.date) }) {
            throw LibraryError.invalidArgument("\(out.asset.originalFilename) would be taken on \(out.after.localDateString), outside the years 1800 to 9999")
        }
        return previews
    }

    /// Applies `adjustment` to every asset of `assets` in one change (all of them or none), as
    /// the person's values: a date or place set this way is kept when the file is read again.
    /// Keywords are added to and removed from, and dates moved from, the assets' values in the
    /// catalog now (the snapshots given may be older).
    ///
    /// - Returns: How many assets changed.
    /// - Throws: ``LibraryError/Code/invalidArgument`` for an adjustment that changes nothing or
    ///   holds a value out of range (named in the message), and what
    ///   ``performChanges(_:)`` throws (a client without write access).
    @discardableResult
    public func adjustMetadata(of assets: [Asset], _ adjustment: MetadataAdjustment) async throws(LibraryError) -> Int {
        try adjustment.validated()
        guard !assets.isEmpty else { return 0 }
        // As they are now: keywords are added to, and dates moved from, the catalog's values,
        // not those of the snapshots given.
        var named = Set<String>()
        let identifiers = assets.map(\.localIdentifier).filter { named.insert($0).inserted }
        let found = Dictionary(
            try await fetchAssets(withLocalIdentifiers: identifiers).allObjects().map { ($0.localIdentifier, $0) }
        ) { first, _ in first }
        if let missing = identifiers.first(where: { found[$0] == nil }) { throw LibraryError.notFound(localIdentifier: missing) }
        let assets = identifiers.compactMap { found[$0] }
        var times: [String: CaptureTime] = [:]
        if let change = adjustment.date {
            for preview in try previewDates(change, of: assets) { times[preview.asset.localIdentifier] = preview.after }
        }
        do {
            try await changeMetadata(of: assets, adjustment, times: times)
        } catch let error as LibraryError {
            throw error
        } catch {
            throw LibraryError.invalidArgument("the change was refused: \(error)", underlying: error)
        }
        return assets.count
    }

    private func changeMetadata(of assets: [Asset], _ adjustment: MetadataAdjustment, times: [String: CaptureTime]) async throws {
        _ = try await performChanges {
            for asset in assets {
                let request = AssetChangeRequest(for: asset)
                if let time = times[asset.localIdentifier] { request.captureTime = time }
                if let location = adjustment.location { request.location = location }
                if let title = adjustment.title { request.title = title }
                if let caption = adjustment.caption { request.caption = caption }
                if let label = adjustment.label { request.label = label }
                if let rating = adjustment.rating { request.rating = rating }
                if let keywords = adjustment.keywords(of: asset) { request.keywords = keywords }
                if !adjustment.revertsToFileValues.isEmpty { request.revertToFileValues(adjustment.revertsToFileValues) }
            }
        }
    }

    /// The zone a capture time was read in: its named zone, else its offset, else UTC.
    static func zone(of time: CaptureTime) -> TimeZone {
        time.timeZoneIdentifier.flatMap(TimeZone.init(identifier:)) ?? time.timeZoneOffset.flatMap(TimeZone.init(secondsFromGMT:))
            ?? TimeZone(secondsFromGMT: 0)!
    }

    /// `date` taken in `zone`: its offset there then, and its name when it is a named zone
    /// (`Europe/Rome`, whose offset follows summer time) rather than a bare offset.
    static func captureTime(_ date: Date, in zone: TimeZone) -> CaptureTime {
        let named = zone.identifier.contains("/")
        return CaptureTime(date: date, timeZoneOffset: zone.secondsFromGMT(for: date), timeZoneIdentifier: named ? zone.identifier : nil)
    }
}
