import Foundation

/// Sizes as people write them on a command line: `500M`, `20G`, `1.5T`, `123456` (bytes), or
/// `none`. Units are powers of 1,024 (`K`, `M`, `G`, `T`, with or without `B`/`iB`).
enum ByteCount {
    /// The bytes `text` names; `.some(nil)` for `none`; `nil` when it names no size.
    static func parse(_ text: String) -> Int64?? {
        let lowered = text.trimmingCharacters(in: .whitespaces).lowercased()
        if lowered == "none" || lowered == "unlimited" { return .some(nil) }
        let kilo = 1_024.0
        let units: [(String, Double)] = [
            ("tib", kilo * kilo * kilo * kilo), ("gib", kilo * kilo * kilo), ("mib", kilo * kilo), ("kib", kilo),
            ("tb", kilo * kilo * kilo * kilo), ("gb", kilo * kilo * kilo), ("mb", kilo * kilo), ("kb", kilo),
            ("t", kilo * kilo * kilo * kilo), ("g", kilo * kilo * kilo), ("m", kilo * kilo), ("k", kilo), ("b", 1),
        ]
        var number = lowered
        var multiplier: Double = 1
        if let unit = units.first(where: { lowered.hasSuffix($0.0) }) {
            number = String(lowered.dropLast(unit.0.count)).trimmingCharacters(in: .whitespaces)
            multiplier = unit.1
        }
        guard let value = Double(number), value.isFinite, value > 0, value * multiplier < Double(Int64.max) else { return nil }
        return .some(Int64(value * multiplier))
    }

    /// `bytes` for people: `1.5 GB`.
    static func describe(_ bytes: Int64) -> String {
        ByteCountFormatter.string(fromByteCount: bytes, countStyle: .binary)
    }
}
