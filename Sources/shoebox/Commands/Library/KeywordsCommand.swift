import ArgumentParser
import ShoeboxLibrary

struct KeywordsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keywords", abstract: "List the library's keywords with how many assets have each (shoebox ls --keyword K lists them).")
    @OptionGroup var options: LibraryOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let keywords = try await options.using { try await $0.fetchKeywords() }
        if json {
            struct Row: Encodable {
                let keyword: String
                let count: Int
            }
            try JSONOutput.print(keywords.map { Row(keyword: $0.keyword, count: $0.count) })
            return
        }
        for keyword in keywords { print("\(keyword.count)\t\(keyword.keyword)") }
    }
}
