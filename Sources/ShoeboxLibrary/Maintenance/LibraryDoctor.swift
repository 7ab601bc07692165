import Crypto
import Foundation

/// What `doctor` found in a library.
public struct DoctorReport: Sendable, Codable {
    /// One inconsistency.
    public struct Problem: Sendable, Codable, Hashable {
        /// `stagingLeftover`, `orphanOriginal`, `missingOriginal`, `hashMismatch`, `strayFile`.
        public let kind: String
        public let path: String?
        public let localIdentifier: String?
        public let message: String
    }

    /// Whether nothing is wrong (after repairs, if asked).
    public var ok: Bool { problems.isEmpty }
    /// What is wrong now.
    public let problems: [Problem]
    /// What was repaired (with `repair: true`).
    public let repaired: [Problem]

    enum CodingKeys: String, CodingKey { case ok, problems, repaired }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ok, forKey: .ok)
        try container.encode(problems, forKey: .problems)
        try container.encode(repaired, forKey: .repaired)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        problems = try container.decode([Problem].self, forKey: .problems)
        repaired = try container.decodeIfPresent([Problem].self, forKey: .repaired) ?? []
    }

    init(problems: [Problem], repaired: [Problem]) {
        self.problems = problems
        self.repaired = repaired
    }
}

extension PhotoLibrary {
    /// Checks the library for what a crash or a hand on the files can leave behind, and repairs
    /// what can be repaired without losing anything the user imported.
    ///
    /// - Leftovers in `staging/` (an import that never committed; the user's file is untouched
    ///   where it came from): removed on repair.
    /// - Originals no asset refers to (a crash between the rename and the catalog commit):
    ///   re-imported on repair, or moved to `quarantine/` if they no longer import. Never deleted.
    /// - Assets whose original is missing: reported (nothing can bring the bytes back).
    /// - With `deep`, originals whose bytes no longer match their SHA-256 name: reported.
    ///
    /// Files another process is importing right now are locked and left alone.
    public func doctor(deep: Bool = false, repair: Bool = false) async throws(LibraryError) -> DoctorReport {
        var problems: [DoctorReport.Problem] = []
        var repaired: [DoctorReport.Problem] = []
        let fileManager = FileManager.default

        // Staging leftovers.
        for name in (try? fileManager.contentsOfDirectory(atPath: blobs.staging.path)) ?? [] {
            let path = blobs.staging.appendingPathComponent(name).path
            if FileLock.isLocked(path) { continue }
            let problem = DoctorReport.Problem(kind: "stagingLeftover", path: path, localIdentifier: nil,
                                               message: "an import that never finished left \(name) in staging")
            if repair, (try? fileManager.removeItem(atPath: path)) != nil {
                repaired.append(problem)
            } else {
                problems.append(problem)
            }
        }

        // Every original against the catalog.
        let assets = try fetchAssets(with: FetchOptions(sortDescriptors: [], includeHiddenAssets: true, includeTrashedAssets: true))
        var hashes: [String: String] = [:]
        for asset in assets { hashes[asset.contentHash] = asset.localIdentifier }
        var present = Set<String>()
        for folder in (try? fileManager.contentsOfDirectory(atPath: blobs.originals.path)) ?? [] {
            let folderURL = blobs.originals.appendingPathComponent(folder)
            for name in (try? fileManager.contentsOfDirectory(atPath: folderURL.path)) ?? [] {
                let url = folderURL.appendingPathComponent(name)
                guard name.count == 64, name.hasPrefix(folder), name.allSatisfy(\.isHexDigit) else {
                    problems.append(.init(kind: "strayFile", path: url.path, localIdentifier: nil, message: "\(name) is not an original's name"))
                    continue
                }
                present.insert(name)
                if FileLock.isLocked(url.path) { continue }
                if deep, let actual = Self.sha256(of: url), actual != name {
                    problems.append(.init(kind: "hashMismatch", path: url.path, localIdentifier: hashes[name],
                                          message: "the bytes hash to \(actual), not to their name"))
                    continue
                }
                guard hashes[name] == nil else { continue }
                let problem = DoctorReport.Problem(kind: "orphanOriginal", path: url.path, localIdentifier: nil,
                                                   message: "no asset refers to this original")
                if repair {
                    repaired.append(try await adoptOrphan(url, problem: problem))
                } else {
                    problems.append(problem)
                }
            }
        }
        for asset in assets where !present.contains(asset.contentHash) {
            problems.append(.init(kind: "missingOriginal", path: originalURL(for: asset).path, localIdentifier: asset.localIdentifier,
                                  message: "the original of \(asset.originalFilename) is missing"))
        }
        return DoctorReport(problems: problems, repaired: repaired)
    }

    /// Re-imports an orphan original, or quarantines it if it no longer imports.
    private func adoptOrphan(_ url: URL, problem: DoctorReport.Problem) async throws(LibraryError) -> DoctorReport.Problem {
        do {
            try await performChanges {
                _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url)
            }
            return DoctorReport.Problem(kind: problem.kind, path: problem.path, localIdentifier: nil, message: "re-imported")
        } catch {
            let destination = blobs.quarantine.appendingPathComponent(url.lastPathComponent)
            do {
                try FileManager.default.createDirectory(at: blobs.quarantine, withIntermediateDirectories: true)
                try FileManager.default.moveItem(at: url, to: destination)
            } catch {
                throw .storage("cannot quarantine \(url.path): \(error)")
            }
            return DoctorReport.Problem(kind: problem.kind, path: destination.path, localIdentifier: nil,
                                        message: "moved to quarantine: it no longer imports (\(error))")
        }
    }

    /// The SHA-256 of a file as lowercase hex: the ``Asset/contentHash`` the library gives those
    /// bytes, and the original's file name. `nil` if the file cannot be read.
    public static func contentHash(of url: URL) -> String? {
        sha256(of: url)
    }

    static func sha256(of url: URL) -> String? {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return nil }
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
