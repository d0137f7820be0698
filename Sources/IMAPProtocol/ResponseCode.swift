/// A response code: the bracketed part of `OK [UIDVALIDITY 3857529045] UIDs valid`.
package enum ResponseCode: Hashable, Sendable {
    /// `ALERT`: the text must be shown to the user.
    case alert
    /// `PARSE`: the server could not parse a message's headers.
    case parse
    /// `READ-ONLY`: the mailbox is selected read-only.
    case readOnly
    /// `READ-WRITE`: the mailbox is selected read-write.
    case readWrite
    /// `TRYCREATE`: the target mailbox does not exist but could be created.
    case tryCreate
    /// `NOMODSEQ` (RFC 7162): the mailbox does not support mod-sequences.
    case noModSeq
    /// `UIDNOTSTICKY` (RFC 4315): UIDs are not kept across sessions.
    case uidNotSticky
    /// `ALREADYEXISTS` (RFC 5530).
    case alreadyExists
    /// `NONEXISTENT` (RFC 5530).
    case nonExistent
    /// `CLOSED` (RFC 7162): the previously selected mailbox is now closed.
    case closed
    /// `UIDVALIDITY n`.
    case uidValidity(UInt32)
    /// `UIDNEXT n`.
    case uidNext(UInt32)
    /// `UNSEEN n`: the sequence number of the first unseen message.
    case unseen(UInt32)
    /// `HIGHESTMODSEQ n` (RFC 7162).
    case highestModSeq(UInt64)
    /// `PERMANENTFLAGS (...)`; `\*` means new keywords may be created.
    case permanentFlags([String])
    /// `CAPABILITY ...`.
    case capability([String])
    /// `APPENDUID uidvalidity uids` (RFC 4315); one UID unless MULTIAPPEND was used.
    case appendUID(uidValidity: UInt32, uids: UIDSet)
    /// `COPYUID uidvalidity source-uids destination-uids` (RFC 4315), also sent by MOVE.
    case copyUID(uidValidity: UInt32, source: UIDSet, destination: UIDSet)
    /// `MODIFIED set` (RFC 7162): messages not stored because UNCHANGEDSINCE failed.
    case modified(UIDSet)
    /// Any other code: its name uppercased and the text after it, if any.
    case other(name: String, raw: String?)
}
