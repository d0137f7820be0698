/// A command a client sends. ``encode(tag:literalPlus:)`` turns it into bytes.
///
/// Mailbox names go out in modified UTF-7 (via ``MailboxName``), strings as quoted strings
/// when safe and as literals otherwise.
package enum IMAPCommand: Hashable, Sendable {
    /// `CAPABILITY`.
    case capability
    /// `NOOP`: also polls for mailbox changes.
    case noop
    /// `LOGOUT`.
    case logout
    /// `STARTTLS`.
    case starttls
    /// `AUTHENTICATE mechanism [initial-response]`. The initial response (RFC 4959 SASL-IR)
    /// is base64, e.g. from ``SASL``; an empty one is sent as `=`.
    case authenticate(mechanism: String, initialResponse: String?)
    /// `LOGIN user password`.
    case login(username: String, password: String)
    /// `ID (...)` (RFC 2971), fields in key order, or `ID NIL` for nil.
    case id([String: String?]?)
    /// `ENABLE ext ...` (RFC 5161), e.g. `CONDSTORE`, `QRESYNC`.
    case enable([String])
    /// `NAMESPACE`.
    case namespace
    /// `LIST reference pattern [RETURN (...)]`; the pattern may hold `*` and `%`.
    case list(reference: String, pattern: String, returnOptions: [ListReturnOption])
    /// `LSUB reference pattern`.
    case lsub(reference: String, pattern: String)
    /// `SELECT mailbox [(CONDSTORE) | (QRESYNC (...))]`.
    case select(MailboxName, SelectOption?)
    /// `EXAMINE mailbox [...]`: SELECT read-only.
    case examine(MailboxName, SelectOption?)
    /// `CREATE mailbox`.
    case create(MailboxName)
    /// `DELETE mailbox`.
    case delete(MailboxName)
    /// `RENAME from to`.
    case rename(from: MailboxName, to: MailboxName)
    /// `SUBSCRIBE mailbox`.
    case subscribe(MailboxName)
    /// `UNSUBSCRIBE mailbox`.
    case unsubscribe(MailboxName)
    /// `STATUS mailbox (items)`.
    case status(MailboxName, [StatusAttribute])
    /// `MYRIGHTS mailbox` (RFC 4314, ACL): the rights the logged-in user has on `mailbox`.
    case myRights(MailboxName)
    /// `CLOSE`: deselect, expunging `\Deleted` messages.
    case close
    /// `UNSELECT` (RFC 3691): deselect without expunging.
    case unselect
    /// `EXPUNGE`.
    case expunge
    /// `UID FETCH set (items) [(CHANGEDSINCE n [VANISHED])]`. `vanished` needs QRESYNC
    /// enabled and a `changedSince` value; it is ignored without one.
    case uidFetch(UIDSet, [FetchItem], changedSince: UInt64? = nil, vanished: Bool = false)
    /// `UID SEARCH [RETURN (...)] [CHARSET UTF-8] keys`. `returnOptions` nil sends a plain
    /// SEARCH; an empty array sends `RETURN ()` (ESEARCH with ALL). `CHARSET UTF-8` is
    /// added when a string holds non-ASCII text. An empty key list searches `ALL`.
    case uidSearch([SearchKey], returnOptions: [SearchReturnOption]? = nil)
    /// `UID STORE set [(UNCHANGEDSINCE n)] +FLAGS.SILENT|-FLAGS.SILENT (flags)`; without
    /// `silent` the server answers with the new flags.
    case uidStore(UIDSet, StoreOperation, flags: [String], unchangedSince: UInt64? = nil, silent: Bool = true)
    /// `UID COPY set mailbox`.
    case uidCopy(UIDSet, to: MailboxName)
    /// `UID MOVE set mailbox` (RFC 6851).
    case uidMove(UIDSet, to: MailboxName)
    /// `UID EXPUNGE set` (RFC 4315): expunge only these `\Deleted` messages.
    case uidExpunge(UIDSet)
    /// `APPEND mailbox [(flags)] [date] literal`; with `utf8`, the message as `UTF8 (~{n}...)` (RFC 6855 section 4:
    /// how a message whose header has raw UTF-8 is APPENDed once UTF8=ACCEPT is enabled).
    case append(to: MailboxName, flags: [String], date: InternalDate?, message: [UInt8], utf8: Bool = false)
    /// `IDLE` (RFC 2177). End it with ``done``.
    case idle
    /// `DONE`: ends IDLE. It is not a tagged command; the tag is ignored.
    case done
}
