/// What the client knows about a mailbox, sent with `SELECT ... (QRESYNC (...))` (RFC 7162).
public struct QResyncParameters: Hashable, Sendable {
    /// The UIDVALIDITY the client's cache was built under.
    public var uidValidity: UInt32
    /// The highest mod-sequence the client has seen.
    public var modSeq: UInt64
    /// The UIDs the client knows, to narrow the VANISHED report; nil to omit.
    public var knownUIDs: UIDSet?

    /// Parameters with the given values.
    public init(uidValidity: UInt32, modSeq: UInt64, knownUIDs: UIDSet? = nil) {
        self.uidValidity = uidValidity
        self.modSeq = modSeq
        self.knownUIDs = knownUIDs
    }
}
