import Foundation

extension PhotoLibrary {
    /// Every keyword of the assets `options` fetch, with how many have each, in alphabetical
    /// order (case aside): the Keywords view. Fetch one keyword's assets with
    /// ``FetchOptions/Predicate/keyword(_:)``.
    ///
    /// - Throws: ``LibraryError/Code/authorization`` when the library's client may not read; a
    ///   limited client sees the keywords of what it may see.
    public func fetchKeywords(with options: FetchOptions = FetchOptions()) async throws(LibraryError) -> [KeywordCount] {
        let lists = try await catalog.keywordLists(matching: try await scoped(options))
        var counts: [String: (spelling: String, count: Int)] = [:]
        for list in lists {
            for keyword in list.keywords.split(separator: "\n") {
                let key = keyword.lowercased()
                counts[key, default: (String(keyword), 0)].count += list.count
            }
        }
        return counts.values.map { KeywordCount(keyword: $0.spelling, count: $0.count) }
            .sorted { $0.keyword.localizedStandardCompare($1.keyword) == .orderedAscending }
    }
}
