/// What the client knows about a mailbox, sent with `SELECT ... (QRESYNC (...))` (RFC 7162).
package struct QResyncParameters: Hashable, Sendable {
    /// The UIDVALIDITY the client's cache was built under.
    package var uidValidity: UInt32
    /// The highest mod-sequence the client has seen.
    package var modSeq: UInt64
    /// The UIDs the client knows, to narrow the VANISHED report; nil to omit.
    package var knownUIDs: UIDSet?

    /// Parameters with the given values.
    package init(uidValidity: UInt32, modSeq: UInt64, knownUIDs: UIDSet? = nil) {
        self.uidValidity = uidValidity
        self.modSeq = modSeq
        self.knownUIDs = knownUIDs
    }
}
