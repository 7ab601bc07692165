import Foundation
import ShoeboxImaging

/// One file's line in `shoebox info`, shaped as its JSON object.
struct InfoRecord: Encodable {
    struct Failure: Encodable {
        let code: String
        let message: String
    }

    let path: String
    var format: String?
    var pixelWidth: Int?
    var pixelHeight: Int?
    var storedWidth: Int?
    var storedHeight: Int?
    var orientation: Int?
    var make: String?
    var model: String?
    var lens: String?
    var creationDate: String?
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    var error: Failure?

    init(path: String, image: Image) {
        self.path = path
        format = image.format?.rawValue
        pixelWidth = image.pixelWidth
        pixelHeight = image.pixelHeight
        storedWidth = image.storedPixelSize.width
        storedHeight = image.storedPixelSize.height
        orientation = image.metadata.orientation?.rawValue
        make = image.metadata.make
        model = image.metadata.model
        lens = image.metadata.lensModel
        creationDate = image.metadata.dateTimeOriginal?.iso8601String
        latitude = image.metadata.latitude
        longitude = image.metadata.longitude
        altitude = image.metadata.altitude
    }

    init(path: String, error: ImageError) {
        self.path = path
        self.error = Failure(code: error.code.rawValue, message: error.message)
    }

    /// The human-readable line.
    var textLine: String {
        if let error { return "\(path): error: \(error.message)" }
        var parts: [String] = []
        if let format, let pixelWidth, let pixelHeight {
            parts.append("\(format) \(pixelWidth)×\(pixelHeight)")
        }
        if let storedWidth, let storedHeight, storedWidth != pixelWidth || storedHeight != pixelHeight || (orientation ?? 1) != 1 {
            parts.append("stored \(storedWidth)×\(storedHeight) orientation \(orientation ?? 1)")
        }
        let camera = [make, model].compactMap { $0 }.joined(separator: " ")
        if !camera.isEmpty { parts.append(camera) }
        if let lens { parts.append(lens) }
        if let creationDate { parts.append(creationDate) }
        if let latitude, let longitude {
            var place = String(format: "%.6f, %.6f", latitude, longitude)
            if let altitude { place += String(format: ", %.1f m", altitude) }
            parts.append(place)
        }
        return "\(path): " + parts.joined(separator: ", ")
    }
}
