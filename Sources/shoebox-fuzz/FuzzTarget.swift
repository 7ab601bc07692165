import Foundation

/// The fuzz targets: one per parser of untrusted input that Shoebox wrote. The raw value is the
/// name `scripts/fuzz` takes and the folder of its seed corpus under `Tests/Fuzz/Corpus/`.
enum FuzzTarget: String, CaseIterable {
    case tiff, heif, png, xmp, mp4, container, upload, json, query, location, passkey

    /// Feeds one input to the target's parser, the way the product does.
    func run(_ data: Data) {
        switch self {
        case .tiff: TIFFFuzzTarget.run(data)
        case .heif: HEIFFuzzTarget.run(data)
        case .png: PNGFuzzTarget.run(data)
        case .xmp: XMPFuzzTarget.run(data)
        case .mp4: MP4FuzzTarget.run(data)
        case .container: ContainerFuzzTarget.run(data)
        case .upload: UploadFuzzTarget.run(data)
        case .json: JSONBodyFuzzTarget.run(data)
        case .query: QueryFuzzTarget.run(data)
        case .location: LocationFuzzTarget.run(data)
        case .passkey: PasskeyFuzzTarget.run(data)
        }
    }
}
