import EventModel

/// Which events a scan yields.
public struct ScanFilter: Sendable {
    /// Only these types (nil: all).
    public var types: Set<EventType>?
    /// Only events of this stream (uses the stream index).
    public var stream: StreamName?
    /// Only events of this account.
    public var account: String?

    /// Creates a filter.
    public init(types: Set<EventType>? = nil, stream: StreamName? = nil, account: String? = nil) {
        self.types = types
        self.stream = stream
        self.account = account
    }

    /// Every event.
    public static let all = ScanFilter()
}
