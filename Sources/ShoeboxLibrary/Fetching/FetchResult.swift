import Foundation
import Synchronization

/// An ordered, immutable list of fetched objects: `PHFetchResult` without the prefix.
///
/// The identities and order are fixed when the fetch runs (a snapshot: later changes to the
/// library do not move or add objects). The objects themselves load lazily, a page at a time,
/// from the catalog — so reading them is `async` — and a result of a million assets keeps a
/// million row ids in memory, not a million assets.
///
/// ```swift
/// let all = try await library.fetchAssets(with: FetchOptions())
/// print(all.count, try await all.firstObject?.originalFilename ?? "empty")
/// for try await asset in all.prefix(200) { print(asset.localIdentifier) }   // loads one page
/// let screen = try await all.objects(in: 0..<min(all.count, 60))
/// ```
public final class FetchResult<Element: Sendable>: Sendable {
    /// Objects load in pages of this many.
    public static var pageSize: Int { 200 }

    private let rowIDs: [Int64]
    private let loader: @Sendable ([Int64]) async throws(LibraryError) -> [Int64: Element]
    private let pages = Mutex<[Int: [Element?]]>([:])
    private let identity: @Sendable (Element) -> Int64
    /// Runs the same fetch again (for change details).
    let refetch: (@Sendable () async throws(LibraryError) -> FetchResult<Element>)?
    /// Checked whenever objects are read (a client's result): throws when the client may no
    /// longer read, or returns which objects it may still see (`nil`: all).
    private let access: (@Sendable () async throws(LibraryError) -> (@Sendable (Element) -> Bool)?)?

    init(
        rowIDs: [Int64], identity: @escaping @Sendable (Element) -> Int64,
        refetch: (@Sendable () async throws(LibraryError) -> FetchResult<Element>)? = nil,
        access: (@Sendable () async throws(LibraryError) -> (@Sendable (Element) -> Bool)?)? = nil,
        loader: @escaping @Sendable ([Int64]) async throws(LibraryError) -> [Int64: Element]
    ) {
        self.rowIDs = rowIDs
        self.identity = identity
        self.refetch = refetch
        self.access = access
        self.loader = loader
    }

    /// A result over objects already in memory (albums, smart albums).
    convenience init(objects: [Element], identity: @escaping @Sendable (Element) -> Int64) {
        let byID = Dictionary(objects.map { (identity($0), $0) }, uniquingKeysWith: { first, _ in first })
        self.init(rowIDs: objects.map(identity), identity: identity) { ids in
            var found: [Int64: Element] = [:]
            for id in ids { found[id] = byID[id] }
            return found
        }
    }

    /// The identities, in order.
    var identifiers: [Int64] { rowIDs }

    /// How many objects the fetch found.
    public var count: Int { rowIDs.count }

    /// Whether the fetch found nothing.
    public var isEmpty: Bool { rowIDs.isEmpty }

    /// The object at `index`, loading its page if needed; `nil` if it was purged from the
    /// library more than a day before its page loaded (the catalog keeps purged assets' last
    /// state for a day, so an older result still reads them), or, in a client's result, if the
    /// client may no longer see it.
    ///
    /// - Throws: ``LibraryError/Code/storage`` when the catalog cannot be read;
    ///   ``LibraryError/Code/authorization`` when a client's access was taken away after the fetch.
    public func object(at index: Int) async throws(LibraryError) -> Element? {
        precondition(index >= 0 && index < rowIDs.count, "index \(index) out of 0..<\(rowIDs.count)")
        return try await page(index / Self.pageSize)[index % Self.pageSize]
    }

    /// The first object, if any.
    public var firstObject: Element? {
        get async throws(LibraryError) { rowIDs.isEmpty ? nil : try await object(at: 0) }
    }

    /// The last object, if any.
    public var lastObject: Element? {
        get async throws(LibraryError) { rowIDs.isEmpty ? nil : try await object(at: rowIDs.count - 1) }
    }

    /// Whether `object` is in this result.
    public func contains(_ object: Element) -> Bool {
        rowIDs.contains(identity(object))
    }

    /// The index of `object`, or `nil`.
    public func index(of object: Element) -> Int? {
        rowIDs.firstIndex(of: identity(object))
    }

    /// The objects at `range`, in order (those purged too long ago left out).
    public func objects(in range: Range<Int>) async throws(LibraryError) -> [Element] {
        let range = range.clamped(to: 0..<rowIDs.count)
        guard !range.isEmpty else { return [] }
        var objects: [Element] = []
        objects.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let page = try await page(index / Self.pageSize)
            let end = Swift.min(range.upperBound, (index / Self.pageSize + 1) * Self.pageSize)
            for position in index..<end {
                if let object = page[position % Self.pageSize] { objects.append(object) }
            }
            index = end
        }
        return objects
    }

    /// Every object, in order: fine for small results; page through large ones.
    public func allObjects() async throws(LibraryError) -> [Element] {
        try await objects(in: 0..<rowIDs.count)
    }

    /// A page of objects, as the reader may see them now (a client whose access was narrowed
    /// or taken away after the fetch ran is held to what it has now).
    private func page(_ number: Int) async throws(LibraryError) -> [Element?] {
        let objects = try await loadedPage(number)
        guard let access, let visible = try await access() else { return objects }
        return objects.map { object in object.flatMap { visible($0) ? $0 : nil } }
    }

    /// One page of objects, from the cache or the catalog.
    private func loadedPage(_ number: Int) async throws(LibraryError) -> [Element?] {
        if let loaded = pages.withLock({ $0[number] }) { return loaded }
        let start = number * Self.pageSize
        let ids = Array(rowIDs[start..<Swift.min(start + Self.pageSize, rowIDs.count)])
        let found = try await loader(ids)
        let objects = ids.map { found[$0] }
        pages.withLock { cache in
            cache[number] = objects
            if cache.count > 64 {  // keep memory bounded on long scrolls
                for key in cache.keys where abs(key - number) > 32 { cache[key] = nil }
            }
        }
        return objects
    }
}

extension FetchResult: AsyncSequence {
    /// Iterating throws only ``LibraryError``, as ``FetchResult/object(at:)`` does.
    public typealias Failure = LibraryError

    /// Reads the objects in order, a page at a time.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let result: FetchResult<Element>
        var index = 0
        var buffered: [Element] = []

        /// The next object, loading its page when needed; `nil` after the last. Objects that
        /// ``FetchResult/objects(in:)`` leaves out are skipped, so iteration may yield fewer
        /// than ``FetchResult/count``.
        public mutating func next() async throws(LibraryError) -> Element? {
            while buffered.isEmpty, index < result.count {
                let end = Swift.min(result.count, (index / FetchResult.pageSize + 1) * FetchResult.pageSize)
                buffered = try await result.objects(in: index..<end).reversed()
                index = end
            }
            return buffered.popLast()
        }
    }

    /// An iterator from the first object, with pages loaded through this result's cache.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(result: self)
    }
}
