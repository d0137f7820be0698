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

    /// True for `wrongExpectedVersion`: another writer appended to the stream first (read it again and retry).
    package var isVersionConflict: Bool {
        if case .wrongExpectedVersion = self { return true }
        return false
    }

    package var description: String {
        switch self {
        case .wrongExpectedVersion(let stream, let expected, let actual):
            return "stream '\(stream)' is at version \(actual), the append expected \(expected); nothing was appended: re-read the stream and retry"
        case .corruptRecord(let seq, let reason):
            return "event \(seq) is corrupt: \(reason); run `mailstore verify` and restore the log from a backup"
        case .corruptBlob(let hash, let reason):
            return "blob \(hash) is corrupt: \(reason); run `mailstore verify`"
        case .readOnly:
            return "the log is open read-only"
        case .invalidStream(let s):
            return "invalid stream name '\(s)': a stream must be non-empty"
        }
    }
}
