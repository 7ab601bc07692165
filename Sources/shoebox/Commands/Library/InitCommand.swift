import ArgumentParser
import Foundation
import ShoeboxLibrary

struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a library (or check that one opens).")

    @OptionGroup var options: LibraryOptions

    func run() async throws {
        let library = try await options.open()
        print(library.url.path)
    }
}
