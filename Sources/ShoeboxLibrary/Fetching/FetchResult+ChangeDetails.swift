import Foundation

extension FetchResult {
    /// How a fetch result differs after a change: `PHFetchResultChangeDetails`.
    ///
    /// To update a list in place, apply in this order (as UIKit batch updates do): remove
    /// ``removedIndexes`` (indexes in the old result), insert ``insertedIndexes`` (indexes in the
    /// new result), then apply each of ``moves``, then reload ``changedIndexes`` (new result).
    public struct ChangeDetails: Sendable {
        /// One object that changed position among those present before and after.
        public struct Move: Sendable, Hashable {
            /// Its index in the old result.
            public let from: Int
            /// Its index in the new result.
            public let to: Int

            /// A move from index `from` of the old result to index `to` of the new one.
            public init(from: Int, to: Int) {
                self.from = from
                self.to = to
            }
        }

        /// The result as it was before the change (`PHFetchResultChangeDetails.fetchResultBeforeChanges`).
        public let fetchResultBeforeChanges: FetchResult<Element>
        /// The result refetched after the change, to use from now on
        /// (`PHFetchResultChangeDetails.fetchResultAfterChanges`).
        public let fetchResultAfterChanges: FetchResult<Element>
        /// Indexes in the old result of objects no longer present.
        public let removedIndexes: IndexSet
        /// Indexes in the new result of objects that were not present.
        public let insertedIndexes: IndexSet
        /// Indexes in the new result of objects present before whose properties changed.
        public let changedIndexes: IndexSet
        /// Objects present before and after whose relative order changed.
        public let moves: [Move]

        /// Always `true`: Shoebox can describe every change incrementally.
        public var hasIncrementalChanges: Bool { true }
        /// Whether any object changed position, so ``moves`` is not empty
        /// (`PHFetchResultChangeDetails.hasMoves`).
        public var hasMoves: Bool { !moves.isEmpty }

        var isEmpty: Bool { removedIndexes.isEmpty && insertedIndexes.isEmpty && changedIndexes.isEmpty && moves.isEmpty }

        /// The objects removed, as the old result has them.
        public func removedObjects() async throws(LibraryError) -> [Element] { try await Self.objects(removedIndexes, of: fetchResultBeforeChanges) }
        /// The objects inserted.
        public func insertedObjects() async throws(LibraryError) -> [Element] { try await Self.objects(insertedIndexes, of: fetchResultAfterChanges) }
        /// The objects changed, as they are now.
        public func changedObjects() async throws(LibraryError) -> [Element] { try await Self.objects(changedIndexes, of: fetchResultAfterChanges) }

        private static func objects(_ indexes: IndexSet, of result: FetchResult<Element>) async throws(LibraryError) -> [Element] {
            var objects: [Element] = []
            for index in indexes {
                if let object = try await result.object(at: index) { objects.append(object) }
            }
            return objects
        }

        /// - Parameter wasChanged: Whether the object with this identity changed.
        init(before: FetchResult<Element>, after: FetchResult<Element>, wasChanged: (Int64) -> Bool) {
            fetchResultBeforeChanges = before
            fetchResultAfterChanges = after
            let old = before.identifiers
            let new = after.identifiers
            let oldSet = Set(old)
            let newSet = Set(new)
            removedIndexes = IndexSet(old.indices.filter { !newSet.contains(old[$0]) })
            insertedIndexes = IndexSet(new.indices.filter { !oldSet.contains(new[$0]) })
            var newIndex: [Int64: Int] = [:]
            for (index, id) in new.enumerated() { newIndex[id] = index }
            // Objects in both, in old order, with their new positions: those outside a longest
            // increasing run of new positions are the ones that moved.
            let common = old.enumerated().compactMap { pair in newIndex[pair.element].map { (from: pair.offset, to: $0) } }
            let staying = Self.longestIncreasingRun(common.map(\.to))
            moves = common.enumerated().filter { !staying.contains($0.offset) }.map { Move(from: $0.element.from, to: $0.element.to) }
            var changed = IndexSet()
            for pair in common where wasChanged(new[pair.to]) {
                changed.insert(pair.to)
            }
            changedIndexes = changed
        }

        /// Positions (into `values`) of one longest strictly increasing subsequence.
        static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
            var tails: [Int] = []  // index into values of the smallest tail of each length
            var previous = [Int](repeating: -1, count: values.count)
            for (index, value) in values.enumerated() {
                var low = 0
                var high = tails.count
                while low < high {
                    let middle = (low + high) / 2
                    if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
                }
                if low > 0 { previous[index] = tails[low - 1] }
                if low == tails.count { tails.append(index) } else { tails[low] = index }
            }
            var result = Set<Int>()
            var cursor = tails.last ?? -1
            while cursor >= 0 {
                result.insert(cursor)
                cursor = previous[cursor]
            }
            return result
        }
    }
}
