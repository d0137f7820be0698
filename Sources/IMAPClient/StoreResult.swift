import IMAPProtocol

/// What `UID STORE` reported besides success.
package struct StoreResult: Sendable {
    /// Messages left unchanged because they were modified after the `UNCHANGEDSINCE` value
    /// (the `MODIFIED` response code, RFC 7162).
    package var modified: UIDSet
    /// Flags the server sent back in FETCH responses, by UID.
    package var flags: [UInt32: [String]]
    /// New mod-sequences the server sent back in FETCH responses (CONDSTORE), by UID.
    package var modSeqs: [UInt32: UInt64]

    /// A result with the given parts.
    package init(modified: UIDSet = UIDSet(), flags: [UInt32: [String]] = [:], modSeqs: [UInt32: UInt64] = [:]) {
        self.modified = modified
        self.flags = flags
        self.modSeqs = modSeqs
    }
}
