import ArgumentParser
import Foundation
import ShoeboxLibrary
import ShoeboxTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `shoebox-bench web`: (a) thumbnails over HTTP under `wrk` load, `shoebox serve` beside nginx
/// serving the same derivative files in the same run; (b) the time from navigation to the first
/// painted grid row of a 100,000-asset library in headless Chromium.
struct WebBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "Thumbnails over HTTP beside nginx (wrk), the first grid row of a large library in Chromium, and timeline scrubber jumps in it.",
        discussion: """
            Needs wrk and nginx (scripts/install-deps --bench), chromium and chromium-driver. Part (a) \
            runs wrk against each side in turn, --runs rounds with the first side alternating, and \
            reports each round's requests per second and the CPU each server spent a request \
            (user + system from /proc, nginx's master and workers together); the median of the \
            rounds' ratios counts. Part (b) \
            also lists, from the page's resource timings, every request the median load started \
            before its first row painted: when it started and ended (ms since navigation) and its \
            bytes over the wire (beforeFirstRow in --json).
            """)

    @Option(help: "Distinct photos whose 256 px thumbnails are requested.") var photos = 200
    @Option(help: "Seconds of load per wrk run.") var seconds = 10
    @Option(help: "Connections wrk keeps open.") var connections = 32
    @Option(help: "Rounds of one wrk run per side (the side that goes first alternates; the median ratio counts).") var runs = 3
    @Option(help: "Assets in the library for the grid measurement.") var assets = 100_000
    @Option(help: "Fresh browser sessions for the grid measurement (the median counts).") var loads = 3
    @Flag(help: "Skip part (a).") var skipThumbnails = false
    @Flag(help: "Skip part (b).") var skipGrid = false
    @Flag(help: "Print JSON.") var json = false

    struct Report: Encodable {
        var shoeboxRequestsPerSecond: Double?
        var nginxRequestsPerSecond: Double?
        /// The median of the rounds' ratios (Shoebox's requests per second over nginx's).
        var ratio: Double?
        /// The median of the rounds' ratios of CPU time a request (Shoebox's over nginx's).
        var cpuRatio: Double?
        var thumbnailRounds: [ThumbnailRound] = []
        var thumbnailBytes: Int?
        var gridAssets: Int?
        var firstRowMilliseconds: [Double] = []
        var firstRowMedianMilliseconds: Double?
        var scrubberJumps: [ScrubberJump] = []
        var scrubberSettleMedianMilliseconds: Double?
        /// What the median load fetched before its first row painted, in the order it started.
        var beforeFirstRow: [Fetched] = []
    }

    /// (a) One round: each side's wrk run, and the CPU its server spent a request.
    struct ThumbnailRound: Codable {
        var shoeboxRequestsPerSecond = 0.0
        var shoeboxCPUMicroseconds = 0.0
        var nginxRequestsPerSecond = 0.0
        var nginxCPUMicroseconds = 0.0
    }

    /// One request of a page load, from its resource timing (milliseconds since navigation).
    struct Fetched: Codable {
        var name: String
        var start: Double
        var end: Double
        var bytes: Int
    }

    /// (c) One drag of the timeline scrubber: from where the grid was to `target` (a fraction of
    /// the strip) in 20 moves, one per frame, then let go.
    struct ScrubberJump: Codable {
        /// Where the drag ended, 0 (top) to 1 (bottom).
        var target: Double
        /// From letting go to every cell in view showing its decoded thumbnail, two frames later.
        var settleMilliseconds: Double
        /// The longest frame during the drag.
        var worstFrameMilliseconds: Double
        /// Pages of 200 assets fetched while the strip was held, and in all by the time it settled.
        var pagesWhileDragging: Int
        var pages: Int
        /// The most cells in the DOM during the drag and after it.
        var mostCells: Int
    }

    func run() async throws {
        var report = Report()
        if !skipThumbnails { try await measureThumbnails(into: &report) }
        if !skipGrid { try await measureGrid(into: &report) }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        }
    }

    // MARK: (a) thumbnails

    func measureThumbnails(into report: inout Report) async throws {
        for tool in ["wrk", "nginx"] where which(tool) == nil {
            throw ChildProcess.Failure("\(tool) is missing: run scripts/install-deps --bench")
        }
        let libraryURL = try populatedLibrary("web-\(photos)/Thumbs.shoebox", assets: photos, originals: photos)
        let server = try ServerProcess(library: libraryURL)
        defer { server.stop() }
        // The thumbnail URLs the grid asks for, and the derivative files nginx will serve.
        let paths = try await server.gridThumbnailPaths()
        // Warm: every thumbnail rendered (or found) once.
        var bytes = 0
        for path in paths { bytes += try await server.get(path).count }
        report.thumbnailBytes = bytes / max(paths.count, 1)
        let derivatives = libraryURL.appendingPathComponent("derivatives")
        let files = try FileManager.default.subpathsOfDirectory(atPath: derivatives.path).filter { $0.contains("fill-256x256=") }
        guard files.count >= min(photos, paths.count) else { throw ChildProcess.Failure("only \(files.count) grid thumbnails on disk") }
        let nginx = try NginxProcess(root: derivatives)
        defer { nginx.stop() }
        // Rounds alternate which side goes first; each side's CPU (nginx: its master and
        // workers) is read around its own run, so the ratio and the CPU are from the same round.
        // One side's run: its requests per second and its CPU (µs) a request.
        func measure(tree: Int32, port: Int, paths: [String], header: String?) throws -> (requestsPerSecond: Double, cpuMicroseconds: Double) {
            let before = ProcessCPU.seconds(ofTree: tree)
            let outcome = try wrk(port: port, paths: paths, header: header)
            let spent = ProcessCPU.seconds(ofTree: tree) - before
            return (outcome.requestsPerSecond, spent * 1e6 / Double(max(outcome.requests, 1)))
        }
        var rounds: [ThumbnailRound] = []
        for run in 0..<runs {
            var round = ThumbnailRound()
            for shoeboxFirst in run % 2 == 0 ? [true, false] : [false, true] {
                if shoeboxFirst {
                    (round.shoeboxRequestsPerSecond, round.shoeboxCPUMicroseconds) = try measure(
                        tree: server.running.process.processIdentifier, port: server.port, paths: paths,
                        header: "Authorization: Bearer \(server.key)")
                } else {
                    (round.nginxRequestsPerSecond, round.nginxCPUMicroseconds) = try measure(
                        tree: nginx.running.process.processIdentifier, port: nginx.port, paths: files.map { "/" + $0 }, header: nil)
                }
            }
            rounds.append(round)
        }
        report.thumbnailRounds = rounds
        report.shoeboxRequestsPerSecond = rounds.map(\.shoeboxRequestsPerSecond).max()
        report.nginxRequestsPerSecond = rounds.map(\.nginxRequestsPerSecond).max()
        report.ratio = Statistics.median(rounds.map { $0.shoeboxRequestsPerSecond / max($0.nginxRequestsPerSecond, 1) })
        report.cpuRatio = Statistics.median(rounds.map { $0.shoeboxCPUMicroseconds / max($0.nginxCPUMicroseconds, 0.001) })
        if !json {
            for (index, round) in rounds.enumerated() {
                print(
                    String(
                        format: "    round %d: shoebox %.0f req/s, %.1f µs CPU a request; nginx %.0f req/s, %.1f µs (%.2f×, CPU %.2f×)",
                        index + 1, round.shoeboxRequestsPerSecond, round.shoeboxCPUMicroseconds, round.nginxRequestsPerSecond,
                        round.nginxCPUMicroseconds, round.shoeboxRequestsPerSecond / max(round.nginxRequestsPerSecond, 1),
                        round.shoeboxCPUMicroseconds / max(round.nginxCPUMicroseconds, 0.001)))
            }
            print(
                String(
                    format:
                        "(a) 256 px thumbnails, %d connections, %d s × %d rounds: median ratio %.2f× nginx's requests per second, CPU a request %.2f× nginx's; best shoebox %.0f req/s, nginx %.0f req/s; %d bytes each",
                    connections, seconds, runs, report.ratio ?? 0, report.cpuRatio ?? 0, report.shoeboxRequestsPerSecond ?? 0,
                    report.nginxRequestsPerSecond ?? 0, report.thumbnailBytes ?? 0))
        }
    }

    /// One wrk run over `paths`, in turn.
    func wrk(port: Int, paths: [String], header: String?) throws -> Wrk.Outcome {
        try Wrk.run(port: port, paths: paths, header: header, connections: connections, seconds: seconds)
    }

    // MARK: (b) the first grid row

    func measureGrid(into report: inout Report) async throws {
        guard let chromedriver = which("chromedriver"), let chromium = which("chromium") else {
            throw ChildProcess.Failure("chromium and chromium-driver are missing: run scripts/install-deps")
        }
        let libraryURL = try populatedLibrary("web-grid-\(assets)/Grid.shoebox", assets: assets, originals: 40)
        let server = try ServerProcess(library: libraryURL)
        defer { server.stop() }
        let driver = try LongRunning(chromedriver, ["--port=0"], readyPattern: "was started successfully on port ")
        defer { driver.stop() }
        guard let port = driver.readyLine.flatMap({ Int($0.split(separator: " ").last?.filter(\.isNumber) ?? "") }) else {
            throw ChildProcess.Failure("chromedriver did not say its port: \(driver.readyLine ?? "")")
        }
        let webdriver = WebDriver(port: port)
        var loadsFetched: [[Fetched]] = []
        for load in 0..<loads {
            let session = try await webdriver.newSession(chromium: chromium)
            try await webdriver.navigate(session, to: server.userURL)
            // One asynchronous script that answers when the page records its first row: polling
            // would take the page's main thread away from it while it loads.
            let painted =
                try await webdriver.executeAsync(
                    session,
                    """
                    const done = arguments[arguments.length - 1];
                    const check = () => {
                      const value = window.shoebox && window.shoebox.firstRowPaintedAt;
                      if (value != null) done(value); else setTimeout(check, 50);
                    };
                    check();
                    """) as? Double
            guard let painted else { throw ChildProcess.Failure("the grid's first row never painted (load \(load + 1))") }
            report.firstRowMilliseconds.append(painted)
            loadsFetched.append(try await Self.fetched(before: painted, webdriver, session))
            if load == loads - 1 { try await measureScrubber(webdriver, session, into: &report) }
            try await webdriver.deleteSession(session)
        }
        report.gridAssets = assets
        let sorted = report.firstRowMilliseconds.sorted()
        report.firstRowMedianMilliseconds = sorted[sorted.count / 2]
        if let median = report.firstRowMilliseconds.firstIndex(of: sorted[sorted.count / 2]) { report.beforeFirstRow = loadsFetched[median] }
        if !json {
            print(
                String(
                    format: "(b) first painted grid row, %d assets: median %.0f ms (%@)", assets, report.firstRowMedianMilliseconds ?? 0,
                    report.firstRowMilliseconds.map { String(format: "%.0f", $0) }.joined(separator: ", ")))
            print("    before the median load's first row (ms since navigation, bytes over the wire):")
            for request in report.beforeFirstRow {
                print(String(format: "    %7.1f – %7.1f  %8d  %@", request.start, request.end, request.bytes, request.name))
            }
        }
    }

    /// The page itself and every request that started before `painted`, from the page's
    /// resource timings.
    static func fetched(before painted: Double, _ webdriver: WebDriver, _ session: String) async throws -> [Fetched] {
        let answer = try await webdriver.executeAsync(
            session,
            """
            const done = arguments[arguments.length - 1];
            const entries = performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'));
            done(entries.filter((entry) => entry.startTime < \(painted)).map((entry) => ({
              name: entry.name.replace(location.origin, ''), start: entry.startTime, end: entry.responseEnd,
              bytes: entry.transferSize || entry.encodedBodySize || 0 })));
            """)
        let data = try JSONSerialization.data(withJSONObject: answer ?? [])
        return try JSONDecoder().decode([Fetched].self, from: data).sorted { $0.start < $1.start }
    }

    // MARK: (c) the timeline scrubber

    /// Six drags of the scrubber across the loaded grid, driven by pointer events in the page.
    func measureScrubber(_ webdriver: WebDriver, _ session: String, into report: inout Report) async throws {
        let answer = try await webdriver.executeAsync(
            session,
            """
            const done = arguments[arguments.length - 1];
            (async () => {
              const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())));
              const grid = document.querySelector('#photos'), bar = document.querySelector('.scrubber');
              if (!bar || bar.hidden) return done({ error: 'the scrubber is not shown' });
              performance.setResourceTimingBufferSize(100000);
              const pages = () => performance.getEntriesByType('resource').filter((e) => e.name.includes('/assets?offset=')).length;
              const settled = async () => {
                for (;;) {
                  const box = grid.getBoundingClientRect();
                  const cells = [...grid.querySelectorAll('.cell')].filter((c) => { const r = c.getBoundingClientRect(); return r.bottom > box.top && r.top < box.bottom; });
                  if (cells.length && cells.every((c) => { const image = c.querySelector('img'); return image && image.complete && image.naturalWidth > 0; })) break;
                  await frame();
                }
                await frame();
                return frame();
              };
              const jumps = [];
              for (const target of [0.9, 0.15, 0.6, 0.35, 1.0, 0.5]) {
                const rect = bar.getBoundingClientRect();
                const from = grid.scrollTop / Math.max(1, grid.scrollHeight - grid.clientHeight);
                const at = (fraction) => ({ clientX: rect.left + rect.width / 2, clientY: rect.top + fraction * rect.height, pointerId: 1,
                                            pointerType: 'mouse', bubbles: true, button: 0, buttons: 1 });
                const before = pages();
                bar.dispatchEvent(new PointerEvent('pointerdown', at(from)));
                let last = await frame(), worst = 0, mostCells = 0;
                for (let step = 1; step <= 20; step += 1) {
                  bar.dispatchEvent(new PointerEvent('pointermove', at(from + (target - from) * step / 20)));
                  const now = await frame();
                  worst = Math.max(worst, now - last);
                  last = now;
                  mostCells = Math.max(mostCells, grid.querySelectorAll('.cell').length);
                }
                const pagesWhileDragging = pages() - before;
                const released = performance.now();
                bar.dispatchEvent(new PointerEvent('pointerup', at(target)));
                const painted = await settled();
                mostCells = Math.max(mostCells, grid.querySelectorAll('.cell').length);
                jumps.push({ target, settleMilliseconds: painted - released, worstFrameMilliseconds: worst, pagesWhileDragging,
                             pages: pages() - before, mostCells });
              }
              done({ jumps });
            })().catch((error) => done({ error: String(error) }));
            """)
        guard let object = answer as? [String: Any] else { throw ChildProcess.Failure("the scrubber measurement answered \(String(describing: answer))") }
        if let error = object["error"] { throw ChildProcess.Failure("the scrubber measurement failed: \(error)") }
        let data = try JSONSerialization.data(withJSONObject: object["jumps"] ?? [])
        report.scrubberJumps = try JSONDecoder().decode([ScrubberJump].self, from: data)
        let settles = report.scrubberJumps.map(\.settleMilliseconds).sorted()
        report.scrubberSettleMedianMilliseconds = settles.isEmpty ? nil : settles[settles.count / 2]
        if !json {
            print(
                String(
                    format:
                        "(c) scrubber, %d assets: %d jumps, settled in median %.0f ms (%@); worst frame while dragging %.0f ms; pages per jump %@ (0 while held: %@); at most %d cells",
                    assets, settles.count, report.scrubberSettleMedianMilliseconds ?? 0,
                    report.scrubberJumps.map { String(format: "%.0f", $0.settleMilliseconds) }.joined(separator: ", "),
                    report.scrubberJumps.map(\.worstFrameMilliseconds).max() ?? 0,
                    report.scrubberJumps.map { String($0.pages) }.joined(separator: ", "),
                    report.scrubberJumps.allSatisfy { $0.pagesWhileDragging == 0 } ? "yes" : "no",
                    report.scrubberJumps.map(\.mostCells).max() ?? 0))
        }
    }

    /// A library under `.build/bench-input/` with `assets` assets, `originals` of them real
    /// photos with their derivatives (`shoebox-bench populate`), made the first time only.
    func populatedLibrary(_ path: String, assets: Int, originals: Int) throws -> URL {
        let url = Corpus.packageRoot().appendingPathComponent(".build/bench-input/\(path)")
        if !FileManager.default.fileExists(atPath: url.appendingPathComponent("catalog.sqlite").path) {
            note("making a library of \(assets) assets (\(originals) photos with thumbnails) in \(url.path)")
            let populate = try ChildProcess.run(BenchInput.executable, ["populate", url.path, "--count", "\(assets)", "--originals", "\(originals)"])
            guard populate.status == 0 else { throw ChildProcess.Failure("populate failed: \(populate.standardError)") }
        }
        return url
    }

    func note(_ text: String) {
        if !json { FileHandle.standardError.write(Data((text + "\n").utf8)) }
    }
}

func which(_ name: String) -> String? {
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin:/usr/sbin").split(separator: ":") {
        let candidate = "\(folder)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}
