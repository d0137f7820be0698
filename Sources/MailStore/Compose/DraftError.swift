/// Why a draft cannot be saved or sent, and what to fix.
public enum DraftError: Error, CustomStringConvertible, Equatable {
    case noAccount(String)
    case notFound(String)
    /// A file given to attach cannot be read (the path, the system's reason): a usage error, as for `--body-file`.
    case unreadableAttachment(String, String)
    /// The store lacks the bytes of a draft's attachment (its name) when the message is composed.
    case attachmentMissing(String)
    /// Sending needs at least one valid recipient and a body; each problem names its field.
    case notSendable([String])
    /// The undo delay of the draft's queuing is over: it is being sent, failed or was sent.
    case tooLateToUndo(String)
    case notQueued(String)
    case noSMTP(String)
    case originalNotFound(String)
    /// The SMTP server cannot be reached: the message stays queued and is sent when the network is back.
    case offline(String)
    /// The server has no Sent folder to file a sent message in.
    case noSentFolder(String)
    /// A draft's text, recipients or attachments pass their bounds (`DraftsUseCase.maxBodyBytes`, ...): nothing saved.
    case tooLarge(String)
    /// The draft is in the outbox (queued, being sent or failed): the version queued is what goes out, so it is not
    /// edited or queued again until it is taken back (the draft, its state).
    case inOutbox(String, String)
    /// Other processes kept saving the draft while this one tried (each try found a newer version): nothing saved.
    case busy(String)
    /// The draft's latest version is not the one its queuing announced (saved by a build that allowed that): nothing
    /// is sent rather than a message other than the one recorded.
    case changedSinceQueued(String)
    /// `draft delete` of a draft in the outbox (queued, being sent or failed; the draft, its state): it is taken back
    /// first (`send --undo` within its undo delay, else `outbox cancel`), so a delete never races a send.
    case deleteInOutbox(String, String)
    /// A message in the outbox whose draft is gone (deleted while it was queued, by a build that allowed that):
    /// nothing can be sent; it was taken out of the outbox (`SendCancelled`, actor system).
    case deletedInOutbox(String)
    /// Another process (its pid when known) still holds the draft's send claim (`SendClaim`): it is finishing a send of
    /// it (recording the outcome, or noticing it was taken back). Nothing was queued.
    case claimed(String, Int32?)
    /// A name to detach that several of the draft's attachments have (the name, the positions and sizes of the first
    /// `DraftsUseCase.maxDetachCandidatesListed`, how many have it): which one to remove is said by its position.
    case ambiguousDetach(String, positions: [Int], sizes: [UInt64], count: Int)
    /// A position to detach that the draft's list does not have (the position, how many attachments the draft has).
    case noAttachmentAt(Int, count: Int)

    public var description: String {
        switch self {
        case .noAccount(let a): "no account named \"\(a)\"; see `mailstore account list`"
        case .notFound(let d): "no draft \"\(d)\"; `mailstore draft list` lists them"
        case .unreadableAttachment(let p, let why): "cannot attach \(p): \(why)"
        case .attachmentMissing(let name):
            "the store lacks the bytes of the draft's attachment \(name): detach it (`mailstore draft edit DRAFT --detach NAME`) and attach the file again"
        case .notSendable(let problems): "cannot send yet: " + problems.joined(separator: "; ")
        case .tooLateToUndo(let d):
            "too late to undo: draft \(d) is being sent, failed or was sent (`mailstore outbox` shows which; a failed one is taken "
                + "back with `mailstore outbox cancel \(d)`)"
        case .notQueued(let d): "draft \(d) is not in the outbox"
        case .noSMTP(let a): "account \(a) has no SMTP server: add it again with --smtp-host"
        case .originalNotFound(let e): "no email \"\(e)\" to reply to or forward"
        case .noSentFolder(let a): "account \(a) has no Sent folder on the server: create one there (named Sent); the next `mailstore sync` "
            + "files the sent messages that wait for it"
        case .tooLarge(let what): "the draft is not saved: \(what)"
        case .inOutbox(let d, let state):
            "draft \(d) is in the outbox (\(state)): what was queued is what is sent; take it back first "
                + (state == "queued" ? "(`mailstore send --undo \(d)` within its undo delay, else `mailstore outbox cancel \(d)`)" : "(`mailstore outbox cancel \(d)`)")
                + ", then edit and send it again"
        case .busy(let d): "draft \(d) was saved by other processes all the while this one tried: nothing was saved; run it again"
        case .changedSinceQueued(let d):
            "draft \(d) changed after it was queued: nothing was sent; `mailstore outbox cancel \(d)`, then send it again"
        case .deleteInOutbox(let d, let state):
            "draft \(d) is in the outbox (\(state)) and is not deleted: take it back first "
                + (state == "queued" ? "(`mailstore send --undo \(d)` within its undo delay, else `mailstore outbox cancel \(d)`)"
                                     : "(`mailstore outbox cancel \(d)`)") + ", then delete it"
        case .deletedInOutbox(let d):
            "draft \(d) was deleted while it was in the outbox: nothing was sent, and it is out of the outbox now"
        case .claimed(let d, let pid):
            "another process\(pid.map { " (pid \($0))" } ?? "") is still sending draft \(d) (finishing an earlier send of it): nothing was "
                + "queued; run it again when that process has ended (`mailstore outbox` shows the message)"
        case .ambiguousDetach(let name, let positions, let sizes, let count):
            "nothing was saved: \(count) of the draft's attachments are named \"\(TerminalSanitiser.line(name))\" ("
                + zip(positions, sizes).map { "#\($0) \($1) bytes" }.joined(separator: ", ")
                + (count > positions.count ? ", and \(count - positions.count) more" : "")
                + "); say which one to remove by its position, `--detach-at N` (1-based, as `mailstore draft show DRAFT` lists the "
                + "attachments), e.g. `--detach-at \(positions.first ?? 1)`"
        case .noAttachmentAt(let position, let count):
            "nothing was saved: the draft has no attachment #\(position) ("
                + (count == 0 ? "it has none" : count == 1 ? "it has one, #1" : "they are #1 to #\(count)") + ", as `mailstore draft show DRAFT` lists them)"
        case .offline(let why): "no network (\(why)): the message stays queued; `mailstore outbox send` or `sync --watch` sends it when the server can be reached"
        }
    }
}
