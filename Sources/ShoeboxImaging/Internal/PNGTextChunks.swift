import Foundation

/// Where a PNG's text chunks (`tEXt`, `zTXt`, `iTXt`) are, in file order, without their text:
/// libvips hands each over decompressed as `png-comment-N-KEYWORD`, numbered in that order, but
/// does not say which were translations.
package enum PNGTextChunks {
    /// The number, among the text chunks, of the first one with `keyword` that is not a
    /// translation: exiftool names an `iTXt` with a language tag `KEYWORD-LANG` (`Software-fi`),
    /// not `KEYWORD`.
    package static func firstUntranslated(_ keyword: String, in data: Data) -> Int? {
        guard data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
        let name = Array(keyword.utf8)
        var index = data.startIndex + 8
        var number = 0
        // Only chunk headers are read (the file is mapped), as far as the first 100,000 chunks.
        for _ in 0..<100_000 {
            guard index + 8 <= data.endIndex else { return nil }
            let length = data[index..<(index + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: data[(index + 4)..<(index + 8)], as: UTF8.self)
            let start = index + 8
            let end = start + length
            guard end <= data.endIndex, type != "IEND" else { return nil }
            if ["tEXt", "zTXt", "iTXt"].contains(type) {
                let body = data[start..<end]
                if body.starts(with: name + [0]) {
                    guard type == "iTXt" else { return number }
                    // keyword, 0, compression flag, method, language tag, 0, …
                    if body.dropFirst(name.count + 3).first == 0 { return number }
                }
                number += 1
            }
            index = end + 4  // and the CRC
        }
        return nil
    }
}
