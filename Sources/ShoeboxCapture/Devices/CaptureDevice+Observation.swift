import Foundation
import Synchronization

extension CaptureDevice {
    // MARK: Following settings

    /// The values of a property as it changes — key-value observation as an `AsyncSequence`:
    /// the current value first, then each different one, whoever changed it (a setter, an auto
    /// mode settling, a zoom ramp).
    ///
    /// ```swift
    /// for await adjusting in camera.updates(of: \.isAdjustingFocus) where !adjusting { break }
    /// for await zoom in camera.updates(of: \.videoZoomFactor) { print(zoom) }
    /// ```
    public func updates<Value: Equatable & Sendable>(of keyPath: any KeyPath<CaptureDevice, Value> & Sendable) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let token = nextToken.add(1, ordering: .relaxed).newValue
        let last = Mutex<Value?>(nil)
        let observer: @Sendable (CaptureDevice) -> Void = { device in
            let value = device[keyPath: keyPath]
            let changed = last.withLock { last -> Bool in
                defer { last = value }
                return last != value
            }
            if changed { continuation.yield(value) }
        }
        observers.withLock { $0[token] = observer }
        continuation.onTermination = { [weak self] _ in _ = self?.observers.withLock { $0.removeValue(forKey: token) } }
        observer(self)
        return stream
    }

    func notifyObservers() {
        for observer in observers.withLock({ Array($0.values) }) { observer(self) }
    }

    // MARK: Zoom ramps

    /// Whether a ramp (``ramp(toVideoZoomFactor:withRate:)``) is moving the zoom now.
    public var isRampingVideoZoom: Bool { settings.zoomRamp != nil }

    /// Zooms smoothly to `factor`, at `rate` doublings (or halvings) of the zoom per second, as
    /// AV Foundation's ramps do: the zoom moves in steps of a sixtieth of a second, and
    /// ``videoZoomFactor`` follows it. ``setVideoZoomFactor(_:)`` or ``cancelVideoZoomRamp()``
    /// stops it where it is.
    public func ramp(toVideoZoomFactor factor: Double, withRate rate: Float) throws(CaptureError) {
        guard factor.isFinite, capabilities.zoomRange.contains(factor) else {
            throw .unsupported("zoom \(factor) is outside \(capabilities.zoomRange) on \(localizedName)")
        }
        guard rate.isFinite, rate > 0 else { throw .invalidArgument("a zoom ramp's rate is more than 0 doublings a second, not \(rate)") }
        let ramp = ZoomRamp(target: factor, rate: Double(rate), id: nextToken.add(1, ordering: .relaxed).newValue)
        try change { $0.zoomRamp = ramp }
        zoomRampTask.withLock { $0 = Task { [self] in await run(ramp) } }
    }

    /// Stops a zoom ramp at the zoom it has reached.
    public func cancelVideoZoomRamp() throws(CaptureError) {
        try change { $0.zoomRamp = nil }
    }

    private func run(_ ramp: ZoomRamp) async {
        let clock = ContinuousClock()
        var last = clock.now
        while true {
            try? await Task.sleep(for: .seconds(1.0 / 60))
            let now = clock.now
            let elapsed = (now - last).seconds
            last = now
            var finished = false
            update(push: true) { settings in
                guard settings.zoomRamp == ramp, settings.isConnected else {
                    finished = true
                    return
                }
                // Exponential: each second multiplies (or divides) the zoom by 2^rate.
                let step = pow(2, ramp.rate * elapsed)
                let next =
                    settings.videoZoomFactor < ramp.target
                    ? Swift.min(ramp.target, settings.videoZoomFactor * step)
                    : Swift.max(ramp.target, settings.videoZoomFactor / step)
                settings.videoZoomFactor = next
                if next == ramp.target {
                    settings.zoomRamp = nil
                    finished = true
                }
            }
            if finished { return }
        }
    }
}
