/// Why a draft cannot be saved or sent, and what to fix.
public enum DraftError: Error, CustomStringConvertible, Equatable {
    case noAccount(String)
    case notFound(String)
    case unreadableAttachment(String, String)
    /// Sending needs at least one valid recipient and a body; each problem names its field.
    case notSendable([String])
    /// The undo delay is over (or it was never queued).
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

    public var description: String {
        switch self {
        case .noAccount(let a): "no account named \"\(a)\"; see `mailstore account list`"
        case .notFound(let d): "no draft \"\(d)\"; `mailstore draft list` lists them"
        case .unreadableAttachment(let p, let why): "cannot attach \(p): \(why)"
        case .notSendable(let problems): "cannot send yet: " + problems.joined(separator: "; ")
        case .tooLateToUndo(let d): "too late to undo: draft \(d) is being sent or was sent"
        case .notQueued(let d): "draft \(d) is not in the outbox"
        case .noSMTP(let a): "account \(a) has no SMTP server: add it again with --smtp-host"
        case .originalNotFound(let e): "no email \"\(e)\" to reply to or forward"
        case .noSentFolder(let a): "account \(a) has no Sent folder on the server; the sent message stays pending until one exists"
        case .tooLarge(let what): "the draft is not saved: \(what)"
        case .offline(let why): "no network (\(why)): the message stays queued; `mailstore outbox send` or `sync --watch` sends it when the server can be reached"
        }
    }
}
