import Foundation

/// Focus, exposure, white balance and frame rate set by hand, as AV Foundation's
/// `AVCaptureDevice` has them. Every setter needs ``CaptureDevice/lockForConfiguration()`` and
/// throws ``CaptureError/Code/unsupported`` for what the device cannot do or a value out of its
/// range (where iOS raises an exception). Frames taken after a setter returns have the setting
/// (the synthetic camera reads it per frame; V4L2 writes the control before returning).
extension CaptureDevice {
    // MARK: Focus

    /// Whether the lens can be put at a position (``setFocusModeLocked(lensPosition:)``).
    public var isLockingFocusWithCustomLensPositionSupported: Bool { capabilities.lockingFocusWithCustomLensPosition }
    /// Where the lens is, 0 (nearest) … 1 (farthest); in the auto modes, where they put it.
    public var lensPosition: Float { settings.lensPosition }
    /// Whether the auto modes can focus at a chosen point (``setFocusPointOfInterest(_:)``).
    public var isFocusPointOfInterestSupported: Bool { capabilities.focusPointOfInterest }
    /// Where the auto modes focus (the centre until set).
    public var focusPointOfInterest: NormalizedPoint { settings.focusPointOfInterest }
    /// Whether an auto mode is moving the lens now (follow it with ``updates(of:)``).
    public var isAdjustingFocus: Bool { settings.isAdjustingFocus }

    /// Locks the focus with the lens at `lensPosition` (0…1; `nil` keeps where the lens is).
    public func setFocusModeLocked(lensPosition: Float?) throws(CaptureError) {
        guard isLockingFocusWithCustomLensPositionSupported else { throw .unsupported("\(localizedName) cannot set its lens position") }
        if let lensPosition, !(lensPosition.isFinite && (0...1).contains(lensPosition)) {
            throw .invalidArgument("a lens position is 0…1, not \(lensPosition)")
        }
        try change { settings in
            settings.focusMode = .locked
            settings.isAdjustingFocus = false
            if let lensPosition { settings.lensPosition = lensPosition }
        }
    }

    /// Sets where the auto modes focus; takes effect when a focus mode is next set, as in AV Foundation.
    public func setFocusPointOfInterest(_ point: NormalizedPoint) throws(CaptureError) {
        guard isFocusPointOfInterestSupported else { throw .unsupported("\(localizedName) has no focus point of interest") }
        guard point.isInFrame else { throw .invalidArgument("a point of interest is within 0…1, not \(point)") }
        try change { $0.focusPointOfInterest = point }
    }

    // MARK: Exposure

    /// The exposure time of the frames now (in the auto modes, what they chose).
    public var exposureDuration: Duration { settings.exposureDuration }
    /// The sensitivity now (in the auto modes, what they chose).
    public var iso: Float { settings.iso }
    /// The bias the auto modes expose with, in EV.
    public var exposureTargetBias: Float { settings.exposureTargetBias }
    /// The lowest bias ``setExposureTargetBias(_:)`` takes, in EV (0 on a camera without a bias control).
    public var minExposureTargetBias: Float { capabilities.exposureTargetBiasRange.lowerBound }
    /// The highest bias ``setExposureTargetBias(_:)`` takes, in EV (0 on a camera without a bias control).
    public var maxExposureTargetBias: Float { capabilities.exposureTargetBiasRange.upperBound }
    /// Whether the auto modes can meter at a chosen point (``setExposurePointOfInterest(_:)``).
    public var isExposurePointOfInterestSupported: Bool { capabilities.exposurePointOfInterest }
    /// Where the auto modes meter (the centre until set).
    public var exposurePointOfInterest: NormalizedPoint { settings.exposurePointOfInterest }
    /// Whether an auto mode is changing the exposure now.
    public var isAdjustingExposure: Bool { settings.isAdjustingExposure }

    /// Exposes every frame for `duration` at `iso` (``ExposureMode/custom``); `nil` keeps the
    /// current value. Both must be within the active format's ranges
    /// (``Format/minExposureDuration`` … ``Format/maxExposureDuration``, ``Format/minISO`` … ``Format/maxISO``).
    public func setExposureModeCustom(duration: Duration?, iso: Float?) throws(CaptureError) {
        guard isExposureModeSupported(.custom), let format = activeFormat else { throw .unsupported("\(localizedName) has no custom exposure") }
        if let duration, !(format.minExposureDuration...format.maxExposureDuration).contains(duration) {
            throw .unsupported("an exposure of \(duration) is outside \(format.minExposureDuration)…\(format.maxExposureDuration) on \(localizedName)")
        }
        if let iso, !(iso.isFinite && (format.minISO...format.maxISO).contains(iso)) {
            throw .unsupported("ISO \(iso) is outside \(format.minISO)…\(format.maxISO) on \(localizedName)")
        }
        try change { settings in
            settings.exposureMode = .custom
            settings.isAdjustingExposure = false
            if let duration { settings.exposureDuration = duration }
            if let iso { settings.iso = iso }
        }
    }

