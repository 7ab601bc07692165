import ArgumentParser
import Foundation
import ShoeboxLibrary
import ShoeboxTesting

struct LibraryBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "Import speed beside cp + sha256sum, and fetches on a 1,000,000-asset catalog beside sqlite3.",
        discussion: """
            (a) Imports --count generated 12 MP JPEGs, one change each and one per core at a time \
            as `shoebox import` does (copy while hashing, probe with libvips, fsync, rename, \
            commit; no derivatives), and runs `cp` and \
            `sha256sum` over the same files in the same run. (b) Builds (once, into \
            .build/bench-input) a catalog of --catalog-size synthetic assets, then times opening \
            it, fetching every image by creation date, counting, loading the first 200, and \
            loading the asset at the middle, beside the sqlite3 command running the same query \
            on the same file. Each timing is the best of --runs.
            """)

    @Option(help: "Photos to import.") var count = 20
    @Option(help: "Assets in the synthetic catalog.") var catalogSize = 1_000_000
    @Option(help: "Runs; the best counts.") var runs = 3
    @Flag(help: "Print JSON.") var json = false

    struct Result: Encodable {
        var importFiles = 0
        var importShoeboxFilesPerSecond = 0.0
        var importCpSha256FilesPerSecond = 0.0
        var catalogAssets = 0
        var openMilliseconds = 0.0
        var fetchAllImagesByDateMilliseconds = 0.0
        var countMilliseconds = 0.0
        var firstPageMilliseconds = 0.0
        var randomAccessMilliseconds = 0.0
        var sqlite3QueryMilliseconds = 0.0
        /// The first 200 by keyset paging (`fetchAssets(with:after:limit:)`, what the server's
        /// grid uses): no snapshot of every id first.
        var keysetFirstPageMilliseconds = 0.0
        /// The sqlite3 CLI doing the same as count, first 200 and the middle asset (process
        /// start included, as for the full query).
        var sqlite3CountMilliseconds = 0.0
        var sqlite3FirstPageMilliseconds = 0.0
        var sqlite3RandomAccessMilliseconds = 0.0
        /// How long `sqlite3` takes to start and answer `SELECT 1` (its fixed cost).
        var sqlite3StartMilliseconds = 0.0
        var peakMemoryMB = 0.0
    }

    func run() async throws {
        var result = Result()
        try await importBenchmark(&result)
        try await catalogBenchmark(&result)
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        result.peakMemoryMB = Double(usage.ru_maxrss) / 1024
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(result), as: UTF8.self))
        } else {
            print(
                String(
                    format: "import %d × 12 MP JPEG: shoebox %.1f files/s, cp + sha256sum %.1f files/s",
                    result.importFiles, result.importShoeboxFilesPerSecond, result.importCpSha256FilesPerSecond))
            print(
                String(
                    format:
                        "catalog of %d assets: open %.1f ms, fetch all images by date %.1f ms, count %.3f ms, first 200 %.2f ms, asset at the middle %.2f ms",
                    result.catalogAssets, result.openMilliseconds, result.fetchAllImagesByDateMilliseconds, result.countMilliseconds,
                    result.firstPageMilliseconds, result.randomAccessMilliseconds))
            print(
                String(
                    format: "sqlite3 CLI, same query: %.1f ms (fetch ÷ sqlite3 = %.2f)", result.sqlite3QueryMilliseconds,
                    result.fetchAllImagesByDateMilliseconds / result.sqlite3QueryMilliseconds))
            print(
                String(
                    format:
                        "keyset first 200 (no snapshot): %.2f ms; sqlite3 CLI: count %.1f ms, first 200 %.1f ms, middle asset %.1f ms (its start alone %.1f ms)",
                    result.keysetFirstPageMilliseconds, result.sqlite3CountMilliseconds, result.sqlite3FirstPageMilliseconds,
                    result.sqlite3RandomAccessMilliseconds, result.sqlite3StartMilliseconds))
            print(String(format: "peak RSS %.1f MB", result.peakMemoryMB))
        }
    }

    // MARK: (a) Import

    private func importBenchmark(_ result: inout Result) async throws {
        let folder = Corpus.packageRoot().appendingPathComponent(".build/bench-input/4242x2828")
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        let generation = try ChildProcess.run(
            me, ["generate", folder.path, "--count", "\(count)", "--width", "4242", "--height", "2828"], captureOutput: false)
        guard generation.status == 0 else { throw ChildProcess.Failure("generating photos failed") }
        let files = (0..<count).map { folder.appendingPathComponent(String(format: "photo-%03d.jpg", $0)) }
        var ours: [Double] = []
        var theirs: [Double] = []
        for _ in 0..<runs {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-lib-bench-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            // Import alone; `images` measures derivatives.
            let library = try await PhotoLibrary.open(at: scratch.appendingPathComponent("Bench.shoebox"), backgroundWork: .onDemand)
            let start = DispatchTime.now().uptimeNanoseconds
            try await BenchInput.importFiles(files, into: library)
            ours.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            let copies = scratch.appendingPathComponent("copies")
            try FileManager.default.createDirectory(at: copies, withIntermediateDirectories: true)
            let copy = try ChildProcess.run("cp", files.map(\.path) + [copies.path], captureOutput: false)
            let hash = try ChildProcess.run("sha256sum", files.map(\.path), captureOutput: false)
            guard copy.status == 0, hash.status == 0 else { throw ChildProcess.Failure("cp or sha256sum failed") }
            theirs.append(copy.seconds + hash.seconds)
        }
        result.importFiles = count
        result.importShoeboxFilesPerSecond = Double(count) / ours.min()!
        result.importCpSha256FilesPerSecond = Double(count) / theirs.min()!
    }

    // MARK: (b) A large catalog

    private func catalogBenchmark(_ result: inout Result) async throws {
        let url = Corpus.packageRoot().appendingPathComponent(".build/bench-input/catalog-\(catalogSize).shoebox")
        let catalog = url.appendingPathComponent("catalog.sqlite")
        if !FileManager.default.fileExists(atPath: catalog.path) {
            if !json { FileHandle.standardError.write(Data("building a \(catalogSize)-asset catalog (once)…\n".utf8)) }
            let library = try await PhotoLibrary.open(at: url)
            try await Self.fill(library, count: catalogSize)
            await library.close()
        }
        let options = FetchOptions(predicate: .mediaType(.image), sortDescriptors: [.init(key: .creationDate)])
        var open: [Double] = []
        var fetch: [Double] = []
        var count: [Double] = []
        var page: [Double] = []
        var random: [Double] = []
        var keyset: [Double] = []
        for _ in 0..<runs {
            var library: PhotoLibrary!
            open.append(try await Self.milliseconds { library = try await PhotoLibrary.open(at: url) })
            var all: FetchResult<Asset>!
            fetch.append(try await Self.milliseconds { all = try await library.fetchAssets(with: options) })
            var total = 0
            count.append(try await Self.milliseconds { total = all.count })
            page.append(try await Self.milliseconds { _ = try await all.objects(in: 0..<200) })
            random.append(try await Self.milliseconds { _ = try await all.object(at: total / 2) })
            keyset.append(try await Self.milliseconds { _ = try await library.fetchAssetPage(with: options, after: nil, limit: 200) })
        }
        let filter = "FROM asset WHERE trashedDate IS NULL AND isHidden = 0 AND mediaType = 1"
        func sqlite3(_ query: String) throws -> Double {
            var times: [Double] = []
            for _ in 0..<runs {
                let run = try ChildProcess.run("sqlite3", [catalog.path, query], captureOutput: false)
                guard run.status == 0 else { throw ChildProcess.Failure("sqlite3 failed; is the Debian package sqlite3 installed?") }
                times.append(run.seconds * 1000)
            }
            return times.min()!
        }
        let sqlite = try sqlite3("SELECT id \(filter) ORDER BY creationDate, id;")
        result.sqlite3CountMilliseconds = try sqlite3("SELECT count(*) \(filter);")
        result.sqlite3FirstPageMilliseconds = try sqlite3("SELECT * \(filter) ORDER BY creationDate, id LIMIT 200;")
        result.sqlite3RandomAccessMilliseconds = try sqlite3("SELECT * \(filter) ORDER BY creationDate, id LIMIT 1 OFFSET \(catalogSize * 9 / 20);")
        result.sqlite3StartMilliseconds = try sqlite3("SELECT 1;")
        result.keysetFirstPageMilliseconds = keyset.min()!
        result.catalogAssets = catalogSize
        result.openMilliseconds = open.min()!
        result.fetchAllImagesByDateMilliseconds = fetch.min()!
        result.countMilliseconds = count.min()!
        result.firstPageMilliseconds = page.min()!
        result.randomAccessMilliseconds = random.min()!
        result.sqlite3QueryMilliseconds = sqlite
    }

    static func milliseconds(_ body: () async throws -> Void) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// Writes synthetic rows straight into the catalog through its bulk insert (a benchmark
    /// fixture: no originals).
    static func fill(_ library: PhotoLibrary, count: Int) async throws {
        var generator = SplitMix64(seed: 1)
        let base = Date(timeIntervalSince1970: 1_262_304_000)  // 2010
        try await CatalogFixture.insert(count: count, into: library) { index in
            let random = generator.next()
            let isVideo = random % 10 == 0
            let created = base.addingTimeInterval(Double(random % 500_000_000))
            return AssetRecord(
                id: nil, localIdentifier: String(format: "%08X-0000-0000-0000-%012X/L0/001", index, index), mediaType: isVideo ? 2 : 1,
                mediaSubtypes: 0, pixelWidth: 4032, pixelHeight: 3024, creationDate: created, modificationDate: created, addedDate: created,
                latitude: nil, longitude: nil, altitude: nil, duration: isVideo ? Double(random % 120) : 0.0, isFavorite: random % 17 == 0,
                isHidden: random % 101 == 0, trashedDate: nil, originalFilename: String(format: "IMG_%06d.%@", index, isVideo ? "MOV" : "HEIC"),
                contentHash: String(format: "%064x", index), uniformTypeIdentifier: isVideo ? "com.apple.quicktime-movie" : "public.heic",
                fileSize: Int(random % 5_000_000), creatorClient: nil)
        }
    }
}
