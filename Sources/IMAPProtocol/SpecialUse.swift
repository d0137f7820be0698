/// A SPECIAL-USE mailbox role (RFC 6154, plus `\Important` from RFC 8457).
package enum SpecialUse: String, Hashable, Sendable, CaseIterable {
    /// `\All`: a virtual mailbox holding every message.
    case all = "\\All"
    /// `\Archive`.
    case archive = "\\Archive"
    /// `\Drafts`.
    case drafts = "\\Drafts"
    /// `\Flagged`: a virtual mailbox of flagged messages.
    case flagged = "\\Flagged"
    /// `\Junk`.
    case junk = "\\Junk"
    /// `\Sent`.
    case sent = "\\Sent"
    /// `\Trash`.
    case trash = "\\Trash"
    /// `\Important` (RFC 8457).
    case important = "\\Important"

    /// The role an attribute such as `\Sent` names (ASCII case-insensitive), or nil.
    package init?(attribute: String) {
        let wanted = Array(attribute.utf8).map(IMAPByte.upper)
        for use in SpecialUse.allCases where Array(use.rawValue.utf8).map(IMAPByte.upper) == wanted {
            self = use
            return
        }
        return nil
    }
}