    /// Biases the auto modes' exposure by `bias` EV (within ``minExposureTargetBias`` … ``maxExposureTargetBias``).
    public func setExposureTargetBias(_ bias: Float) throws(CaptureError) {
        guard bias.isFinite, capabilities.exposureTargetBiasRange.contains(bias) else {
            throw .unsupported("an exposure bias of \(bias) EV is outside \(capabilities.exposureTargetBiasRange) on \(localizedName)")
        }
        try change { $0.exposureTargetBias = bias }
    }

    /// Sets where the auto modes meter; takes effect when an exposure mode is next set.
    public func setExposurePointOfInterest(_ point: NormalizedPoint) throws(CaptureError) {
        guard isExposurePointOfInterestSupported else { throw .unsupported("\(localizedName) has no exposure point of interest") }
        guard point.isInFrame else { throw .invalidArgument("a point of interest is within 0…1, not \(point)") }
        try change { $0.exposurePointOfInterest = point }
    }

    // MARK: White balance

    /// Whether white balance gains can be set (``setWhiteBalanceModeLocked(with:)``).
    public var isLockingWhiteBalanceWithCustomDeviceGainsSupported: Bool { capabilities.lockingWhiteBalanceWithCustomGains }
    /// The largest gain ``setWhiteBalanceModeLocked(with:)`` takes.
    public var maxWhiteBalanceGain: Float { capabilities.maxWhiteBalanceGain }
    /// The gains now (in the auto modes, what they chose).
    public var deviceWhiteBalanceGains: WhiteBalanceGains { settings.whiteBalanceGains }
    /// Whether an auto mode is changing the white balance now.
    public var isAdjustingWhiteBalance: Bool { settings.isAdjustingWhiteBalance }

    /// Locks the white balance with `gains` (each 1…``maxWhiteBalanceGain``; `nil` keeps the
    /// current ones). ``deviceWhiteBalanceGains(for:)`` turns a temperature and tint into gains.
    public func setWhiteBalanceModeLocked(with gains: WhiteBalanceGains?) throws(CaptureError) {
        guard isLockingWhiteBalanceWithCustomDeviceGainsSupported else { throw .unsupported("\(localizedName) cannot set white balance gains") }
        if let gains {
            for gain in [gains.redGain, gains.greenGain, gains.blueGain] where !(gain.isFinite && (1...maxWhiteBalanceGain).contains(gain)) {
                throw .unsupported("a white balance gain of \(gain) is outside 1…\(maxWhiteBalanceGain) on \(localizedName)")
            }
        }
        try change { settings in
            settings.whiteBalanceMode = .locked
            settings.isAdjustingWhiteBalance = false
            if let gains { settings.whiteBalanceGains = gains }
        }
    }

    // MARK: Frame rate

    /// The shortest time between frames: 1 / the frame rate frames come at (by default the
    /// active format's fastest).
    public var activeVideoMinFrameDuration: Duration {
        settings.minFrameDuration ?? .seconds(1 / Swift.max(1, activeFormat?.maxFrameRate ?? 30))
    }

    /// The longest time between frames the device may take (in low light; by default the
    /// active format's slowest rate).
    public var activeVideoMaxFrameDuration: Duration {
        settings.maxFrameDuration ?? .seconds(1 / Swift.max(1, activeFormat?.minFrameRate ?? 30))
    }

    /// Sets the frame rate: `duration` must be one of the active format's rates (1 / rate);
    /// `nil` restores the format's fastest. A running session reopens the stream at the new rate.
    public func setActiveVideoMinFrameDuration(_ duration: Duration?) throws(CaptureError) {
        if let duration { try checkFrameDuration(duration) }
        try change { (settings: inout Settings) throws(CaptureError) in
            if let duration, let longest = settings.maxFrameDuration, duration > longest {
                throw .invalidArgument("the shortest frame duration \(duration) is longer than the longest, \(longest)")
            }
            settings.minFrameDuration = duration
        }
    }

    /// Sets the longest time between frames: one of the active format's rates, no shorter than
    /// ``activeVideoMinFrameDuration``; `nil` restores the format's slowest.
    public func setActiveVideoMaxFrameDuration(_ duration: Duration?) throws(CaptureError) {
        if let duration { try checkFrameDuration(duration) }
        try change { (settings: inout Settings) throws(CaptureError) in
            if let duration, let shortest = settings.minFrameDuration, duration < shortest {
                throw .invalidArgument("the longest frame duration \(duration) is shorter than the shortest, \(shortest)")
            }
            settings.maxFrameDuration = duration
        }
    }

    private func checkFrameDuration(_ duration: Duration) throws(CaptureError) {
        guard let format = activeFormat, format.supportsFrameDuration(duration) else {
            let rates = activeFormat.map { $0.frameRates.map { String(format: "%g", $0) }.joined(separator: ", ") } ?? "none"
            throw .unsupported("\(localizedName) cannot deliver frames \(duration) apart in its active format (rates: \(rates) fps)")
        }
    }
}
