import ArgumentParser
import Foundation
import ShoeboxLibrary

struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Find (and with --repair, fix) what a crash can leave in a library.",
        discussion: """
            Finds leftovers in staging, originals no asset refers to, assets whose original is \
            missing, and with --deep originals whose bytes do not match their SHA-256. --repair \
            removes staging leftovers and re-imports orphan originals (or moves them to \
            quarantine/); it never deletes an original. Exits 0 when nothing is wrong afterwards. \
            JSON: {"ok": true|false, "problems": [{"kind", "path", "localIdentifier", "message"}], \
            "repaired": [...]}.
            """)

    @OptionGroup var options: LibraryOptions
    @Flag(help: "Also check every original's hash.") var deep = false
    @Flag(help: "Repair what can be repaired without losing data.") var repair = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let library = try await options.open()
        let report: DoctorReport
        do {
            report = try await library.doctor(deep: deep, repair: repair)
        } catch {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
        if json {
            try JSONOutput.print(report)
        } else {
            for problem in report.repaired {
                print("repaired \(problem.kind): \(problem.path ?? problem.localIdentifier ?? "") — \(problem.message)")
            }
            for problem in report.problems {
                print("\(problem.kind): \(problem.path ?? problem.localIdentifier ?? "") — \(problem.message)")
            }
            print(report.ok ? "ok" : "\(report.problems.count) problem(s)")
        }
        if !report.ok { throw ExitCode.failure }
    }
}
