/// A `LIST ... RETURN (...)` option (RFC 5258, RFC 6154, RFC 5819).
package enum ListReturnOption: Hashable, Sendable {
    /// `SPECIAL-USE`: include special-use attributes such as `\Sent`.
    case specialUse
    /// `SUBSCRIBED`: mark subscribed mailboxes.
    case subscribed
    /// `CHILDREN`: include `\HasChildren`/`\HasNoChildren`.
    case children
    /// `STATUS (...)` (LIST-STATUS): a STATUS response per mailbox.
    case status([StatusAttribute])
}
