import EventModel
import Foundation
import Projections
import SecureTransport

/// Sending a draft as `mailstore send` does: queued and sent by one process that owns the message meanwhile.
extension OutboxUseCase {
    /// How long `send` waits for another process that still holds the draft's claim (finishing an earlier send of it).
    public static let claimWaitSeconds: Double = 5

    /// Queues `draftID` with an undo delay of `undoDelay` seconds and sends it when due (`queue`, then
    /// `deliverWhenDue`), holding the message's claim (`SendClaim`) from before the queuing until the outcome is
    /// recorded: the abandoned-send reclaim of another process never takes back a message this process is still
    /// sending (in its undo delay, waiting for the send lock, or for the server), and takes it back at once if this
    /// process is killed first. `queued` is told the queuing as soon as it is recorded. Returns the message's state at
    /// the end: `.sent`, `.failed`, `.draft` (taken back by an undo) or `.queued` (due again, after no network).
    /// Throws `DraftError.inOutbox` when the draft is in the outbox already, `DraftError.claimed` when another
    /// process still holds its claim after `claimWaitSeconds`, and what `queue` and `deliver` throw.
    public func send(_ draftID: String, undoDelay: Double, queued: (MessageQueued) -> Void = { _ in }) throws -> OutboxItem.State {
        let claim = try SendClaim.take(store: store.directory, draftID: draftID, waitSeconds: OutboxUseCase.claimWaitSeconds) {
            // Held by the process sending it now: this draft is that process's to send, as `queue` says.
            _ = try store.latestViews()
            if let state = try views.outboxItem(draftID: draftID)?.state, state.inOutbox { throw DraftError.inOutbox(draftID, "\(state)") }
        }
        defer { claim.release() }
        let queuing = try queue(draftID, undoDelay: undoDelay)
        // The delay is measured on the monotonic clock from here (a wall clock stepped in it had stretched it or cut it
        // short), and the claim says when it ends, for an undo in another process.
        let due = Deadline(secondsFromNow: undoDelay)
        claim.noteDue(due)
        queued(queuing)
        return try deliverWhenDue(draftID, deadline: due)
    }
}
