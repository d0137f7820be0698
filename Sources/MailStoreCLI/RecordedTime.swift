import EventModel
import MailStore

/// How a recorded retry or due time is shown: as recorded, or, when it lies more than an hour (the longest backoff)
/// ahead of this machine's clock (recorded while the clock stood ahead, or the clock stepped back since: it is due
/// now), as `now (recorded TIME, ahead of this clock)`: `outbox`, `draft show`'s `Server:` line, `actions`.
enum RecordedTime {
    /// `time` (as the row holds it) shown, `ahead` telling whether it lies that far ahead.
    static func shown(_ time: String, ahead: Bool) -> String {
        ahead ? "now (recorded \(time), ahead of this clock)" : time
    }

    /// `at TIME`, or `now (recorded TIME, ahead of this clock)` when `time` lies that far ahead of `now`.
    static func at(_ time: Timestamp, now: Timestamp = .now) -> String {
        RetryBackoff.isFarAhead(time, now: now) ? shown(time.iso8601, ahead: true) : "at \(time.iso8601)"
    }
}
