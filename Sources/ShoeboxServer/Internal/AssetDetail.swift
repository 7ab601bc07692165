import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxMedia

/// An asset with what the info panel shows: the camera's metadata for photos, the movie's
/// streams for movies, its files, and the albums holding it.
struct AssetDetail: Encodable {
    struct Photo: Encodable {
        let make: String?
        let model: String?
        let lens: String?
        let software: String?
        let exposureTime: Double?
        let fNumber: Double?
        let isoSpeed: Int?
        let focalLength: Double?
        let flashFired: Bool?
        let colorProfile: String?
        let dateTimeOriginal: String?
        let orientation: Int?
    }

    struct Movie: Encodable {
        let container: String
        let videoCodec: String
        let audioCodec: String?
        let frameRate: Double?
        let bitRate: Int?
        let rotation: Int
        let storedWidth: Int
        let storedHeight: Int
    }

    struct Resource: Encodable {
        let type: String
        let uniformTypeIdentifier: String
        let originalFilename: String
        let fileSize: Int
    }

    let asset: AssetJSON
    let photo: Photo?
    let movie: Movie?
    let resources: [Resource]

    init(_ asset: Asset, library: PhotoLibrary) async throws {
        self.asset = await AssetJSON.one(asset, in: library)
        resources = asset.resources.map {
            Resource(type: $0.type.rawValue, uniformTypeIdentifier: $0.uniformTypeIdentifier, originalFilename: $0.originalFilename, fileSize: $0.fileSize)
        }
        let file = try await library.originalURL(for: asset)
        switch asset.mediaType {
        case .image:
            // libvips reads the header on the blocking pool, not on the event loop.
            let metadata = try? await BlockingPool.shared.run { try Image(contentsOf: file).metadata }
            photo = metadata.map {
                Photo(
                    make: $0.make, model: $0.model, lens: $0.lensModel, software: $0.software, exposureTime: $0.exposureTime,
                    fNumber: $0.fNumber, isoSpeed: $0.isoSpeed, focalLength: $0.focalLength, flashFired: $0.flashFired,
                    colorProfile: $0.colorProfileName, dateTimeOriginal: $0.dateTimeOriginal?.iso8601String, orientation: $0.orientation?.rawValue)
            }
            movie = nil
        case .video:
            photo = nil
            let info = try? await MovieInfo(contentsOf: file)
            movie = info.map {
                Movie(
                    container: $0.container, videoCodec: $0.videoCodec, audioCodec: $0.audioCodec, frameRate: $0.frameRate, bitRate: $0.bitRate,
                    rotation: $0.rotation, storedWidth: $0.storedPixelSize.width, storedHeight: $0.storedPixelSize.height)
            }
        }
    }
}
