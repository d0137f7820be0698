import EventModel

/// Why an event log operation failed, and what to do about it.
package enum EventLogError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An append's expected stream version did not hold. Nothing of the batch was appended.
    case wrongExpectedVersion(stream: String, expected: ExpectedVersion, actual: UInt64)
    /// A record could not be decoded.
    case corruptRecord(sequence: UInt64, reason: String)
    /// A blob's stored bytes are damaged.
    case corruptBlob(hash: String, reason: String)
    /// The log was opened read-only and a write was asked for.
    case readOnly
    /// A stream name is empty.
    case invalidStream(String)
    /// The head hash in `meta` is not the chain hash of the last record (`sequence`): an append would chain from a
    /// damaged hash. Nothing was appended.
    case headHashMismatch(sequence: UInt64)

    /// True for `wrongExpectedVersion`: another writer appended to the stream first (read it again and retry).
    package var isVersionConflict: Bool {
        if case .wrongExpectedVersion = self { return true }
        return false
    }

    /// True for `corruptBlob`: one blob's stored bytes are damaged (the rest of the log reads). A reader of many
    /// messages (the search index, `categorize --rerun`) skips that message's raw form, not the whole run.
    package var isCorruptBlob: Bool {
        if case .corruptBlob = self { return true }
        return false
    }

    /// The hint every corrupt record or blob ends with.
    static let verifyHint = "; run `mailstore verify`"

    /// `reason` without a trailing `verifyHint` (a wrapped decoding or zstd error's own), so the description, which
    /// adds it, says it once.
    static func withoutHint(_ reason: String) -> String {
        reason.hasSuffix(verifyHint) ? String(reason.dropLast(verifyHint.count)) : reason
    }

    package var description: String {
        switch self {
        case .wrongExpectedVersion(let stream, let expected, let actual):
            return "stream '\(stream)' is at version \(actual), the append expected \(expected); nothing was appended: re-read the stream and retry"
        case .corruptRecord(let seq, let reason):
            return "event \(seq) is corrupt: \(EventLogError.withoutHint(reason))\(EventLogError.verifyHint) and restore the log from a backup"
        case .corruptBlob(let hash, let reason):
            return "blob \(hash) is corrupt: \(EventLogError.withoutHint(reason))\(EventLogError.verifyHint)"
        case .readOnly:
            return "the log is open read-only"
        case .invalidStream(let s):
            return "invalid stream name '\(s)': a stream must be non-empty"
        case .headHashMismatch(let seq):
            return "the log's head hash (in its meta database) does not match the chain hash of its last record, \(seq): the "
                + "log is damaged, and nothing was appended (every new record would chain from the bad hash); run "
                + "`mailstore verify` and restore the log from a backup"
        }
    }
}
