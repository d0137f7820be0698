#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point on the monotonic clock a wait must not pass.
package struct Deadline: Sendable {
    /// Seconds on the monotonic clock.
    package let instant: Double

    /// The deadline `seconds` from now.
    package init(secondsFromNow seconds: Double) {
        instant = Deadline.now() + max(0, seconds)
    }

    /// The deadline at `instant` seconds on the monotonic clock.
    package init(instant: Double) {
        self.instant = instant
    }

    /// Whether the deadline has passed.
    package var hasPassed: Bool { Deadline.now() >= instant }

    /// The same deadline `seconds` later.
    package func extended(bySeconds seconds: Double) -> Deadline {
        Deadline(instant: instant + max(0, seconds))
    }

    /// The seconds left (0 once passed).
    package var remainingSeconds: Double { max(0, instant - Deadline.now()) }

    /// The time left, in whole milliseconds for `poll` (0 once passed, capped to fit `Int32`).
    var remainingMilliseconds: Int32 {
        let left = (instant - Deadline.now()) * 1000
        if left <= 0 { return 0 }
        return Int32(min(left.rounded(.up), Double(Int32.max)))
    }

    /// Seconds on the monotonic clock.
    package static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
