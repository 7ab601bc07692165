import Foundation
import ShoeboxLibrary
import ShoeboxTesting

/// Generated benchmark inputs, made once into `.build/bench-input` and reused.
enum BenchInput {
    /// `count` photo-like 3:2 JPEGs of `megapixels`, generated in a child process so that the
    /// benchmarking process stays small.
    static func generatedJPEGs(count: Int, megapixels: Int, quiet: Bool) throws -> [String] {
        let width = Int((Double(megapixels) * 1_000_000 * 1.5).squareRoot().rounded())
        let height = width * 2 / 3
        let folder = Corpus.packageRoot().appendingPathComponent(".build/bench-input/\(width)x\(height)")
        if !quiet { Progress.note("generating \(count) JPEGs of \(width)×\(height) into \(folder.path) (reused next time)") }
        let generation = try ChildProcess.run(
            executable, ["generate", folder.path, "--count", "\(count)", "--width", "\(width)", "--height", "\(height)"],
            captureOutput: false)
        guard generation.status == 0 else { throw ChildProcess.Failure("generating the input failed") }
        return (0..<count).map { folder.appendingPathComponent(String(format: "photo-%03d.jpg", $0)).path }
    }

    /// Imports `files` as `shoebox import` does: one change per file, up to one per core at a time.
    static func importFiles(_ files: [URL], into library: PhotoLibrary) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            func add() {
                guard next < files.count else { return }
                let file = files[next]
                next += 1
                group.addTask { try await library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: file) } }
            }
            for _ in 0..<library.recommendedImportConcurrency { add() }
            while try await group.next() != nil { add() }
        }
    }

    /// This benchmark executable, for child processes.
    static var executable: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
    }
}
