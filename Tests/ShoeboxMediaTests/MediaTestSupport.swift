import Foundation
import ShoeboxImaging
import ShoeboxMedia
import ShoeboxTesting

let corpus = Corpus.locate()
let corpusMissing = "the shared corpus (../shared/corpus or $SHOEBOX_CORPUS) is absent"

/// A fresh folder for one test, removed by the caller.
func scratchFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-media-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The number of decoded video frames, counted by ffprobe.
func videoFrameCount(_ url: URL) throws -> Int {
    let result = try ChildProcess.run(
        "ffprobe",
        [
            "-v", "error", "-count_frames", "-select_streams", "v:0",
            "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", url.path,
        ])
    guard let count = Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw ChildProcess.Failure("ffprobe could not count frames: \(result.standardError)")
    }
    return count
}

/// The mean video luma of a frame (limited range, 16…235, as H.264 stores it), which in a
/// `.frameCounter` movie is `16 + 3 × frame number`. ffmpeg expands limited range to full-range RGB
/// when it hands out a frame; this undoes that.
func meanLuma(_ image: Image) throws -> Double {
    let bitmap = try image.bitmap()
    var total = 0.0
    for y in 0..<bitmap.height {
        for x in 0..<bitmap.width {
            total += 0.299 * Double(bitmap[x, y, 0]) + 0.587 * Double(bitmap[x, y, 1]) + 0.114 * Double(bitmap[x, y, 2])
        }
    }
    let fullRange = total / Double(bitmap.width * bitmap.height)
    return 16 + fullRange * 219 / 255
}
