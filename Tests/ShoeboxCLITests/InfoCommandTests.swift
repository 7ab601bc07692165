import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@Suite struct InfoCommandTests {
    static let allowedKeys: Set = [
        "path", "format", "pixelWidth", "pixelHeight", "storedWidth", "storedHeight", "orientation", "make",
        "model", "lens", "creationDate", "latitude", "longitude", "altitude", "error",
    ]

    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-info-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try SyntheticPhoto(width: 300, height: 200).image().write(to: folder.appendingPathComponent("photo.jpg"))
        try Data("plain text".utf8).write(to: folder.appendingPathComponent("notes.jpg"))
        try PNGBomb.data().write(to: folder.appendingPathComponent("bomb.png"))
    }

    func records(_ output: String) throws -> [[String: Any]] {
        let parsed = try JSONSerialization.jsonObject(with: Data(output.utf8))
        return try #require(parsed as? [[String: Any]])
    }

    @Test func jsonForAGoodFile() throws {
        let result = try CLIRunner.run(["info", "--json", folder.appendingPathComponent("photo.jpg").path])
        #expect(result.status == 0, "\(result.standardError)")
        let record = try #require(try records(result.standardOutput).first)
        #expect(Set(record.keys).isSubset(of: Self.allowedKeys))
        #expect(record["format"] as? String == "jpeg")
        #expect(record["pixelWidth"] as? Int == 300)
        #expect(record["pixelHeight"] as? Int == 200)
        #expect(record["storedWidth"] as? Int == 300)
        #expect(record["error"] == nil)
    }

    @Test func failuresAreRecordsAndExitOne() throws {
        let paths = ["photo.jpg", "notes.jpg", "missing.jpg", "bomb.png"].map { folder.appendingPathComponent($0).path }
        let result = try CLIRunner.run(["info", "--json"] + paths)
        #expect(result.status == 1)
        let list = try records(result.standardOutput)
        #expect(list.count == 4)
        #expect(list.map { $0["path"] as? String } == paths)
        let codes = list.map { ($0["error"] as? [String: Any])?["code"] as? String }
        #expect(codes == [nil, "unsupportedFormat", "io", "tooLarge"])
        for record in list.dropFirst() {
            #expect(Set(record.keys) == ["path", "error"])
            let message = (record["error"] as? [String: Any])?["message"] as? String
            #expect(message?.isEmpty == false)
        }
    }

    @Test(
        .enabled(if: ChildProcess.canMeasurePeakMemory, "GNU time (/usr/bin/time, Debian package `time`) measures the peak; scripts/install-deps installs it"))
    func pixelBombIsRefusedWithoutAllocating() throws {
        let result = try CLIRunner.run(["info", folder.appendingPathComponent("bomb.png").path], measuringPeakMemory: true)
        let peak = try #require(result.peakMemoryBytes)
        #expect(result.status == 1)
        #expect(result.standardError.contains("too large"))
        // Decoding 50000×50000 RGB would need 7.5 GB; the whole process stays under 100 MB.
        #expect(peak < 100 << 20, "peak RSS \(peak >> 20) MB")
        #expect(peak > 1 << 20, "a measured figure, not a default")
    }

    @Test func textOutputIsOneLinePerFile() throws {
        let result = try CLIRunner.run(["info", folder.appendingPathComponent("photo.jpg").path, folder.appendingPathComponent("notes.jpg").path])
        #expect(result.status == 1)
        #expect(result.standardOutput.split(separator: "\n").count == 1)
        #expect(result.standardOutput.contains("jpeg 300×200"))
        let errors = result.standardError.split(separator: "\n")
        #expect(errors.count == 1)
        #expect(errors.first?.contains("notes.jpg: error: unsupported format") == true)
    }

    @Test(.enabled(if: Corpus.locate() != nil, "the shared corpus is absent"))
    func corpusPhotoWithLocation() throws {
        let corpus = try #require(Corpus.locate())
        let path = corpus.url("exif-samples/heic/IMG_5195.HEIC").path
        let result = try CLIRunner.run(["info", "--json", path])
        #expect(result.status == 0)
        let record = try #require(try records(result.standardOutput).first)
        #expect(record["make"] as? String == "Apple")
        #expect(record["creationDate"] as? String == "2021-04-11T15:47:53-05:00")
        let latitude = try #require(record["latitude"] as? Double)
        #expect(abs(latitude - 39.0513444444444) < 1e-5)
        #expect(record["altitude"] as? Double != nil)
    }
}
