import ArgumentParser
import Foundation
import ShoeboxTesting

/// `shoebox-bench upload-memory`: the peak resident memory of `shoebox serve` while very large
/// photos are uploaded at once, with the decode memory budget and without it.
struct UploadMemoryBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload-memory",
        abstract: "Peak memory of shoebox serve while large photos are uploaded at once, for each --decode-memory.",
        discussion: """
            Generates once into .build/bench-input/upload-memory an 8192 × 8192 HEIC, an \
            11500 × 8600 (99 MP) PNG, the same interlaced, and an interlaced 8192 × 6144 (50 MP) \
            PNG (distinct copies differ by a text chunk or a free box). For each --decode-memory \
            (MB; a huge one stands for no budget) it starts the release `shoebox serve` beside this \
            benchmark on a new library and runs the phases one after another: the HEIC alone, two \
            HEICs at once, ten 99 MP PNGs at once, ten interlaced 99 MP PNGs, ten interlaced 50 MP \
            PNGs. Each phase resets the server's peak (/proc/PID/clear_refs), uploads with \
            POST /api/assets, waits for the thumbnails and previews (GET /api/jobs), and reads \
            VmHWM and VmRSS from /proc/PID/status. Target: under 400 MB for every phase whose \
            largest single decode fits (all but the HEIC, which libheif decodes whole: ~440 MB).
            """)

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Budgets to compare, in MB.", valueName: "MB"))
    var decodeMemory: [Int] = [256, 1_048_576]
    @Flag(help: "Print JSON.") var json = false

    struct Phase: Encodable {
        let budgetMB: Int
        let phase: String
        let uploads: Int
        let residentBeforeMB: Int
        let peakMB: Int
        let residentAfterMB: Int
        let seconds: Double
    }

    func run() async throws {
        let folder = Corpus.packageRoot().appendingPathComponent(".build/bench-input/upload-memory")
        if !json { Progress.note("generating the large photos into \(folder.path) once (reused next time)") }
        let heic = try Data(contentsOf: LargePhotos.heic(side: 8_192, in: folder))
        let plain = try Data(contentsOf: LargePhotos.png(width: 11_500, height: 8_600, interlaced: false, in: folder))
        let interlaced = try Data(contentsOf: LargePhotos.png(width: 11_500, height: 8_600, interlaced: true, in: folder))
        let interlacedHalf = try Data(contentsOf: LargePhotos.png(width: 8_192, height: 6_144, interlaced: true, in: folder))
        let phases: [(String, [Data], String)] = [
            ("1 × 8192² HEIC", [heic], "heic"),
            ("2 × 8192² HEIC", (1...2).map { LargePhotos.variant(ofHEIC: heic, number: $0) }, "heic"),
            ("10 × 99 MP PNG", (0..<10).map { LargePhotos.variant(ofPNG: plain, number: $0) }, "png"),
            ("10 × 99 MP interlaced PNG", (0..<10).map { LargePhotos.variant(ofPNG: interlaced, number: $0) }, "png"),
            ("10 × 50 MP interlaced PNG", (0..<10).map { LargePhotos.variant(ofPNG: interlacedHalf, number: $0) }, "png"),
        ]
        var results: [Phase] = []
        for budget in decodeMemory {
            let server = try ServerProcess(newLibraryFor: "upload-memory", extra: ["--decode-memory", "\(budget)"])
            defer { server.stop() }
            let pid = server.running.process.processIdentifier
            let http = RawHTTP(port: server.port)
            let authorization = ["Authorization": "Bearer \(server.key)"]
            for (label, files, ext) in phases {
                try ProcessMemory.resetPeak(of: pid)
                let before = try ProcessMemory.bytes("VmRSS", of: pid)
                let started = Date()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (index, data) in files.enumerated() {
                        let name = "\(label.filter(\.isLetter))-\(index).\(ext)"
                        group.addTask {
                            let response = try await http.send("POST", "/api/assets?filename=\(name)", headers: authorization, body: data, timeout: 600)
                            guard (200..<300).contains(response.status) else {
                                throw ChildProcess.Failure("uploading \(name): \(response.status) \(response.text)")
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                while true {
                    let jobs = try await http.send("GET", "/api/jobs", headers: authorization)
                    if (try jobs.object()["open"] as? Int) == 0 { break }
                    try await Task.sleep(for: .milliseconds(200))
                }
                let phase = Phase(
                    budgetMB: budget, phase: label, uploads: files.count, residentBeforeMB: before >> 20,
                    peakMB: try ProcessMemory.bytes("VmHWM", of: pid) >> 20, residentAfterMB: try ProcessMemory.bytes("VmRSS", of: pid) >> 20,
                    seconds: Date().timeIntervalSince(started))
                results.append(phase)
                if !json {
                    print(
                        String(
                            format: "--decode-memory %d: %@: %d MB before, peak %d MB, %d MB after, %.1f s",
                            budget, label, phase.residentBeforeMB, phase.peakMB, phase.residentAfterMB, phase.seconds))
                }
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(results), as: UTF8.self))
        }
    }
}
