import EventModel

/// An action as the actions view keeps it: what it asked for, and what the server made of it so far.
public struct ActionRecord: BinaryField, Equatable, Sendable {
    public var id: EventID
    public var account: String
    public var kind: ActionKind
    public var sequence: UInt64
    public var occurredAt: Timestamp
    public var threadIDs: [String]
    /// Each copy acted on, as it was before the action.
    public var targets: [ActionTarget]
    public var destination: String?
    /// The action this one undoes or retries, if any.
    public var causation: EventID?
    /// Emails not yet written back.
    public var pending: [String]
    /// Emails the server accepted.
    public var applied: [String] = []
    /// Emails the server refused (reverted in the views).
    public var rejected: [String] = []
    /// Temporary failures so far, the next retry and the last error.
    public var attempts: UInt32 = 0
    public var retryAt: Timestamp?
    public var lastError: String?
    public var undone = false

    package init(id: EventID, account: String, kind: ActionKind, sequence: UInt64, occurredAt: Timestamp, threadIDs: [String],
                targets: [ActionTarget], destination: String?, causation: EventID?) {
        self.id = id
        self.account = account
        self.kind = kind
        self.sequence = sequence
        self.occurredAt = occurredAt
        self.threadIDs = threadIDs
        self.targets = targets
        self.destination = destination
        self.causation = causation
        self.pending = targets.map(\.emailID)
    }

    /// The state in a word: pending, failed (retrying), applied, rejected, partly rejected or undone.
    public var state: String {
        if undone { return "undone" }
        if !pending.isEmpty { return attempts > 0 ? "failed" : "pending" }
        if rejected.isEmpty { return "applied" }
        return applied.isEmpty ? "rejected" : "partly rejected"
    }

    @usableFromInline package func write(to w: inout ByteWriter) {
        w.write(id); w.write(account); w.write(kind.rawValue); w.write(sequence); w.write(occurredAt); w.write(threadIDs)
        w.write(targets); w.write(destination); w.write(causation); w.write(pending); w.write(applied); w.write(rejected)
        w.write(attempts); w.write(retryAt); w.write(lastError); w.write(undone)
    }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        id = try r.read(); account = try r.read()
        let k: String = try r.read()
        kind = ActionKind(rawValue: k) ?? .move
        sequence = try r.read(); occurredAt = try r.read(); threadIDs = try r.read(); targets = try r.read()
        destination = try r.read(); causation = try r.read(); pending = try r.read(); applied = try r.read()
        rejected = try r.read(); attempts = try r.read(); retryAt = try r.read(); lastError = try r.read(); undone = try r.read()
    }
}
