import Foundation
import ShoeboxImaging

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What an XMP sidecar (`IMG_0042.CR2.xmp` or `IMG_0042.xmp`, as Lightroom, darktable, digiKam
/// and Apple's export write them) says of its photo: when and where it was taken, its title,
/// caption, keywords, rating and label.
///
/// The packet is parsed as XML with its namespaces resolved, so properties are found whatever
/// prefixes the writer chose, whether written as attributes of `rdf:Description` or as elements,
/// and lists (`rdf:Bag`, `rdf:Seq`, `rdf:Alt`) read whole. Read: `exif:DateTimeOriginal`, else
/// `photoshop:DateCreated`, else `xmp:CreateDate`; `exif:GPSLatitude`/`GPSLongitude`/`GPSAltitude`;
/// `dc:title`; `dc:description`; keywords from `lr:hierarchicalSubject` (Lightroom, `A|B|C`)
/// or `digiKam:TagsList` (`A/B/C`) as paths `A/B/C`, with the flat `dc:subject` words that no
/// path ends in; `xmp:Rating` (Lightroom's -1, rejected, reads as no rating); `xmp:Label`.
struct XMPSidecar: Sendable, Hashable {
    /// When it was taken, as the sidecar writes it (a time without a zone is the clock's).
    var date: ImageMetadata.DateTime?
    /// Where it was taken.
    var location: Asset.Location?
    /// Title, caption, keywords, rating and label; `nil` fields the sidecar does not hold.
    var details = AssetUpdate.Details()

    /// Whether the sidecar says nothing Shoebox keeps.
    var isEmpty: Bool { date == nil && location == nil && details.isEmpty }

    /// Whether `url` names an XMP sidecar, by its extension.
    static func isSidecar(_ url: URL) -> Bool { url.pathExtension.lowercased() == "xmp" }

    /// Reads the sidecar at `url`; `path` names it in errors.
    init(contentsOf url: URL, path: String) async throws(LibraryError) {
        let data = try await ImportSidecars.read(url, path: path, kind: "XMP sidecar")
        do {
            self = try Self(data: data)
        } catch {
            throw .importFailed(path: path, code: .corrupt, message: "an XMP sidecar that cannot be read: \(error.reason); its photo was imported without it")
        }
    }

    /// Why bytes are no XMP packet.
    struct ParseError: Error {
        let reason: String
    }

    /// Reads a packet.
    init(data: Data) throws(ParseError) {
        guard data.count <= 16 << 20 else { throw ParseError(reason: "it is larger than 16 MB") }
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        guard parser.parse() else {
            let line = parser.lineNumber
            let cause = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "it is not well-formed XML"
            throw ParseError(reason: "it is not well-formed XML (line \(line): \(cause))")
        }
        // libxml2 leaves a packet cut short without an error: its root must have closed.
        guard reader.closedRoot else { throw ParseError(reason: "it is not well-formed XML (it ends before its first element closes)") }
        guard reader.sawRDF else { throw ParseError(reason: "it holds no RDF description (rdf:RDF), so it is no XMP packet") }
        let values = reader.values
        func first(_ namespace: String, _ name: String) -> String? {
            values[Reader.Name(namespace: namespace, local: name)]?.first { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        }
        date =
            [(Reader.exif, "DateTimeOriginal"), (Reader.photoshop, "DateCreated"), (Reader.xmp, "CreateDate")]
            .lazy.compactMap { first($0.0, $0.1).flatMap(ImageMetadata.DateTime.init(iso8601:)) }.first
        if let north = first(Reader.exif, "GPSLatitude").flatMap({ Self.coordinate($0, positive: "N", negative: "S", bound: 90) }),
            let east = first(Reader.exif, "GPSLongitude").flatMap({ Self.coordinate($0, positive: "E", negative: "W", bound: 180) })
        {
            var altitude = first(Reader.exif, "GPSAltitude").flatMap(ImageMetadata.xmpRational).flatMap { abs($0) < 100_000 ? $0 : nil }
            if first(Reader.exif, "GPSAltitudeRef") == "1" { altitude = altitude.map { -$0 } }
            location = Asset.Location(latitude: north, longitude: east, altitude: altitude)
        }
        details.title = first(Reader.dc, "title")
        details.caption = first(Reader.dc, "description")
        details.label = first(Reader.xmp, "Label")
        if let rating = first(Reader.xmp, "Rating").flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }), rating.isFinite {
            details.rating = max(0, min(5, Int(rating.rounded())))
        }
        var paths = (values[Reader.Name(namespace: Reader.lightroom, local: "hierarchicalSubject")] ?? []).map { Self.path($0, separator: "|") }
        paths += (values[Reader.Name(namespace: Reader.digiKam, local: "TagsList")] ?? []).map { Self.path($0, separator: "/") }
        paths = paths.filter { !$0.isEmpty }
        // A flat keyword the writer also wrote as a path's last part is that path.
        let leaves = Set(paths.compactMap { $0.split(separator: "/").last.map { $0.lowercased() } })
        let flat = (values[Reader.Name(namespace: Reader.dc, local: "subject")] ?? [])
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty && !leaves.contains($0.lowercased()) }
        if !paths.isEmpty || !flat.isEmpty { details.keywords = paths + flat }
    }

    /// A hierarchical keyword as a path: `Places|Italy|Rome` → `Places/Italy/Rome`.
    private static func path(_ text: String, separator: Character) -> String {
        text.split(separator: separator).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }.joined(separator: "/")
    }

    /// `41,53.4N`, `12,29,30E` or `41.89N` as signed degrees, as XMP writes them; a plain signed
    /// number, as some tools write, is read too.
    static func coordinate(_ text: String, positive: Character, negative: Character, bound: Double) -> Double? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let plain = Double(text) { return plain.isFinite && abs(plain) <= bound ? plain : nil }
        return ImageMetadata.xmpCoordinate(text, positive: positive, negative: negative, bound: bound)
    }

    /// Collects every property's text values, by namespace and local name, as the parser reads
    /// the packet: attributes of a description, simple elements, and the items of a list.
    private final class Reader: NSObject, XMLParserDelegate {
        static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
        static let dc = "http://purl.org/dc/elements/1.1/"
        static let xmp = "http://ns.adobe.com/xap/1.0/"
        static let exif = "http://ns.adobe.com/exif/1.0/"
        static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
        static let lightroom = "http://ns.adobe.com/lightroom/1.0/"
        static let digiKam = "http://www.digikam.org/ns/1.0/"

        struct Name: Hashable {
            let namespace: String
            let local: String
        }

        private(set) var values: [Name: [String]] = [:]
        private(set) var sawRDF = false
        /// Whether the document's first element closed (a document cut short never does).
        private(set) var closedRoot = false
        /// The namespaces declared by each open element, innermost last.
        private var scopes: [[String: String]] = []
        /// The open elements, resolved.
        private var open: [Name] = []
        private var text = ""

        private func resolve(_ qualified: String) -> Name? {
            let parts = qualified.split(separator: ":", maxSplits: 1).map(String.init)
            let prefix = parts.count == 2 ? parts[0] : ""
            let local = parts.count == 2 ? parts[1] : parts[0]
            for scope in scopes.reversed() {
                if let namespace = scope[prefix] { return Name(namespace: namespace, local: local) }
            }
            return prefix.isEmpty ? Name(namespace: "", local: local) : nil
        }

        /// The property an element's text belongs to: the element itself, or for a list's
        /// `rdf:li`, the property holding the list.
        private var property: Name? {
            guard let innermost = open.last else { return nil }
            guard innermost.namespace == Self.rdf else { return innermost }
            guard innermost.local == "li", open.count >= 3, open[open.count - 2].namespace == Self.rdf else { return nil }
            return open[open.count - 3]
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            var scope: [String: String] = [:]
            for (key, value) in attributes where key == "xmlns" || key.hasPrefix("xmlns:") {
                scope[key == "xmlns" ? "" : String(key.dropFirst(6))] = value
            }
            scopes.append(scope)
            let name = resolve(elementName) ?? Name(namespace: "", local: elementName)
            open.append(name)
            text = ""
            if name.namespace == Self.rdf, name.local == "RDF" { sawRDF = true }
            // `<rdf:Description exif:DateTimeOriginal="…">`: properties as attributes.
            if name.namespace == Self.rdf, name.local == "Description" {
                for (key, value) in attributes where !(key == "xmlns" || key.hasPrefix("xmlns:")) {
                    if let attribute = resolve(key), attribute.namespace != Self.rdf, attribute.namespace != "" {
                        values[attribute, default: []].append(value)
                    }
                }
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !value.isEmpty, let property {
                values[property, default: []].append(value)
            }
            text = ""
            open.removeLast()
            scopes.removeLast()
            if open.isEmpty { closedRoot = true }
        }
    }
}
