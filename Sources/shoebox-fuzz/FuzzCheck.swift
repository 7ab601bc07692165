import Foundation

/// The invariants fuzz targets check: a broken one stops the process, and libFuzzer keeps the
/// input that broke it.
enum FuzzCheck {
    /// Traps with `message` when `condition` is false (in every build configuration).
    static func require(
        _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        if !condition() {
            fatalError("fuzz invariant broken: \(message())", file: file, line: line)
        }
    }

    /// The same bytes at a non-zero `startIndex` (as a slice of a larger `Data`): parsers must
    /// index from `startIndex`, and slices are what they get from other parsers.
    static func shifted(_ data: Data) -> Data {
        var padded = Data([0xA5])
        padded.append(data)
        return padded.dropFirst()
    }

    /// Text a parser hands out must be printable: no control characters.
    static func isPrintable(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
