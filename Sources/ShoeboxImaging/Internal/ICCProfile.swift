import Foundation

/// Reads the description (`desc` tag) of an ICC colour profile, v2 (`desc`) or v4 (`mluc`).
enum ICCProfile {
    static func description(of data: Data) -> String? {
        let bytes = [UInt8](data.prefix(4 * 1024 * 1024))
        guard bytes.count >= 132 else { return nil }
        func u32(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 4 <= bytes.count else { return nil }
            return Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        }
        guard let count = u32(128), count < 1_000 else { return nil }
        for index in 0..<count {
            let entry = 132 + index * 12
            guard let signature = u32(entry), let offset = u32(entry + 4), let size = u32(entry + 8) else { return nil }
            guard signature == 0x6465_7363, size >= 12, offset + size <= bytes.count else { continue }  // the 'desc' tag
            let type = u32(offset)
            // A 'desc' tag's text, or the first record of an 'mluc' (multi-localized) one.
            if type == 0x6465_7363, let length = u32(offset + 8), length > 0, offset + 12 + length <= bytes.count {
                let text = bytes[(offset + 12)..<(offset + 12 + length)].prefix { $0 != 0 }
                return clean(String(decoding: text, as: UTF8.self))
            }
            if type == 0x6D6C_7563, let records = u32(offset + 8), records > 0, let recordSize = u32(offset + 12) {
                var chosen: (length: Int, start: Int)?
                for record in 0..<min(records, 64) {
                    let position = offset + 16 + record * recordSize
                    guard let length = u32(position + 4), let start = u32(position + 8) else { break }
                    let isEnglish = position + 2 <= bytes.count && bytes[position] == 0x65 && bytes[position + 1] == 0x6E
                    if chosen == nil || isEnglish { chosen = (length, start) }
                    if isEnglish { break }
                }
                guard let chosen, chosen.length >= 2, offset + chosen.start + chosen.length <= bytes.count else { return nil }
                var units: [UInt16] = []
                var cursor = offset + chosen.start
                while cursor + 1 < offset + chosen.start + chosen.length {
                    units.append(UInt16(bytes[cursor]) << 8 | UInt16(bytes[cursor + 1]))
                    cursor += 2
                }
                return clean(String(decoding: units, as: UTF16.self))
            }
        }
        return nil
    }

    private static func clean(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
        return trimmed.isEmpty ? nil : trimmed
    }
}
