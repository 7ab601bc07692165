import ArgumentParser

@main
struct ShoeboxBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shoebox-bench",
        abstract: "Shoebox's benchmarks (figures go to BENCHMARKS.md, not into unit tests).",
        subcommands: [ThumbnailsBenchmark.self, ThumbnailsWorker.self, GeneratePhotos.self]
    )
}
