import Foundation

extension PhotoLibrary {
    /// Where a library keeps its catalog and its bytes.
    ///
    /// The embedded default is SQLite in the library folder (`catalog.sqlite`) and files in it
    /// (`originals/`, `renders/`). A library that outgrows one machine names a PostgreSQL catalog
    /// instead; its folder keeps the configuration (`library.json`), the derivative cache and
    /// staging, and every process given the folder uses the same catalog. The configuration
    /// never holds a secret: PostgreSQL's password comes from `PGPASSWORD` or `~/.pgpass`.
    ///
    /// ```swift
    /// let configuration = PhotoLibrary.Configuration(catalog: .postgres(try PostgresURL("postgres://shoebox@db.local/photos")))
    /// let library = try await PhotoLibrary.create(at: URL(fileURLWithPath: "Photos.shoebox"), configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// The catalog's engine.
        public enum Catalog: Sendable {
            /// SQLite in the library folder (`catalog.sqlite`).
            case sqlite
            /// A PostgreSQL database.
            case postgres(PostgresURL)
        }

        /// Where the bytes live.
        public enum Blobs: Sendable, Hashable {
            /// Files in the library folder.
            case files
            /// An S3-compatible bucket (credentials from the environment or `~/.aws`).
            case s3(S3URL)
        }

        /// Where the catalog (assets, albums, changes, decisions, jobs) is kept; default SQLite in the
        /// library folder.
        public var catalog: Catalog
        /// Where originals and renders are kept; default files in the library folder.
        public var blobs: Blobs
        /// Where the time zone of a photo that records its place but not its UTC offset comes
        /// from (see ``CaptureTime``): ``Gazetteer/standard`` unless set; `nil` for none. Not
        /// stored in `library.json`; every process reads its own.
        public var places: Gazetteer?
        /// How changes do the work they call for after they commit: in this process by default.
        /// Not stored in `library.json`: each process that opens the library chooses (`shoebox
        /// serve` queues it, `shoebox worker` does only what it claims).
        public var backgroundWork: BackgroundWork

        /// A configuration from its parts; the defaults are the embedded library: SQLite, files,
        /// the ``Gazetteer/standard`` place table, and background work in this process.
        public init(
            catalog: Catalog = .sqlite, blobs: Blobs = .files, places: Gazetteer? = Gazetteer.standard,
            backgroundWork: BackgroundWork = .inProcess
        ) {
            self.catalog = catalog
            self.blobs = blobs
            self.places = places
            self.backgroundWork = backgroundWork
        }

        /// The configuration file's name in a library folder.
        public static let fileName = "library.json"

        /// What `library.json` holds.
        struct File: Codable {
            var version = 1
            /// `sqlite`, or a `postgres://` URL without a password.
            var catalog: String
            /// `files`, or an `s3://` URL.
            var blobs: String
        }

        /// The configuration of the library folder at `url`: its `library.json`, or the embedded
        /// default when it has none.
        ///
        /// - Throws: ``LibraryError/Code/cannotOpen`` for a file that cannot be read or
        ///   names an unknown catalog or blob store.
        public static func load(fromLibraryAt url: URL) throws(LibraryError) -> Configuration {
            let file = url.appendingPathComponent(fileName)
            guard FileManager.default.fileExists(atPath: file.path) else { return Configuration() }
            let decoded: File
            do {
                decoded = try JSONDecoder().decode(File.self, from: Data(contentsOf: file))
            } catch {
                throw .cannotOpen(path: file.path, reason: "its configuration cannot be read: \(error)")
            }
            guard decoded.version == 1 else {
                throw .cannotOpen(path: file.path, reason: "configuration version \(decoded.version) was written by a newer Shoebox")
            }
            var configuration = Configuration()
            switch decoded.catalog {
            case "sqlite":
                configuration.catalog = .sqlite
            case let text where text.hasPrefix("postgres"):
                do {
                    configuration.catalog = .postgres(try PostgresURL(text))
                } catch {
                    throw .cannotOpen(path: file.path, reason: error.message)
                }
            case let other:
                throw .cannotOpen(path: file.path, reason: "unknown catalog \(other) (sqlite or a postgres:// URL)")
            }
            switch decoded.blobs {
            case "files":
                configuration.blobs = .files
            case let text where text.hasPrefix("s3://"):
                do {
                    configuration.blobs = .s3(try S3URL(text))
                } catch {
                    throw .cannotOpen(path: file.path, reason: error.message)
                }
            case let other:
                throw .cannotOpen(path: file.path, reason: "unknown blob store \(other) (files or an s3:// URL)")
            }
            return configuration
        }

        /// Writes `library.json` into the library folder at `url` (readable by the owner only),
        /// replacing it atomically.
        public func write(toLibraryAt url: URL) throws(LibraryError) {
            let catalogText: String
            switch catalog {
            case .sqlite: catalogText = "sqlite"
            case .postgres(let postgres): catalogText = postgres.description
            }
            let blobsText: String
            switch blobs {
            case .files: blobsText = "files"
            case .s3(let url): blobsText = url.description
            }
            let file = File(catalog: catalogText, blobs: blobsText)
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                let target = url.appendingPathComponent(Self.fileName)
                try encoder.encode(file).write(to: target, options: .atomic)
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)
            } catch {
                throw .storage("cannot write \(url.appendingPathComponent(Self.fileName).path): \(error)", underlying: error)
            }
        }

        /// `files in the library`, `s3://bucket/prefix?…`.
        public var blobsDescription: String {
            switch blobs {
            case .files: "files (originals/, renders/)"
            case .s3(let url): "S3 (\(url))"
            }
        }

        /// `SQLite in the library`, `PostgreSQL at postgres://…`.
        public var catalogDescription: String {
            switch catalog {
            case .sqlite: "SQLite (catalog.sqlite)"
            case .postgres(let url): "PostgreSQL (\(url))"
            }
        }
    }
}
