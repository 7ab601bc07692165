import Foundation
import Synchronization

/// An ordered, immutable list of fetched objects: `PHFetchResult` without the prefix.
///
/// The identities and order are fixed when the fetch runs (a snapshot: later changes to the
/// library do not move or add objects). The objects themselves load lazily, a page at a time, so
/// a result of a million assets keeps a million row ids in memory, not a million assets.
///
/// ```swift
/// let all = try library.fetchAssets(with: FetchOptions())
/// print(all.count, all.firstObject?.originalFilename ?? "empty")
/// for index in 0..<min(all.count, 200) { _ = all[index] }   // loads one page
/// ```
public final class FetchResult<Element: Sendable>: Sendable {
    /// Objects load in pages of this many.
    public static var pageSize: Int { 200 }

    private let rowIDs: [Int64]
    private let loader: @Sendable ([Int64]) throws -> [Int64: Element]
    private let pages = Mutex<[Int: [Element?]]>([:])
    private let identity: @Sendable (Element) -> Int64
    /// Runs the same fetch again (for change details).
    let refetch: (@Sendable () throws(LibraryError) -> FetchResult<Element>)?

    init(rowIDs: [Int64], identity: @escaping @Sendable (Element) -> Int64,
         refetch: (@Sendable () throws(LibraryError) -> FetchResult<Element>)? = nil,
         loader: @escaping @Sendable ([Int64]) throws -> [Int64: Element]) {
        self.rowIDs = rowIDs
        self.identity = identity
        self.refetch = refetch
        self.loader = loader
    }

    /// The identities, in order.
    var identifiers: [Int64] { rowIDs }

    /// How many objects the fetch found.
    public var count: Int { rowIDs.count }

    /// Whether the fetch found nothing.
    public var isEmpty: Bool { rowIDs.isEmpty }

    /// The object at `index`, loading its page if needed.
    ///
    /// An asset purged from the library after the fetch reads as its last state (the catalog
    /// keeps purged assets' rows for a day). Only an object gone longer than that, in a page this
    /// result never loaded, is missing: `object(at:)` answers `nil` for it, and this subscript
    /// stops the program (as indexing past the end does).
    public subscript(index: Int) -> Element {
        guard let object = object(at: index) else {
            preconditionFailure("the object at \(index) was removed from the library more than a day after this fetch was made")
        }
        return object
    }

    /// The object at `index`, or `nil` if it was purged more than a day before it was loaded.
    public func object(at index: Int) -> Element? {
        precondition(index >= 0 && index < rowIDs.count, "index \(index) out of 0..<\(rowIDs.count)")
        let page = index / Self.pageSize
        if let loaded = pages.withLock({ $0[page] }) {
            return loaded[index % Self.pageSize]
        }
        let start = page * Self.pageSize
        let ids = Array(rowIDs[start..<Swift.min(start + Self.pageSize, rowIDs.count)])
        let found = (try? loader(ids)) ?? [:]
        let objects = ids.map { found[$0] }
        pages.withLock { cache in
            cache[page] = objects
            if cache.count > 64 {  // keep memory bounded on long scrolls
                for key in cache.keys where abs(key - page) > 32 { cache[key] = nil }
            }
        }
        return objects[index % Self.pageSize]
    }

    public var firstObject: Element? { rowIDs.isEmpty ? nil : object(at: 0) }
    public var lastObject: Element? { rowIDs.isEmpty ? nil : object(at: rowIDs.count - 1) }

    /// Whether `object` is in this result.
    public func contains(_ object: Element) -> Bool {
        rowIDs.contains(identity(object))
    }

    /// The index of `object`, or `nil`.
    public func index(of object: Element) -> Int? {
        rowIDs.firstIndex(of: identity(object))
    }

    /// The objects at `range`.
    public func objects(in range: Range<Int>) -> [Element] {
        range.compactMap { object(at: $0) }
    }
}

extension FetchResult: RandomAccessCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { rowIDs.count }
}
