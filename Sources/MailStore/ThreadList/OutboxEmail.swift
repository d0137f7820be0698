import EventModel
import Projections

/// An outbox row: a message queued, sending or failed, with what can be done to it.
public struct OutboxEmail: Sendable, Equatable, Encodable {
    /// The draft id.
    public var id: String
    /// The account.
    public var accountId: String
    /// The subject.
    public var subject: String
    /// The recipients.
    public var to: [Participant]
    /// `queued`, `sending` or `failed`.
    public var sendState: String
    /// When a queued message is submitted (after the undo delay).
    public var dueAt: String?
    /// Why it failed.
    public var failureReason: String?
    /// When a failed message is tried next (after its backoff): nil unless failed, and nil for a failure that is
    /// not retried (a permanent refusal: `outbox retry` or `cancel`). `dueAt` stays the time it was queued for.
    public var retryAt: String?
    /// What the user can do: `cancel` for queued, `retry` for failed.
    public var actions: [String]
    /// Whether the time the message goes out by (`retryAt` of a failed one, `dueAt` of a queued one) is more than an
    /// hour, the longest backoff, ahead of this machine's clock: recorded while the clock stood ahead, or the clock
    /// stepped back since. No wait recorded with the clock right is that long, so the message is due now (`outbox send`
    /// and a watch take it so); `retryAt` and `dueAt` keep the time recorded.
    public var recordedTimeAhead: Bool

    init(_ item: OutboxItem, now: Timestamp) {
        id = item.draftID
        accountId = item.account
        subject = item.subject
        to = item.to
        sendState = item.state.description
        dueAt = item.dueAt?.iso8601
        failureReason = item.reason
        retryAt = item.state == .failed ? item.retryAt?.iso8601 : nil
        let goesAt = item.state == .failed ? item.retryAt : item.state == .queued ? item.dueAt : nil
        recordedTimeAhead = goesAt.map { RetryBackoff.isFarAhead($0, now: now) } ?? false
        actions = switch item.state {
        case .queued: ["cancel"]
        case .failed: ["retry", "cancel"]
        default: []
        }
    }
}
