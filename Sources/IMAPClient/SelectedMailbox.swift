import IMAPProtocol

/// The state of a mailbox as `SELECT` or `EXAMINE` reported it.
package struct SelectedMailbox: Sendable {
    /// The mailbox.
    package var name: MailboxName
    /// The UIDVALIDITY: when it changes, every cached UID of the mailbox is void.
    package var uidValidity: UInt32
    /// The UID the next message will get, when the server said.
    package var uidNext: UInt32?
    /// The highest mod-sequence (CONDSTORE); nil when the server sent NOMODSEQ or no CONDSTORE data.
    package var highestModSeq: UInt64?
    /// The number of messages.
    package var exists: UInt32
    /// The flags defined in the mailbox (`FLAGS`).
    package var flags: [String]
    /// The flags that can be changed permanently (`PERMANENTFLAGS`); `\*` allows new keywords.
    package var permanentFlags: [String]?
    /// Whether the mailbox was opened read-only (EXAMINE, or `[READ-ONLY]`).
    package var readOnly: Bool
    /// UIDs expunged since the QRESYNC state passed to SELECT (`VANISHED (EARLIER)`).
    package var vanished: UIDSet
    /// Messages changed since the QRESYNC state passed to SELECT (their FETCH responses).
    package var changed: [FetchedMessage]

    /// A mailbox state with the given parts.
    package init(name: MailboxName, uidValidity: UInt32, uidNext: UInt32? = nil, highestModSeq: UInt64? = nil,
                exists: UInt32 = 0, flags: [String] = [], permanentFlags: [String]? = nil, readOnly: Bool = false,
                vanished: UIDSet = UIDSet(), changed: [FetchedMessage] = []) {
        self.name = name
        self.uidValidity = uidValidity
        self.uidNext = uidNext
        self.highestModSeq = highestModSeq
        self.exists = exists
        self.flags = flags
        self.permanentFlags = permanentFlags
        self.readOnly = readOnly
        self.vanished = vanished
        self.changed = changed
    }
}
