import IMAPProtocol

extension IMAPConnection {
    /// Every mailbox: `LIST "" "*" RETURN (SPECIAL-USE)` when SPECIAL-USE is advertised (so
    /// roles such as `\Sent` come along), else `LIST "" "*"`.
    public func list() throws(IMAPClientError) -> [ListItem] {
        var items: [ListItem] = []
        try run(.list(reference: "", pattern: "*", returnOptions: has("SPECIAL-USE") ? [.specialUse] : []), name: "LIST") { response in
            guard case .list(let item) = response else { return false }
            items.append(item)
            return true
        }
        return items
    }

    /// `CREATE mailbox`.
    public func create(_ mailbox: MailboxName) throws(IMAPClientError) {
        try run(.create(mailbox), name: "CREATE")
    }

    /// `DELETE mailbox`.
    public func delete(_ mailbox: MailboxName) throws(IMAPClientError) {
        try run(.delete(mailbox), name: "DELETE")
    }
}
