import SearchQuery

/// What the store itself refuses.
public enum MailStoreError: Error, Equatable, CustomStringConvertible {
    /// A store as it was at a past sequence (`asOf`) is read-only.
    case snapshot(sequence: UInt64)
    /// A point in the log that is neither a sequence number nor an ISO 8601 time.
    case badPointInTime(String)

    public var description: String {
        switch self {
        case .snapshot(let seq):
            "the store as of sequence \(seq) is a read-only view of the past; write to the store itself"
        case .badPointInTime(let text):
            "'\(text)' is neither a sequence number nor a time: an ISO 8601 time such as 2024-01-15T09:30:00Z, or \(TimePoint.forms)"
        }
    }
}
