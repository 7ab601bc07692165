/// A keyword of the library's assets with how many have it: a row of the Keywords view
/// (``PhotoLibrary/fetchKeywords(with:)``).
public struct KeywordCount: Sendable, Hashable {
    /// The keyword as its assets spell it (the first spelling found, when they differ in case);
    /// a hierarchical one as a path (`Places/Italy/Rome`).
    public let keyword: String
    /// How many of the fetched assets have it.
    public let count: Int
}
