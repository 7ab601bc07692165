import Foundation
import ShoeboxImaging
import ShoeboxTesting

/// One timed step of a benchmark run inside this process (`raw`, `edit`): the best of its runs,
/// and the largest rise of the peak resident set over what the process held before a run.
struct BenchStep: Encodable {
    var name: String
    var milliseconds: Double
    var peakMemoryMB: Double
    var size: String

    /// Runs `body` `runs` times, the allocator trimmed and the peak started again before each, and
    /// prints the step unless `quiet`.
    static func measure(_ name: String, runs: Int, quiet: Bool, nameWidth: Int = 32, _ body: () throws -> PixelSize) throws -> BenchStep {
        let pid = getpid()
        var best = Double.infinity
        var peak = 0.0
        var size = PixelSize(square: 0)
        for _ in 1...runs {
            Image.trimAllocator()
            let before = try ProcessMemory.bytes("VmRSS", of: pid)
            try ProcessMemory.resetPeak(of: pid)
            let start = DispatchTime.now().uptimeNanoseconds
            size = try body()
            best = Swift.min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            peak = Swift.max(peak, Double(try ProcessMemory.bytes("VmHWM", of: pid) - before) / 1_048_576)
        }
        if !quiet {
            Progress.note(name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + String(format: "%9.1f ms %8.1f MB  ", best, peak) + "\(size)")
        }
        return BenchStep(name: name, milliseconds: best, peakMemoryMB: peak, size: "\(size)")
    }
}
