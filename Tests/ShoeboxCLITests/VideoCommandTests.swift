import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@Suite struct VideoCommandTests {
    let folder: URL
    let movie: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-video-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        movie = try SyntheticMovie(duration: 2, width: 320, height: 240, rotation: 90).write(to: folder.appendingPathComponent("clip.mov"))
    }

    func object(_ output: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    @Test func infoJSON() throws {
        let result = try CLIRunner.run(["video", "info", "--json", movie.path])
        #expect(result.status == 0, "\(result.standardError)")
        let info = try object(result.standardOutput)
        for key in ["container", "duration", "pixelWidth", "pixelHeight", "rotation", "frameRate", "videoCodec", "audioCodec"] {
            #expect(info[key] != nil, "\(key) missing")
        }
        #expect(info["container"] as? String == "mov")
        #expect(info["pixelWidth"] as? Int == 320 && info["pixelHeight"] as? Int == 240)
        #expect(info["rotation"] as? Int == 90)
        #expect(info["displayWidth"] as? Int == 240)
        #expect(abs((info["duration"] as? Double ?? 0) - 2) < 0.05)
        #expect(info["videoCodec"] as? String == "h264")
        #expect(info["audioCodec"] as? String == "aac")
    }

    @Test func unreadableFileExitsOneWithAnErrorObject() throws {
        let bad = folder.appendingPathComponent("bad.mp4")
        try Data("not a movie".utf8).write(to: bad)
        let result = try CLIRunner.run(["video", "info", "--json", bad.path])
        #expect(result.status == 1)
        let error = try #require(try object(result.standardOutput)["error"] as? [String: Any])
        #expect(error["code"] as? String == "unsupportedFormat")
        #expect((error["message"] as? String)?.isEmpty == false)
    }

    @Test func trimTranscodeAndPoster() throws {
        let clip = folder.appendingPathComponent("cut.mp4")
        let trim = try CLIRunner.run(["video", "trim", movie.path, "--start", "0.5", "--end", "1.5", "-o", clip.path, "--json"])
        #expect(trim.status == 0, "\(trim.standardError)")
        #expect(abs((try object(trim.standardOutput)["duration"] as? Double ?? 0) - 1) < 0.1)

        let small = folder.appendingPathComponent("small.mp4")
        let transcode = try CLIRunner.run(["video", "transcode", movie.path, "--quality", "typeLow", "-o", small.path, "--json"])
        #expect(transcode.status == 0, "\(transcode.standardError)")
        let info = try object(transcode.standardOutput)
        #expect(info["displayWidth"] as? Int == 144 && info["displayHeight"] as? Int == 192)

        let poster = folder.appendingPathComponent("poster.jpg")
        let grab = try CLIRunner.run(["video", "poster", movie.path, "--time", "1", "-o", poster.path])
        #expect(grab.status == 0, "\(grab.standardError)")
        #expect(try Image(contentsOf: poster).pixelSize == PixelSize(width: 240, height: 320))

        let tooLong = try CLIRunner.run(["video", "trim", movie.path, "--end", "2", "--max-duration", "1", "-o", clip.path])
        #expect(tooLong.status == 1)
        #expect(tooLong.standardError.contains("maximum"))
    }

    /// Issue 18 item 15: a trim past the end says so: an error for the start, a note for the end.
    @Test func aTrimPastTheEndSaysSo() throws {
        let clip = folder.appendingPathComponent("late.mp4")
        let late = try CLIRunner.run(["video", "trim", movie.path, "--start", "30", "-o", clip.path])
        #expect(late.status == 1 && late.standardError.contains("after the movie's end"), "\(late.standardError)")
        #expect(!FileManager.default.fileExists(atPath: clip.path))
        let clamped = try CLIRunner.run(["video", "trim", movie.path, "--start", "1", "--end", "30", "-o", clip.path, "--json"])
        #expect(clamped.status == 0, "\(clamped.standardError)")
        #expect(clamped.standardError.contains("note: --end 30 s is past the movie's end"), "\(clamped.standardError)")
        let duration = try #require(try object(clamped.standardOutput)["duration"] as? Double)
        #expect(abs(duration - 1) < 0.1, "the clip runs from 1 s to the 2 s end: \(duration)")
        // A usage error is 64, as the README says.
        #expect(try CLIRunner.run(["video", "trim", movie.path]).status == 64)
    }

    @Test func infoJSONHasEveryKeyEvenWhenUnknown() throws {
        let silent = try SyntheticMovie(duration: 1, width: 160, height: 120, hasAudio: false).write(to: folder.appendingPathComponent("silent.mp4"))
        let result = try CLIRunner.run(["video", "info", "--json", silent.path])
        #expect(result.status == 0, "\(result.standardError)")
        let info = try object(result.standardOutput)
        for key in [
            "container", "duration", "pixelWidth", "pixelHeight", "rotation", "frameRate", "videoCodec", "audioCodec",
            "creationDate", "latitude", "longitude", "bitRate", "compatible",
        ] {
            #expect(info.keys.contains(key), "\(key) missing")
        }
        #expect(info["audioCodec"] is NSNull && info["latitude"] is NSNull && info["creationDate"] is NSNull)
    }

    @Test func namesThatLookLikeOptionsAreJustNames() throws {
        let dashed = folder.appendingPathComponent("-y.mov")
        try FileManager.default.copyItem(at: movie, to: dashed)
        let result = try CLIRunner.run(["video", "info", "--json", "--", dashed.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try object(result.standardOutput)["videoCodec"] as? String == "h264")
        let poster = folder.appendingPathComponent("-poster.jpg")
        let grab = try CLIRunner.run(["video", "poster", dashed.path, "-o", poster.path])
        #expect(grab.status == 0, "\(grab.standardError)")
        #expect(FileManager.default.fileExists(atPath: poster.path))
    }

    @Test func missingToolsAreClearErrors() throws {
        let executable = try #require(CLIRunner.executable)
        let result = try ChildProcess.run("/usr/bin/env", ["SHOEBOX_FFPROBE=/nonexistent/ffprobe", executable.path, "video", "info", "--json", movie.path])
        #expect(result.status == 1)
        let error = try #require(try object(result.standardOutput)["error"] as? [String: Any])
        #expect(error["code"] as? String == "toolMissing")
        #expect((error["message"] as? String)?.contains("ffprobe") == true)
    }

    @Test func badTrimRangesAreErrorsNotCrashes() throws {
        let clip = folder.appendingPathComponent("never.mp4")
        let backwards = try CLIRunner.run(["video", "trim", movie.path, "--start", "1.5", "--end", "0.5", "-o", clip.path])
        #expect(backwards.status == 64 && backwards.standardError.contains("--end must come after --start"))
        let pastTheEnd = try CLIRunner.run(["video", "trim", movie.path, "--start", "5", "-o", clip.path, "--json"])
        #expect(pastTheEnd.status == 1)
        #expect(try object(pastTheEnd.standardOutput)["error"] != nil)
        let notANumber = try CLIRunner.run(["video", "trim", movie.path, "--start", "nan", "-o", clip.path])
        #expect(notANumber.status == 64)
        #expect(!FileManager.default.fileExists(atPath: clip.path))
    }

    /// Issue 39 item 4: a poster time past the clip's end fails and names the clip's length,
    /// instead of quietly writing the first frame.
    @Test func aPosterTimePastTheEndNamesTheDuration() throws {
        let poster = folder.appendingPathComponent("late.jpg")
        let result = try CLIRunner.run(["video", "poster", movie.path, "--time", "99", "-o", poster.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("--time 99 s is past the end of the movie, which is 2.0 s long"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: poster.path))
        let json = try CLIRunner.run(["video", "poster", movie.path, "--time", "99", "-o", poster.path, "--json"])
        #expect(json.status == 1)
        #expect((try object(json.standardOutput)["error"] as? [String: Any])?["code"] as? String == "invalidArgument")
    }

    @Test func posterJSON() throws {
        let poster = folder.appendingPathComponent("frame.png")
        let result = try CLIRunner.run(["video", "poster", movie.path, "--time", "0.5", "--size", "100", "-o", poster.path, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let written = try object(result.standardOutput)
        #expect(written["pixelWidth"] as? Int == 75 && written["pixelHeight"] as? Int == 100 && written["time"] as? Double == 0.5)
        let broken = folder.appendingPathComponent("broken.mov")
        try Data("nope".utf8).write(to: broken)
        let failure = try CLIRunner.run(["video", "poster", broken.path, "-o", poster.path, "--json"])
        let reported = try object(failure.standardOutput)["error"]
        #expect(failure.status == 1 && reported != nil)
    }

    @Test("Every video command has --help", arguments: ["info", "poster", "trim", "transcode"])
    func help(_ command: String) throws {
        let result = try CLIRunner.run(["video", command, "--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("USAGE"))
    }
}
