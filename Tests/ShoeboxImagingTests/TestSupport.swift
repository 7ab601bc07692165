import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

/// The shared corpus, or `nil` (tests that need it are then disabled with a message).
let corpus = Corpus.locate()
let corpusMissing = "the shared corpus (../shared/corpus or $SHOEBOX_CORPUS) is absent"

/// A generated photo of `size`, encoded as JPEG and opened from the bytes.
func generatedJPEG(_ width: Int, _ height: Int, seed: UInt64 = 1) throws -> Image {
    let data = try SyntheticPhoto(width: width, height: height, seed: seed).image().encoded(as: .jpeg)
    return try Image(data: data)
}

/// Mean absolute difference per channel between two bitmaps of the same shape (0…255).
func meanDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
    precondition(a.bytes.count == b.bytes.count)
    var total = 0
    for index in a.bytes.indices {
        total += abs(Int(a.bytes[index]) - Int(b.bytes[index]))
    }
    return Double(total) / Double(a.bytes.count)
}

/// A bitmap with four flat quadrants: red, green / blue, white.
func quadrants(width: Int, height: Int) throws -> Bitmap {
    var bytes = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
        for x in 0..<width {
            let colour: (UInt8, UInt8, UInt8) =
                switch (x < width / 2, y < height / 2) {
                case (true, true): (255, 0, 0)
                case (false, true): (0, 255, 0)
                case (true, false): (0, 0, 255)
                case (false, false): (255, 255, 255)
                }
            let index = (y * width + x) * 3
            bytes[index] = colour.0
            bytes[index + 1] = colour.1
            bytes[index + 2] = colour.2
        }
    }
    return try Bitmap(width: width, height: height, channels: 3, bytes: bytes)
}

/// The average colour of a bitmap.
func averageColour(_ bitmap: Bitmap) -> [Double] {
    var sums = [Double](repeating: 0, count: bitmap.channels)
    for index in bitmap.bytes.indices {
        sums[index % bitmap.channels] += Double(bitmap.bytes[index])
    }
    return sums.map { $0 / Double(bitmap.width * bitmap.height) }
}

/// A generated 64×48 JPEG in `folder` (made if missing) with the tags exiftool writes
/// (`["Make=First", …]`).
func exiftoolTaggedJPEG(_ tags: [String], seed: UInt64, in folder: URL) throws -> URL {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent("tagged-\(seed).jpg")
    try SyntheticPhoto(width: 64, height: 48, seed: seed).image().write(to: url, format: .jpeg)
    let run = try ChildProcess.run("exiftool", ["-q", "-q", "-overwrite_original"] + tags.map { "-" + $0 } + [url.path])
    try #require(run.standardError.isEmpty, "exiftool: \(run.standardError)")
    return url
}

/// What Shoebox and exiftool read from the file at `url`, compared field by field, with
/// exiftool's values and Shoebox's.
func agreementWithExiftool(_ url: URL) throws -> (agreement: MetadataAgreement, exiftool: [String: String], shoebox: ImageMetadata) {
    let metadata = try Image(contentsOf: url).metadata
    let exiftool = try Exiftool.read([url], tags: MetadataAgreement.exiftoolTags)[url.path] ?? [:]
    var agreement = MetadataAgreement()
    agreement.compare(metadata, with: exiftool, file: url.lastPathComponent)
    return (agreement, exiftool, metadata)
}
