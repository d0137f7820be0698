/// Data and status the server sends with a `*` prefix.
///
/// Responses this module does not model arrive as ``other(name:raw:)``; reading never fails
/// on an unknown response name.
package enum UntaggedResponse: Hashable, Sendable {
    /// `* OK|NO|BAD|BYE|PREAUTH [code] text`.
    case condition(UntaggedCondition, code: ResponseCode?, text: String)
    /// `* CAPABILITY ...`: capability names as sent (compare them case-insensitively).
    case capability([String])
    /// `* ENABLED ...` (RFC 5161): the extensions the server turned on.
    case enabled([String])
    /// `* LIST (attributes) delimiter mailbox`.
    case list(ListItem)
    /// `* LSUB (attributes) delimiter mailbox`.
    case lsub(ListItem)
    /// `* STATUS mailbox (name value ...)`; attribute names are uppercased.
    case status(mailbox: MailboxName, attributes: [String: UInt64])
    /// `* n EXISTS`: the mailbox now holds `n` messages.
    case exists(UInt32)
    /// `* n RECENT`.
    case recent(UInt32)
    /// `* n EXPUNGE`: message sequence number `n` was removed.
    case expunge(UInt32)
    /// `* VANISHED [(EARLIER)] uids` (RFC 7162): these UIDs were expunged.
    case vanished(earlier: Bool, uids: UIDSet)
    /// `* SEARCH n ... [(MODSEQ m)]`: matching numbers (UIDs after UID SEARCH) and, with
    /// CONDSTORE, the highest mod-sequence among them.
    case search([UInt32], modSeq: UInt64?)
    /// `* ESEARCH ...` (RFC 4731).
    case esearch(ESearchResponse)
    /// `* FLAGS (...)`: the flags defined in the selected mailbox.
    case flags([String])
    /// `* n FETCH (...)`: data about the message with sequence number `seq`.
    case fetch(seq: UInt32, attributes: [FetchAttribute])
    /// `* ID (...)` or `* ID NIL` (RFC 2971): server identification fields.
    case id([String: String?])
    /// `* NAMESPACE ...` (RFC 2342).
    case namespace(NamespaceResponse)
    /// `* MYRIGHTS mailbox rights` (RFC 4314): the rights as sent, one letter each (RFC 2086's `d` and `c` included).
    case myRights(mailbox: MailboxName, rights: String)
    /// Any other response: its name uppercased (for `* 3 XYZ ...` the word after the number)
    /// and the raw bytes after `* ` up to, not including, the final line terminator.
    case other(name: String, raw: [UInt8])
}
