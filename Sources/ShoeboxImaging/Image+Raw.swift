import Foundation

extension Image {
    /// For a camera raw file, unpacks its sensor data without developing it, proving that every
    /// byte of it reads: thumbnails come from the camera's embedded preview where it is large
    /// enough, and a preview can be whole while the sensor data after it is cut short. The photo
    /// library calls it on import. For other images it does nothing (their thumbnail decodes their
    /// data).
    ///
    /// - Throws: ``ImageError/Code/corrupt`` when the sensor data ends early or is damaged.
    public func verifySensorData() throws(ImageError) {
        guard raw != nil else { return }
        try RawDecoder.verify(storage)
    }

    /// The upright pixels a raw file's thumbnail is made from, by `route`: the camera's preview
    /// (and, should it not decode, a development instead), or LibRaw's development.
    func rawSource(for route: RawLayout.Route) throws(ImageError) -> VipsImageHandle {
        guard let raw else { preconditionFailure("not a raw file") }
        switch route {
        case .preview(let shrink):
            if let preview = try? RawDecoder.preview(storage, layout: raw, shrink: shrink) {
                return preview
            }
            return try RawDecoder.develop(storage, halfSize: raw.halfSizeCovers(raw.developedSize.scaled(by: 1.0 / Double(shrink))))
        case .halfSize:
            return try RawDecoder.develop(storage, halfSize: true)
        case .fullSize:
            return try RawDecoder.develop(storage, halfSize: false)
        }
    }
}

extension RawLayout {
    /// Where a thumbnail's pixels come from.
    enum Route: Equatable {
        /// The camera's preview, a JPEG shrunk this many times while decoded (1, 2, 4 or 8).
        case preview(shrink: Int)
        /// LibRaw's half-size development: 2 × 2 sensor blocks averaged, no interpolation.
        case halfSize
        /// LibRaw's full development.
        case fullSize
    }

    /// The route for a thumbnail inside `width` × `height` (covering it with `crop`): the preview
    /// when it covers the result and has the picture's shape (cameras that crop or letterbox
    /// their previews are developed), else the smaller development that covers it.
    func route(width: Int, height: Int, crop: Bool) -> Route {
        let developed = developedSize
        let horizontal = Double(width) / Double(developed.width)
        let vertical = Double(height) / Double(developed.height)
        let scale = Swift.min(1, crop ? Swift.max(horizontal, vertical) : Swift.min(horizontal, vertical))
        let needed = developed.scaled(by: scale)
        if let preview = previewSize, preview.width >= needed.width, preview.height >= needed.height,
            abs(preview.aspectRatio / developed.aspectRatio - 1) < 0.02
        {
            let shrink = previewIsJPEG ? Swift.min(preview.width / needed.width, preview.height / needed.height) : 1
            return .preview(shrink: [8, 4, 2, 1].first { $0 <= shrink } ?? 1)
        }
        return halfSizeCovers(needed) ? .halfSize : .fullSize
    }

    /// Whether LibRaw's half-size development is at least `size`.
    func halfSizeCovers(_ size: PixelSize) -> Bool {
        size.width * 2 <= developedSize.width && size.height * 2 <= developedSize.height
    }

    /// The most memory a decode by `route` holds, in bytes: LibRaw's sensor buffer (16 bits a
    /// photosite), its four-channel 16-bit working picture and the 8-bit result for a
    /// development; the decoded preview and the sensor buffer (which ``Image/verifySensorData()``
    /// unpacks) for a preview.
    func memory(for route: Route) -> Int {
        let sensor = sensorSize.pixelCount * 2
        switch route {
        case .preview(let shrink):
            // With the sensor buffer: an import verifies the sensor data in the same reservation.
            let pixels = (previewSize?.pixelCount ?? 0) / Swift.max(1, shrink * shrink)
            return sensor + pixels * 3 * 2 + 16 << 20
        case .halfSize:
            return sensor + developedSize.pixelCount / 4 * (8 + 3) + 32 << 20
        case .fullSize:
            return sensor + developedSize.pixelCount * (8 + 3) + 32 << 20
        }
    }
}

extension PixelSize {
    /// Both sides times `factor`, rounded up, at least 1.
    fileprivate func scaled(by factor: Double) -> PixelSize {
        PixelSize(
            width: Swift.max(1, Int((Double(width) * factor).rounded(.up))),
            height: Swift.max(1, Int((Double(height) * factor).rounded(.up))))
    }

    /// Width over height.
    fileprivate var aspectRatio: Double { Double(width) / Double(Swift.max(1, height)) }
}
