import Foundation
import ShoeboxLibrary
import Testing

@testable import shoebox

/// Issue 39 item 4: `shoebox import`'s progress line shows no ETA until enough is measured (the
/// first file alone, finished in milliseconds, made "ETA 41451 s"), and durations read as people
/// read them.
@Suite struct ImportProgressBarTests {
    func progress(files: Int, of total: Int, bytes: Int, of totalBytes: Int) -> ImportProgress {
        ImportProgress(
            file: URL(fileURLWithPath: "/photos/IMG_0001.JPG"), fileBytes: 1, completedFiles: files, completedBytes: bytes, totalFiles: total,
            totalBytes: totalBytes)
    }

    @Test func noEstimateFromTheFirstFileAlone() {
        let line = ImportProgressBar.line(for: progress(files: 1, of: 4_000, bytes: 10_000, of: 41_451_000_000), elapsed: 0.01)
        #expect(!line.contains("ETA"), "\(line)")
        #expect(line.contains("1/4000 files"))
    }

    @Test func anEstimateOnceEnoughIsMeasured() {
        let afterFiles = ImportProgressBar.line(for: progress(files: 3, of: 100, bytes: 3_000_000, of: 100_000_000), elapsed: 1)
        #expect(afterFiles.hasSuffix("ETA 32 s"), "\(afterFiles)")
        let afterTime = ImportProgressBar.line(for: progress(files: 1, of: 4_000, bytes: 1_000_000, of: 4_000_000_000), elapsed: 2)
        #expect(afterTime.hasSuffix("ETA 2 h 13 min"), "\(afterTime)")
    }

    @Test(arguments: [
        (0.4, "0 s"), (8, "8 s"), (59.6, "1 min"), (75, "1 min 15 s"), (754, "12 min"), (3_725, "1 h 2 min"), (3_600, "1 h"),
        (41_451, "11 h 30 min"), (200_000, "2 d 7 h"),
    ])
    func durationsReadAsPeopleReadThem(_ seconds: Double, _ text: String) {
        #expect(ImportProgressBar.duration(seconds) == text)
    }
}
