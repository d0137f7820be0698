import IMAPProtocol

extension IMAPConnection {
    /// Every mailbox: `LIST "" "*" RETURN (SPECIAL-USE)` when SPECIAL-USE is advertised (so
    /// roles such as `\Sent` come along), else `LIST "" "*"`.
    ///
    /// Each mailbox name comes once (the first response for it wins), however often the server
    /// repeats it; more than ``CommandLimits/maxMailboxes`` distinct names fail the command with
    /// ``IMAPClientError/responseLimitExceeded(command:limit:)``.
    package func list() throws(IMAPClientError) -> [ListItem] {
        try list(status: []).items
    }

    /// Every mailbox as ``list()``, and with a non-empty `status` (the server advertising LIST-STATUS, RFC 5819) each
    /// one's `STATUS` items in the same command (`RETURN (... STATUS (...))`), by the mailbox's wire name (attribute
    /// names uppercased). The first STATUS response of a mailbox wins; those of more than ``CommandLimits/maxMailboxes``
    /// distinct names fail the command as the LIST's do.
    package func list(status: [StatusAttribute]) throws(IMAPClientError) -> (items: [ListItem], statuses: [[UInt8]: [String: UInt64]]) {
        var items: [ListItem] = []
        var seen = Set<[UInt8]>()
        var statuses: [[UInt8]: [String: UInt64]] = [:]
        let cap = limits.maxMailboxes
        var options: [ListReturnOption] = has("SPECIAL-USE") ? [.specialUse] : []
        if !status.isEmpty { options.append(.status(status)) }
        try run(.list(reference: "", pattern: "*", returnOptions: options), name: "LIST") { response throws(IMAPClientError) in
            switch response {
            case .list(let item):
                guard seen.insert(item.mailbox.raw).inserted else { return true }
                items.append(item)
                try self.checkCollected(items.count, limit: cap, "distinct mailboxes")
                return true
            case .status(let mailbox, let attributes) where !status.isEmpty:
                guard statuses[mailbox.raw] == nil else { return true }
                statuses[mailbox.raw] = attributes
                try self.checkCollected(statuses.count, limit: cap, "distinct mailboxes")
                return true
            default:
                return false
            }
        }
        return (items, statuses)
    }

    /// `STATUS mailbox (attributes)`: the items the server answers for `mailbox` (attribute names uppercased; one it
    /// leaves out is missing). A mailbox the server refuses (NO) throws `commandFailed`.
    package func status(_ mailbox: MailboxName, _ attributes: [StatusAttribute]) throws(IMAPClientError) -> [String: UInt64] {
        var found: [String: UInt64]?
        try run(.status(mailbox, attributes), name: "STATUS") { response in
            guard case .status(let name, let items) = response, name.raw == mailbox.raw else { return false }
            if found == nil { found = items }
            return true
        }
        return found ?? [:]
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
