import EventModel
import Foundation

/// When a failed write-back or submission is tried again: 30 s after the first failure, doubling to at
/// most an hour.
enum RetryBackoff {
    /// Seconds to wait after failure number `attempt` (1-based).
    static func delay(attempt: UInt32) -> Double {
        min(3600, 30 * pow(2, Double(min(max(attempt, 1), 8)) - 1))
    }

    /// The time of the next try after failure number `attempt`.
    static func next(after attempt: UInt32) -> Timestamp {
        Timestamp(Date().addingTimeInterval(delay(attempt: attempt)))
    }
}
