import IMAPProtocol

extension IMAPConnection {
    /// Every mailbox: `LIST "" "*" RETURN (SPECIAL-USE)` when SPECIAL-USE is advertised (so
    /// roles such as `\Sent` come along), else `LIST "" "*"`.
    ///
    /// Each mailbox name comes once (the first response for it wins), however often the server
    /// repeats it; more than ``CommandLimits/maxMailboxes`` distinct names fail the command with
    /// ``IMAPClientError/responseLimitExceeded(command:limit:)``.
    package func list() throws(IMAPClientError) -> [ListItem] {
        var items: [ListItem] = []
        var seen = Set<[UInt8]>()
        let cap = limits.maxMailboxes
        try run(.list(reference: "", pattern: "*", returnOptions: has("SPECIAL-USE") ? [.specialUse] : []),
                name: "LIST") { response throws(IMAPClientError) in
            guard case .list(let item) = response else { return false }
            guard seen.insert(item.mailbox.raw).inserted else { return true }
            items.append(item)
            try self.checkCollected(items.count, limit: cap, "distinct mailboxes")
            return true
        }
        return items
    }

    /// `CREATE mailbox`.
    package func create(_ mailbox: MailboxName) throws(IMAPClientError) {
        try run(.create(mailbox), name: "CREATE")
    }

    /// `DELETE mailbox`.
    package func delete(_ mailbox: MailboxName) throws(IMAPClientError) {
        try run(.delete(mailbox), name: "DELETE")
    }

    /// `RENAME from to`.
    package func rename(_ from: MailboxName, to: MailboxName) throws(IMAPClientError) {
        try run(.rename(from: from, to: to), name: "RENAME")
    }
}
