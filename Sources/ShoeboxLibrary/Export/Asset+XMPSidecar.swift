import Foundation

extension Asset {
    /// What the catalog knows of the asset as an XMP sidecar, as Lightroom, darktable and
    /// digiKam read one (and Shoebox's import reads back): when it was taken
    /// (`exif:DateTimeOriginal` and `photoshop:DateCreated`, the clock where it was taken with
    /// its offset when known), where (`exif:GPSLatitude`, `GPSLongitude`, `GPSAltitude`; left out
    /// unless `includesLocation`), its title (`dc:title`), caption (`dc:description`), keywords
    /// (each keyword's last part in `dc:subject`, a hierarchical one as `A|B|C` in
    /// `lr:hierarchicalSubject`), rating (`xmp:Rating`) and label (`xmp:Label`). An export writes
    /// it beside the file as `NAME.EXT.xmp`, so what the person corrected travels with it.
    ///
    /// ```swift
    /// try asset.xmpSidecar().write(to: folder.appendingPathComponent(asset.originalFilename + ".xmp"))
    /// ```
    public func xmpSidecar(includesLocation: Bool = true) -> Data {
        func escaped(_ text: String) -> String {
            var out = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                // XML 1.0 has no place for other control characters: they go.
                case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
                default: if scalar.value >= 0x20 { out.unicodeScalars.append(scalar) }
                }
            }
            return out
        }
        var attributes = [
            "exif:DateTimeOriginal=\"\(captureTime.localDateString)\(captureTime.offsetString ?? "")\"",
            "photoshop:DateCreated=\"\(captureTime.localDateString)\(captureTime.offsetString ?? "")\"",
        ]
        if includesLocation, let location {
            attributes.append("exif:GPSLatitude=\"\(Self.xmpCoordinate(location.latitude, positive: "N", negative: "S"))\"")
            attributes.append("exif:GPSLongitude=\"\(Self.xmpCoordinate(location.longitude, positive: "E", negative: "W"))\"")
            if let altitude = location.altitude, altitude.isFinite {
                attributes.append("exif:GPSAltitude=\"\(Int((abs(altitude) * 100).rounded()))/100\"")
                attributes.append("exif:GPSAltitudeRef=\"\(altitude < 0 ? 1 : 0)\"")
            }
        }
        if rating > 0 { attributes.append("xmp:Rating=\"\(rating)\"") }
        if let label { attributes.append("xmp:Label=\"\(escaped(label))\"") }
        var elements: [String] = []
        if let title { elements.append("<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">\(escaped(title))</rdf:li></rdf:Alt></dc:title>") }
        if let caption {
            elements.append("<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">\(escaped(caption))</rdf:li></rdf:Alt></dc:description>")
        }
        if !keywords.isEmpty {
            var leaves: [String] = []
            for keyword in keywords {
                let leaf = String(keyword.split(separator: "/").last ?? Substring(keyword))
                if !leaves.contains(leaf) { leaves.append(leaf) }
            }
            elements.append("<dc:subject><rdf:Bag>" + leaves.map { "<rdf:li>\(escaped($0))</rdf:li>" }.joined() + "</rdf:Bag></dc:subject>")
            let paths = keywords.filter { $0.contains("/") }
            if !paths.isEmpty {
                elements.append(
                    "<lr:hierarchicalSubject><rdf:Bag>"
                        + paths.map { "<rdf:li>\(escaped($0.split(separator: "/").joined(separator: "|")))</rdf:li>" }.joined()
                        + "</rdf:Bag></lr:hierarchicalSubject>")
            }
        }
        let text = """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Shoebox">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
                xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
                xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
                \(attributes.joined(separator: "\n    "))>
               \(elements.joined(separator: "\n   "))
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>

            """
        return Data(text.utf8)
    }

    /// `41,53.400000N`: degrees and decimal minutes, as XMP writes a GPS coordinate.
    static func xmpCoordinate(_ value: Double, positive: Character, negative: Character) -> String {
        let magnitude = abs(value)
        var degrees = Int(magnitude)
        var minutes = (magnitude - Double(degrees)) * 60
        if (minutes * 1_000_000).rounded() >= 60_000_000 {
            degrees += 1
            minutes = 0
        }
        return "\(degrees),\(String(format: "%.6f", minutes))\(value < 0 ? negative : positive)"
    }
}
