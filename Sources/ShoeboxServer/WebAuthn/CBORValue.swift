import Foundation

/// A CBOR data item (RFC 8949), as much of it as WebAuthn's attestation objects and COSE keys use:
/// integers, byte and text strings, arrays, maps, and the simple values. Read from untrusted bytes
/// (a browser's registration), so every length is checked against what is left and nesting is
/// bounded; indefinite lengths, tags and floats are refused (WebAuthn's CTAP2 canonical CBOR has
/// none).
package indirect enum CBORValue: Hashable, Sendable {
    case unsigned(UInt64)
    /// A negative integer: -1 - the value.
    case negative(UInt64)
    case bytes(Data)
    case text(String)
    case array([CBORValue])
    case map([CBORValue: CBORValue])
    case bool(Bool)
    case null

    /// Why bytes are not CBOR this reader takes.
    package struct Malformed: Error, CustomStringConvertible {
        package let description: String
    }

    /// The deepest nesting read.
    package static let maximumDepth = 16

    /// Reads one item from the start of `data`; returns it and how many bytes it took.
    package static func decode(_ data: Data) throws(Malformed) -> (value: CBORValue, length: Int) {
        var reader = Reader(bytes: [UInt8](data))
        let value = try reader.item(depth: 0)
        return (value, reader.offset)
    }

    /// The integer value, if it is one that fits.
    var int: Int? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int.max) ? Int(value) : nil
        case .negative(let value): value < UInt64(Int.max) ? -1 - Int(value) : nil
        default: nil
        }
    }

    /// The value under integer key `key` of a map.
    subscript(key: Int) -> CBORValue? {
        guard case .map(let map) = self else { return nil }
        return map[key >= 0 ? .unsigned(UInt64(key)) : .negative(UInt64(-1 - key))]
    }

    /// The value under text key `key` of a map.
    subscript(key: String) -> CBORValue? {
        guard case .map(let map) = self else { return nil }
        return map[.text(key)]
    }

    var data: Data? {
        if case .bytes(let data) = self { return data }
        return nil
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func byte() throws(Malformed) -> UInt8 {
            guard offset < bytes.count else { throw Malformed(description: "CBOR ends in the middle of an item") }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func take(_ count: UInt64) throws(Malformed) -> ArraySlice<UInt8> {
            guard count <= UInt64(bytes.count - offset) else { throw Malformed(description: "a CBOR string claims \(count) bytes, more than are left") }
            defer { offset += Int(count) }
            return bytes[offset..<offset + Int(count)]
        }

        /// The argument of a head whose low five bits are `info`.
        mutating func argument(_ info: UInt8) throws(Malformed) -> UInt64 {
            switch info {
            case 0..<24: return UInt64(info)
            case 24...27:
                var value: UInt64 = 0
                for _ in 0..<(1 << (info - 24)) { value = value << 8 | UInt64(try byte()) }
                return value
            default: throw Malformed(description: "indefinite or reserved CBOR lengths are not taken")
            }
        }

        mutating func item(depth: Int) throws(Malformed) -> CBORValue {
            guard depth <= CBORValue.maximumDepth else { throw Malformed(description: "CBOR nested deeper than \(CBORValue.maximumDepth)") }
            let head = try byte()
            let major = head >> 5
            let info = head & 0x1F
            switch major {
            case 0: return .unsigned(try argument(info))
            case 1: return .negative(try argument(info))
            case 2: return .bytes(Data(try take(try argument(info))))
            case 3:
                guard let text = String(validating: try take(try argument(info)), as: UTF8.self) else {
                    throw Malformed(description: "a CBOR text string is not UTF-8")
                }
                return .text(text)
            case 4:
                let count = try argument(info)
                // Each item takes a byte at least: a count past the bytes left is a lie.
                guard count <= UInt64(bytes.count - offset) else { throw Malformed(description: "a CBOR array claims \(count) items") }
                var items: [CBORValue] = []
                for _ in 0..<count { items.append(try item(depth: depth + 1)) }
                return .array(items)
            case 5:
                let count = try argument(info)
                guard count <= UInt64(bytes.count - offset) / 2 else { throw Malformed(description: "a CBOR map claims \(count) entries") }
                var map: [CBORValue: CBORValue] = [:]
                for _ in 0..<count {
                    let key = try item(depth: depth + 1)
                    guard map[key] == nil else { throw Malformed(description: "a CBOR map repeats a key") }
                    map[key] = try item(depth: depth + 1)
                }
                return .map(map)
            case 7:
                switch info {
                case 20: return .bool(false)
                case 21: return .bool(true)
                case 22: return .null
                default: throw Malformed(description: "CBOR floats and other simple values are not taken")
                }
            default:
                throw Malformed(description: "CBOR tags are not taken")
            }
        }
    }
}
