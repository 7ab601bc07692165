import Foundation
import Synchronization

/// How fast strangers may register clients (`POST /api/clients` without the user's key): a
/// bucket of `capacity` registrations that refills one every `interval`. The user is not limited.
final class RegistrationLimiter: Sendable {
    let capacity: Double
    let interval: Double
    private let bucket: Mutex<(tokens: Double, updated: ContinuousClock.Instant)>

    init(capacity: Int = 20, interval: Duration = .seconds(3)) {
        self.capacity = Double(capacity)
        self.interval = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        bucket = Mutex((Double(capacity), ContinuousClock.now))
    }

    /// Takes one registration; `nil` when allowed, else the seconds until one is.
    func take() -> Int? {
        bucket.withLock { bucket in
            let now = ContinuousClock.now
            let elapsed = now - bucket.updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(capacity, bucket.tokens + seconds / interval)
            bucket.updated = now
            guard bucket.tokens >= 1 else { return Int(((1 - bucket.tokens) * interval).rounded(.up)) }
            bucket.tokens -= 1
            return nil
        }
    }
}
