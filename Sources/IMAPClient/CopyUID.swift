import IMAPProtocol

/// The `COPYUID` response code (RFC 4315): where copied or moved messages went.
package struct CopyUID: Sendable {
    /// The UIDVALIDITY of the destination mailbox.
    package var uidValidity: UInt32
    /// The source UIDs, in the same order as ``destination``.
    package var source: UIDSet
    /// The UIDs the messages got in the destination mailbox.
    package var destination: UIDSet

    /// A COPYUID with the given parts.
    package init(uidValidity: UInt32, source: UIDSet, destination: UIDSet) {
        self.uidValidity = uidValidity
        self.source = source
        self.destination = destination
    }
}
