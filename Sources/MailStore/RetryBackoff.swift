import EventModel
import Foundation

/// When a failed write-back or submission is tried again: 30 s after the first failure, doubling to at
/// most an hour.
public enum RetryBackoff {
    /// The longest wait a recorded retry or due time stands for (seconds): the longest backoff, and the longest undo
    /// delay `send` takes.
    static let longest: Double = 3600

    /// Seconds to wait after failure number `attempt` (1-based).
    static func delay(attempt: UInt32) -> Double {
        min(longest, 30 * pow(2, Double(min(max(attempt, 1), 8)) - 1))
    }

    /// The time of the next try after failure number `attempt`.
    static func next(after attempt: UInt32) -> Timestamp {
        Timestamp(Date().addingTimeInterval(delay(attempt: attempt)))
    }

    /// Whether a recorded retry or due time has come: it has passed, or it is more than ``longest`` ahead of `now`,
    /// which no wait recorded with the clock right makes: the clock stepped back since, or was far ahead when the time
    /// was recorded (a retry recorded while the clock was a year ahead had waited that year).
    static func hasCome(_ time: Timestamp, now: Timestamp = .now) -> Bool {
        time <= now || isFarAhead(time, now: now)
    }

    /// Whether a recorded retry or due time is more than ``longest`` ahead of `now` (so it has come, ``hasCome(_:now:)``,
    /// though it has not passed): what a view shows as due now rather than at that time.
    public static func isFarAhead(_ time: Timestamp, now: Timestamp = .now) -> Bool {
        Double(time.microseconds) / 1_000_000 - Double(now.microseconds) / 1_000_000 > longest
    }

    /// The seconds from `now` until a recorded retry or due time, on the terms of ``hasCome(_:now:)``: 0 once it has
    /// come, else at most ``longest``.
    static func secondsUntil(_ time: Timestamp, now: Timestamp = .now) -> Double {
        hasCome(time, now: now) ? 0 : Double(time.microseconds - now.microseconds) / 1_000_000
    }
}
