/// What happened to one event of an append.
package enum AppendOutcome: Sendable, Equatable {
    /// Appended at this sequence.
    case appended(UInt64)
    /// Its id was already in the log (idempotent re-append); this is the existing sequence.
    case duplicate(UInt64)

    /// The event's sequence, new or existing.
    package var sequence: UInt64 {
        switch self {
        case .appended(let s), .duplicate(let s): s
        }
    }

    /// True when this append wrote it.
    package var isNew: Bool {
        if case .appended = self { return true }
        return false
    }
}
