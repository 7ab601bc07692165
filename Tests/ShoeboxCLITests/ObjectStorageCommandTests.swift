import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// `shoebox init --blobs`, `shoebox migrate --blobs`, and what happens when the object store goes
/// away, with the real executable against SeaweedFS.
@Suite struct ObjectStorageCommandTests {
    struct Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-cli-s3-\(UUID().uuidString)")
        var library: String { url.appendingPathComponent("Lib.shoebox").path }

        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        func photo(_ name: String, seed: UInt64) throws -> String {
            let file = url.appendingPathComponent(name)
            try SyntheticPhoto(width: 240, height: 160, seed: seed).image().write(to: file)
            return file.path
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    static func json(_ result: ChildProcess.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any], "\(result.standardOutput)")
    }

    @Test func initImportAndDoctorOnABucket() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let blobs = try S3TestServer.freshBlobsURL().replacingOccurrences(
            of: "s3://\(S3TestServer.bucket)/", with: "s3://cli-\(UUID().uuidString.prefix(8).lowercased())/")
        // A bucket that is not there is named as such, and nothing is created.
        let missing = try CLIRunner.run(["init", "--library", folder.library, "--blobs", blobs])
        #expect(missing.status != 0 && missing.standardError.contains("the bucket does not exist"), "\(missing.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.library + "/library.json"))
        let bad = try CLIRunner.run(["init", "--library", folder.library, "--blobs", "s3://"])
        #expect(bad.status != 0 && bad.standardError.hasPrefix("error: "), "\(bad.standardError)")

        let created = try CLIRunner.run(["init", "--library", folder.library, "--blobs", blobs, "--create-bucket", "--json"])
        #expect(created.status == 0, "\(created.standardError)")
        #expect(try Self.json(created)["blobs"] as? String == blobs)
        let configuration = try String(contentsOfFile: folder.library + "/library.json", encoding: .utf8)
        #expect(configuration.contains("s3://") && !configuration.contains(S3TestServer.secretKey), "no credentials in the library")

        let imported = try CLIRunner.run(["import", "--library", folder.library, try folder.photo("a.jpg", seed: 1), try folder.photo("b.jpg", seed: 2)])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.library + "/originals"), "no originals folder for a library in a bucket")
        let doctor = try CLIRunner.run(["doctor", "--library", folder.library, "--deep", "--json"])
        #expect(doctor.status == 0)
        #expect(try Self.json(doctor)["ok"] as? Bool == true, "\(doctor.standardOutput)")

        // Without credentials: a clear error, nothing half-done.
        let executable = try #require(CLIRunner.executable)
        let anonymous = try ChildProcess.run(
            "/usr/bin/env",
            [
                "-u", "AWS_ACCESS_KEY_ID", "-u", "AWS_SECRET_ACCESS_KEY", "HOME=\(folder.url.path)",
                executable.path, "ls", "--library", folder.library,
            ])
        #expect(anonymous.status != 0 && anonymous.standardError.contains("AWS_ACCESS_KEY_ID"), "\(anonymous.standardError)")
    }

    @Test func anInterruptedMoveToABucketResumesAndLosesNothing() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        var photos: [String] = []
        for index in 0..<6 { photos.append(try folder.photo("p\(index).jpg", seed: UInt64(20 + index))) }
        #expect(try CLIRunner.run(["init", "--library", folder.library]).status == 0)
        #expect(try CLIRunner.run(["import", "--library", folder.library] + photos).status == 0)
        let blobs = try S3TestServer.freshBlobsURL()
        _ = try await S3Client(url: try S3URL(blobs), credentials: try AWSCredentials.find()).createBucket()

        // Killed after the second blob is up: the library still uses its files, whole.
        let executable = try #require(CLIRunner.executable)
        let killed = try ChildProcess.run(
            "/usr/bin/env",
            [
                "SHOEBOX_FAULT=during-blob-migration:2", executable.path,
                "migrate", "--library", folder.library, "--blobs", blobs,
            ])
        #expect(killed.status != 0)
        #expect(try PhotoLibrary.Configuration.load(fromLibraryAt: URL(fileURLWithPath: folder.library)).blobs == .files)
        let listed = try CLIRunner.run(["ls", "--library", folder.library, "--json"])
        #expect(listed.status == 0 && listed.standardOutput.components(separatedBy: "localIdentifier").count - 1 == 6)

        // Again: what is up is checked, not sent again; then the switch, then the local copies go.
        let resumed = try CLIRunner.run(["migrate", "--library", folder.library, "--blobs", blobs, "--delete-local", "--json"])
        #expect(resumed.status == 0, "\(resumed.standardError)")
        let report = try Self.json(resumed)
        let copied = try #require(report["copied"] as? Int)
        let already = try #require(report["alreadyThere"] as? Int)
        #expect(already >= 2 && copied + already == 6, "\(report)")
        #expect(report["deletedLocal"] as? Int == 6)
        #expect(try PhotoLibrary.Configuration.load(fromLibraryAt: URL(fileURLWithPath: folder.library)).blobs == .s3(try S3URL(blobs)))
        let doctor = try CLIRunner.run(["doctor", "--library", folder.library, "--deep", "--json"])
        #expect(try Self.json(doctor)["ok"] as? Bool == true, "\(doctor.standardOutput)")
        let library = try await PhotoLibrary.open(at: URL(fileURLWithPath: folder.library))
        for asset in try await library.fetchAssets().allObjects() {
            let source = try Data(contentsOf: folder.url.appendingPathComponent(asset.originalFilename))
            #expect(try Data(contentsOf: try await library.originalURL(for: asset)) == source)
        }
        await library.close()
    }

    /// A store of its own, stopped and started again under the test's feet.
    @Test func aStoppedStoreGivesClearErrorsLosesNothingAndWorkResumes() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let script = Corpus.packageRoot().appendingPathComponent("scripts/s3").path
        let storeFolder = folder.url.appendingPathComponent("store").path
        let started = try ChildProcess.run(script, ["start", storeFolder])
        try #require(started.status == 0, "\(started.standardError)")
        defer { _ = try? ChildProcess.run(script, ["stop", storeFolder]) }
        let endpoint = started.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try S3TestServer.endpoint()  // the identity, in this process's environment
        let blobs = "s3://own/lib?endpoint=\(endpoint)&region=us-east-1"
        #expect(try CLIRunner.run(["init", "--library", folder.library, "--blobs", blobs, "--create-bucket"]).status == 0)
        #expect(try CLIRunner.run(["import", "--library", folder.library, try folder.photo("kept.jpg", seed: 1)]).status == 0)

        #expect(try ChildProcess.run(script, ["halt", storeFolder]).status == 0)
        let refused = try CLIRunner.run(["import", "--library", folder.library, try folder.photo("later.jpg", seed: 2)])
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("cannot reach the object store at \(endpoint) (connection refused)"), "\(refused.standardError)")
        // Nothing half-made: no staging leftovers, the earlier photo still listed.
        let staging = try FileManager.default.contentsOfDirectory(atPath: folder.library + "/staging")
        #expect(staging.isEmpty, "\(staging)")

        let restarted = try ChildProcess.run(script, ["start", storeFolder])
        #expect(
            restarted.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == endpoint,
            "the same endpoint again: \(restarted.standardError)")
        let retried = try CLIRunner.run(["import", "--library", folder.library, folder.url.appendingPathComponent("later.jpg").path, "--json"])
        #expect(retried.status == 0, "\(retried.standardError)")
        let listed = try CLIRunner.run(["ls", "--library", folder.library, "--json"])
        #expect(listed.standardOutput.contains("kept.jpg") && listed.standardOutput.contains("later.jpg"))
        let doctor = try CLIRunner.run(["doctor", "--library", folder.library, "--deep", "--json"])
        #expect(try Self.json(doctor)["ok"] as? Bool == true, "\(doctor.standardOutput)")
    }

    /// SIGKILL in the middle of a multipart upload (parts of 5 MiB, so a 7 MB photo goes up in
    /// two): nothing is lost, the import never happened, and once the sweeper ran no part of it
    /// is left in the bucket; the same import then succeeds.
    @Test func aKillInTheMiddleOfAnUploadLeavesNothingOnceSwept() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let blobs = try S3URL(try S3TestServer.freshBlobsURL())
        let client = S3Client(url: blobs, credentials: try AWSCredentials.find())
        try await client.createBucket()
        #expect(try CLIRunner.run(["init", "--library", folder.library, "--blobs", blobs.description]).status == 0)
        let photo = folder.url.appendingPathComponent("big.png")
        try SyntheticPhoto(width: 2_400, height: 1_600, seed: 5).image().write(to: photo)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: photo.path)[.size] as? Int)
        try #require(size > 5 << 20, "the photo must take more than one part: \(size) bytes")
        let source = try Data(contentsOf: photo)

        let executable = try #require(CLIRunner.executable)
        let threshold = "SHOEBOX_S3_MULTIPART_THRESHOLD=\(5 << 20)"
        let killed = try ChildProcess.run(
            "/usr/bin/env",
            [
                "SHOEBOX_FAULT=during-multipart-upload:1", threshold, executable.path,
                "import", "--library", folder.library, photo.path,
            ])
        #expect(killed.status == 128 + SIGKILL, "\(killed.standardError)")
        #expect(try await client.listMultipartUploads(prefix: blobs.prefix).count == 1, "killed with a part up and the upload open")
        #expect(try Data(contentsOf: photo) == source, "the user's file is untouched")

        let library = try await PhotoLibrary.open(at: URL(fileURLWithPath: folder.library))
        #expect(try await library.fetchAssets().count == 0, "the import never committed")
        let swept = try await library.sweep(olderThan: 0)
        // Opening removed the import's staged copy; the sweeper aborts the upload.
        #expect(swept.repaired.map(\.kind) == ["stagingLeftover", "staleUpload"], "\(swept.repaired)")
        #expect(try await client.listMultipartUploads(prefix: blobs.prefix).isEmpty)
        #expect(try await client.listObjects(prefix: blobs.key("originals/")).isEmpty, "no unreferenced object")
        await library.close()

        let again = try ChildProcess.run("/usr/bin/env", [threshold, executable.path, "import", "--library", folder.library, photo.path])
        #expect(again.status == 0, "\(again.standardError)")
        let reopened = try await PhotoLibrary.open(at: URL(fileURLWithPath: folder.library))
        let asset = try await #require(try reopened.fetchAssets().firstObject)
        try FileManager.default.removeItem(at: URL(fileURLWithPath: folder.library).appendingPathComponent("cache"))
        #expect(try Data(contentsOf: try await reopened.originalURL(for: asset)) == source, "read back from the bucket, whole")
        #expect(try await reopened.doctor(deep: true).ok)
        await reopened.close()
    }
}
