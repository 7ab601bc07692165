import ArgumentParser

@main
struct ShoeboxBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shoebox-bench",
        abstract: "Shoebox's benchmarks (figures go to BENCHMARKS.md, not into unit tests).",
        subcommands: [
            ThumbnailsBenchmark.self, RawBenchmark.self, EditBenchmark.self, VideoBenchmark.self, LibraryBenchmark.self, ImagesBenchmark.self,
            CaptureBenchmark.self, ThumbnailsWorker.self, ImagesWorker.self, CatalogBenchmark.self, CatalogFixture.self, PeopleBenchmark.self,
            SearchBenchmark.self, SharingBenchmark.self,
            GeneratePhotos.self, PopulateLibrary.self, WebBenchmark.self, BlobsBenchmark.self, JobsBenchmark.self, LoadBenchmark.self, ClusterBenchmark.self,
            UploadMemoryBenchmark.self, UploadIOBenchmark.self,
        ]
    )
}
