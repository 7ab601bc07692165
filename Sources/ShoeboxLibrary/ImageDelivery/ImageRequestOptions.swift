import Foundation
import ShoeboxImaging

/// How ``ImageManager`` delivers an image (`PHImageRequestOptions`).
public struct ImageRequestOptions: Sendable {
    /// How many results, and how good (`PHImageRequestOptionsDeliveryMode`).
    public enum DeliveryMode: Sendable, Hashable {
        /// A quick degraded result first when one is cached (a smaller derivative), then the
        /// final one; only the final one when it is cached already.
        case opportunistic
        /// One result, at least the size asked for (unless the original is smaller).
        case highQualityFormat
        /// One result from what is cached now, whatever its size (the nearest to the request);
        /// when nothing is, the 256-pixel grid thumbnail is made and given.
        case fastFormat
    }

    /// How closely the result matches the target (`PHImageRequestOptionsResizeMode`).
    public enum ResizeMode: Sendable, Hashable {
        /// No resizing: the full-size version, whatever the target.
        case none
        /// A cached derivative up to twice the needed size may be given instead of an exact one.
        case fast
        /// Exactly the size the target and content mode give; honours ``normalizedCropRect``.
        case exact
    }

    /// Which version of an edited asset (`PHImageRequestOptionsVersion`).
    public enum Version: Sendable, Hashable {
        /// With edits applied (the render), or the original when there are none.
        case current
        /// The original, without edits.
        case unadjusted
        /// The original file's pixels (same as `unadjusted` here: a RAW+JPEG pair's original is its
        /// JPEG, as Photos has it; the raw is the pair's `alternatePhoto` resource).
        case original
    }

    /// How many results and how good (`PHImageRequestOptions.deliveryMode`); default `.opportunistic`.
    public var deliveryMode: DeliveryMode
    /// How closely the image matches the target size (`PHImageRequestOptions.resizeMode`); default `.fast`.
    public var resizeMode: ResizeMode
    /// With `.exact`, the part of the image to give, in unit coordinates of the upright version;
    /// the target size then applies to that part.
    public var normalizedCropRect: NormalizedRect?
    /// Which version of an edited asset to draw from (`PHImageRequestOptions.version`); default
    /// `.current`.
    public var version: Version
    /// For ``ImageManager/requestImage(for:targetSize:contentMode:options:resultHandler:)``: block
    /// the calling thread until the one final result is delivered. Never set it from async code.
    public var isSynchronous: Bool
    /// Called with 0 when rendering starts and 1 when it ends (not called for cached results).
    public var progressHandler: (@Sendable (Double) -> Void)?

    /// Options from their parts; by default opportunistic delivery, fast resizing, no crop, the
    /// current version, asynchronous, no progress handler.
    public init(
        deliveryMode: DeliveryMode = .opportunistic, resizeMode: ResizeMode = .fast,
        normalizedCropRect: NormalizedRect? = nil, version: Version = .current, isSynchronous: Bool = false,
        progressHandler: (@Sendable (Double) -> Void)? = nil
    ) {
        self.deliveryMode = deliveryMode
        self.resizeMode = resizeMode
        self.normalizedCropRect = normalizedCropRect
        self.version = version
        self.isSynchronous = isSynchronous
        self.progressHandler = progressHandler
    }
}
