import Foundation

/// exiftool, the reference reader the metadata tests compare Shoebox with (Debian's
/// `libimage-exiftool-perl`, which `scripts/install-deps` installs).
public enum Exiftool {
    /// What exiftool reads from each file, keyed by the file's path as given (`url.path`), then by
    /// tag as requested.
    ///
    /// A tag is written as on exiftool's command line without the dash: `Make` (exiftool chooses
    /// among the tag's copies in EXIF, XMP, maker notes and QuickTime by its own priorities, as it
    /// does when a person runs it), `XMP-aux:Lens` (one group's copy), `Orientation#` (the number,
    /// not its printed form). Values are exiftool's text, exactly (`1.00` stays `1.00`); tags the
    /// file lacks are absent. Files are read in batches of 200, one process each.
    ///
    /// exiftool names each file by its real path, symbolic links resolved (its `FilePath`); the
    /// result is keyed by the path the caller gave, so a file reached through a linked folder
    /// (`../shared` a link to a corpus elsewhere) is still found under its own path.
    ///
    /// - Throws: ``ChildProcess/Failure`` when exiftool cannot be started or prints a line per
    ///   file that does not hold every tag.
    public static func read(_ files: [URL], tags: [String]) throws -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        var start = 0
        while start < files.count {
            let batch = files[start..<min(start + 200, files.count)]
            start += 200
            // exiftool's FilePath is the real path: back to the path (or paths) each came as.
            var given: [String: [String]] = [:]
            for file in batch { given[realPath(file.path), default: []].append(file.path) }
            // -T: a tab-separated line per file; -f: "-" for a missing tag; -ec: newlines, tabs
            // and backslashes in values escaped C-style, so a line stays a line.
            let run = try ChildProcess.run(
                "exiftool", ["-T", "-f", "-ec", "-q", "-q", "-FilePath"] + tags.map { "-" + $0 } + batch.map(\.path))
            for line in run.standardOutput.split(separator: "\n") {
                let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                guard columns.count == tags.count + 1 else {
                    throw ChildProcess.Failure("exiftool printed \(columns.count) columns, not \(tags.count + 1): \(line)")
                }
                var values: [String: String] = [:]
                for (tag, value) in zip(tags, columns.dropFirst()) where value != "-" {
                    values[tag] = unescaped(value)
                }
                for path in given[columns[0]] ?? [columns[0]] { result[path] = values }
            }
        }
        return result
    }

    /// `path` with every symbolic link resolved, as exiftool's `FilePath` gives it (Perl's
    /// `Cwd::abs_path`, which is `realpath`); `path` itself when it cannot be resolved.
    static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Undoes `-ec`: `\n`, `\t`, `\\` and the like back to the characters.
    private static func unescaped(_ value: String) -> String {
        guard value.contains("\\") else { return value }
        var result = ""
        var escaping = false
        for character in value {
            if escaping {
                switch character {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                case "0": result.append("\0")
                default: result.append(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
