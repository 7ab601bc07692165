import Foundation

/// The endpoints `docs/API.md` lists in its tables, read from the document itself, so that the
/// authorization matrix fails when the document gains an endpoint the matrix lacks.
///
/// Each table row's first cell names one or more endpoints as code spans: `METHOD /path`,
/// further paths after it (`…/remove` replaces the previous path's last part, `/x` in the picker
/// page's table is under its `…/ui` prefix), bodies (`{…}`) and type names, which are skipped.
/// Paths are compared in a canonical form: no query, and each placeholder segment (`ID`,
/// `SERVICE`, `PATH`, `**`, …) written `{}`.
struct APIDocument {
    struct Endpoint: Hashable, CustomStringConvertible {
        let method: String
        /// Canonical: `/api/assets/{}/thumbnail`.
        let path: String
        var description: String { "\(method) \(path)" }
    }

    /// The endpoints, in the document's order, with the heading each was found under.
    let endpoints: [(endpoint: Endpoint, section: String)]

    static let methods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE"]
    /// Where the picker page's table lives, and what its paths are under.
    static let pickerPageSection = "The picker page's own routes"
    static let pickerPagePrefix = "/api/picker/sessions/ID/ui"

    /// `docs/API.md` of this checkout.
    static func load(file: String = #filePath) throws -> APIDocument {
        var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        while folder.path != "/", !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder = folder.deletingLastPathComponent()
        }
        let url = folder.appendingPathComponent("docs/API.md")
        return try APIDocument(text: String(contentsOf: url, encoding: .utf8))
    }

    init(text: String) throws {
        var found: [(Endpoint, String)] = []
        var section = ""
        for rawLine in text.components(separatedBy: "\n") {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") {
                section = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
                continue
            }
            guard line.hasPrefix("|") else { continue }
            let cells = Self.cells(of: line)
            guard let first = cells.first else { continue }
            for endpoint in try Self.endpoints(inCell: first, section: section) { found.append((endpoint, section)) }
        }
        endpoints = found
    }

    /// A table row's cells (a `|` inside a code span does not split: `"smartAlbum"\|"album"`).
    static func cells(of line: String) -> [String] {
        var cells: [String] = []
        var current = ""
        var inCode = false
        var previous: Character = " "
        for character in line.dropFirst() {
            if character == "`" { inCode.toggle() }
            if character == "|", !inCode, previous != "\\" {
                cells.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current.append(character)
            }
            previous = character
        }
        return cells
    }

    static func codeSpans(_ text: String) -> [String] {
        text.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    }

    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    /// The endpoints one first cell names (none for a cell without a method: a header).
    static func endpoints(inCell cell: String, section: String) throws -> [Endpoint] {
        let spans = codeSpans(cell)
        guard spans.contains(where: { methods.contains(String($0.split(separator: " ").first ?? "")) }) else { return [] }
        let inPickerPage = section == pickerPageSection
        var result: [Endpoint] = []
        var method: String?
        var previousPath: String? = inPickerPage ? pickerPagePrefix : nil
        for span in spans {
            var text = span.trimmingCharacters(in: .whitespaces)
            let words = text.split(separator: " ", maxSplits: 1).map(String.init)
            if let word = words.first, methods.contains(word) {
                method = word
                guard words.count == 2 else { continue }  // `GET` alone: the path comes next (`…/ui` itself)
                text = words[1].trimmingCharacters(in: .whitespaces)
            }
            var path: String
            if text.hasPrefix("…/") {
                guard let base = previousPath else { throw ParseError(description: "\(section): \(span) follows no path in \(cell)") }
                var parts = base.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
                parts.removeLast()
                path = parts.joined(separator: "/") + "/" + text.dropFirst(2)
            } else if text.hasPrefix("/") {
                path = inPickerPage && !text.hasPrefix("/api/") ? pickerPagePrefix + text : text
            } else {
                continue  // a body (`{…}`), a type (`PickerRequest`), a filter list
            }
            guard let method else { throw ParseError(description: "\(section): \(span) has no method in \(cell)") }
            // A path after another in the same parentheses is its alias (`/app/PATH` (`/app/**`)).
            path = canonical(path)
            previousPath = path.replacingOccurrences(of: "{}", with: "ID")
            let endpoint = Endpoint(method: method, path: path)
            if !result.contains(endpoint) { result.append(endpoint) }
        }
        return result
    }

    /// No query (`?…`, `[?…]`), placeholders as `{}`.
    static func canonical(_ path: String) -> String {
        var path = path
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "[" }) { path = String(path[..<cut]) }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            let text = String(segment)
            if text == "**" || (text.count > 1 && text.allSatisfy { $0.isUppercase || $0 == "_" }) || (text.hasPrefix("{") && text.hasSuffix("}")) {
                return "{}"
            }
            return text
        }
        let joined = segments.joined(separator: "/")
        return joined.count > 1 && joined.hasSuffix("/") ? String(joined.dropLast()) : joined
    }
}
