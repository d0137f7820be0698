import EventLog
import EventModel

extension OutboxUseCase {
    /// The most a queuing's due time may lie past its recording for it to count as queued to go at once (no undo
    /// delay): 1 s, in microseconds.
    static let atOnceSlack: Int64 = 1_000_000

    /// Whether the current queuing of `draftID` is the user's with no undo delay (its due time at most `atOnceSlack`
    /// past its recording): a reply from a notification (`NotificationCoordinator.respond(.reply)`), the library's
    /// `queue(_:undoDelay: 0)`. Such a message has no undo window to wait out and, when no process claims it
    /// (`SendClaim`), no process bound to send it: the next `outbox send`, sync or watch round sends it
    /// (`deliverDue`) rather than taking it back as abandoned (it had gone back to the drafts 15 s later, never sent).
    func queuedToSendAtOnce(_ draftID: String) throws -> Bool {
        var last: (due: Timestamp, recorded: Timestamp, byUser: Bool)?
        try store.log.scan(filter: ScanFilter(stream: .draft(draftID))) { ev in
            switch try ev.decode() {
            case .messageQueued(let p): last = (p.dueAt, ev.envelope.recordedAt, ev.envelope.actor == .user)
            case .sendUndone, .sendCancelled, .messageSent, .draftDeleted: last = nil
            default: break
            }
            return true
        }
        guard let last, last.byUser else { return false }
        return last.due.microseconds <= last.recorded.microseconds + OutboxUseCase.atOnceSlack
    }

    /// Whether no process holds `draftID`'s send claim, nor left one (a claim left by a process that ended is the
    /// reclaim's: it takes the message back).
    func unclaimed(_ draftID: String) throws -> Bool {
        switch try SendClaim.probe(store: store.directory, draftID: draftID) {
        case .none: return true
        case .held: return false
        case .abandoned(let left):
            // The reclaim's to take back (its file is its evidence): let go of the lock, leave the file.
            left.letGo()
            return false
        }
    }
}
