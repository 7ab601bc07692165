import Foundation
import ShoeboxLibrary
import ShoeboxSupport

/// JSON written straight into bytes, byte for byte what ``JSONResponse/encoder`` writes
/// (sorted keys in the order the caller writes them, unescaped slashes, ISO 8601 dates in whole
/// seconds, numbers as `JSONEncoder` prints them): for the listings, where `JSONEncoder`'s
/// boxes, dictionaries and date formatters cost more than the query (issue 43).
///
/// The caller writes an object's keys in sorted order; ``JSONBytesTests`` holds each writer to
/// `JSONEncoder`'s output.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []
    /// Whether the next key or element needs a comma before it.
    private var needsComma = false

    init(capacity: Int = 1_024) {
        bytes.reserveCapacity(capacity)
    }

    mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// An object's key: the value written next is its value.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma = false
    }

    mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: [92, 34])
                case UInt8(ascii: "\\"): bytes.append(contentsOf: [92, 92])
                case 0x08: bytes.append(contentsOf: [92, UInt8(ascii: "b")])
                case 0x09: bytes.append(contentsOf: [92, UInt8(ascii: "t")])
                case 0x0A: bytes.append(contentsOf: [92, UInt8(ascii: "n")])
                case 0x0C: bytes.append(contentsOf: [92, UInt8(ascii: "f")])
                case 0x0D: bytes.append(contentsOf: [92, UInt8(ascii: "r")])
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    mutating func int(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)  // at most 20 bytes: a small string, no allocation
        needsComma = true
    }

    /// A number as `JSONEncoder` prints a `Double`: whole numbers below 2⁵³ without a fraction
    /// (`12`, `-0`), the others as Swift's shortest text without a trailing `.0`.
    mutating func double(_ value: Double) {
        if value.isFinite, value == value.rounded(.towardZero), value.magnitude < 9_007_199_254_740_992 {
            if value == 0 {
                separate()
                if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
                bytes.append(UInt8(ascii: "0"))
                needsComma = true
            } else {
                int(Int(value))
            }
            return
        }
        separate()
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8))
        needsComma = true
    }

    /// A date as `JSONEncoder`'s `.iso8601` writes it: `"2021-04-11T15:47:53Z"`.
    mutating func date(_ value: Date) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        if ISO8601Text.append(value, to: &bytes) {
            bytes.append(UInt8(ascii: "Z"))
        } else if let encoded = try? JSONResponse.encoder.encode([value]) {
            // Far from now (Foundation's calendar before 1583): its own text, without `["` and `"]`.
            bytes.append(contentsOf: encoded.dropFirst(2).dropLast(2))
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}

/// A key and its value, left out when the value is `nil` (as `encodeIfPresent` does).
extension JSONBytes {
    mutating func field(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    mutating func field(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        key(name)
        int(value)
    }

    mutating func field(_ name: StaticString, _ value: Double?) {
        guard let value else { return }
        key(name)
        double(value)
    }

    mutating func field(_ name: StaticString, _ value: Bool?) {
        guard let value else { return }
        key(name)
        bool(value)
    }

    mutating func field(_ name: StaticString, _ value: Date?) {
        guard let value else { return }
        key(name)
        date(value)
    }
}
