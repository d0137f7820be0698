/// An item `STATUS` can ask for.
package enum StatusAttribute: String, Hashable, Sendable, CaseIterable {
    /// `MESSAGES`: the number of messages.
    case messages = "MESSAGES"
    /// `RECENT`.
    case recent = "RECENT"
    /// `UIDNEXT`: the UID the next message will get.
    case uidNext = "UIDNEXT"
    /// `UIDVALIDITY`.
    case uidValidity = "UIDVALIDITY"
    /// `UNSEEN`: the number of messages without `\Seen`.
    case unseen = "UNSEEN"
    /// `HIGHESTMODSEQ` (RFC 7162).
    case highestModSeq = "HIGHESTMODSEQ"
    /// `SIZE` (RFC 8438): the mailbox size in bytes.
    case size = "SIZE"
    /// `DELETED` (RFC 9051): the number of messages with `\Deleted`.
    case deleted = "DELETED"
}
