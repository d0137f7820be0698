/// One mailbox from a `LIST` or `LSUB` response.
package struct ListItem: Hashable, Sendable {
    /// Attributes as sent, e.g. `\HasNoChildren`, `\Noselect`, `\Sent` (compare case-insensitively).
    package var attributes: [String]
    /// The hierarchy delimiter, or nil when the server sent `NIL` (a flat namespace).
    package var delimiter: String?
    /// The mailbox name, raw and decoded.
    package var mailbox: MailboxName
    /// The extended data list (RFC 5258), such as `("CHILDINFO" ("SUBSCRIBED"))`, if sent.
    package var extendedData: IMAPValue?

    /// A list item with the given parts.
    package init(attributes: [String], delimiter: String?, mailbox: MailboxName, extendedData: IMAPValue? = nil) {
        self.attributes = attributes
        self.delimiter = delimiter
        self.mailbox = mailbox
        self.extendedData = extendedData
    }

    /// Whether an attribute equal to `name` (ASCII case-insensitive, e.g. `"\\Noselect"`) is present.
    package func hasAttribute(_ name: String) -> Bool {
        let wanted = Array(name.utf8).map(IMAPByte.upper)
        return attributes.contains { Array($0.utf8).map(IMAPByte.upper) == wanted }
    }

    /// The SPECIAL-USE role (RFC 6154) the attributes announce, if any.
    package var specialUse: SpecialUse? {
        for attribute in attributes {
            if let use = SpecialUse(attribute: attribute) { return use }
        }
        return nil
    }

    /// Whether the mailbox can be selected (no `\Noselect` or `\NonExistent`).
    package var isSelectable: Bool { !hasAttribute("\\Noselect") && !hasAttribute("\\NonExistent") }
}
