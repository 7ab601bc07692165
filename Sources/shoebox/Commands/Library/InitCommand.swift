import ArgumentParser
import Foundation
import ShoeboxLibrary

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a library (or check that one opens).")

    @OptionGroup var options: LibraryOptions

    func run() throws {
        let library = try options.open()
        print(library.url.path)
    }
}
