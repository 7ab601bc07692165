extension Image {
    /// The upright image turned clockwise by `quarterTurns` × 90° (negative turns go
    /// anticlockwise; any whole number is accepted and taken modulo 4).
    ///
    /// ```swift
    /// let portrait = try landscape.rotated(byQuarterTurns: 1)   // 90° clockwise
    /// ```
    ///
    /// - Returns: An upright in-memory image (orientation 1).
    /// - Throws: ``ImageError/Code/corrupt`` when the pixels cannot be decoded.
    public func rotated(byQuarterTurns quarterTurns: Int) throws(ImageError) -> Image {
        let turns = ((quarterTurns % 4) + 4) % 4
        let pipeline = try uprightPipeline(randomAccess: turns != 0)
        let turned = turns == 0 ? pipeline : try pipeline.rotated(quarterTurns: turns)
        return Image(raster: try turned.materialized().markedUpright(), metadata: metadata)
    }

    /// The upright image mirrored left to right, as a front camera's preview is shown.
    ///
    /// - Returns: An upright in-memory image (orientation 1).
    /// - Throws: ``ImageError/Code/corrupt`` when the pixels cannot be decoded.
    public func mirrored() throws(ImageError) -> Image {
        Image(raster: try uprightPipeline().mirrored().materialized().markedUpright(), metadata: metadata)
    }
}
