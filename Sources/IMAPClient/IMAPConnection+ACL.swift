import IMAPProtocol

extension IMAPConnection {
    /// The logged-in user's rights on `mailbox` (`MYRIGHTS`, RFC 4314), one letter each as the server sent them;
    /// nil when the server does not advertise ACL, or refuses the command (the rights are then unknown, not none).
    /// A connection failure throws.
    package func myRights(_ mailbox: MailboxName) throws(IMAPClientError) -> Set<Character>? {
        guard has("ACL") else { return nil }
        var rights: String?
        do {
            try run(.myRights(mailbox), name: "MYRIGHTS") { response in
                guard case .myRights(let name, let r) = response, name == mailbox else { return false }
                rights = r
                return true
            }
        } catch .commandFailed {
            return nil
        }
        return rights.map { Set($0.lowercased()) }
    }

    /// Whether the user may remove messages from `mailbox` by the ACL: setting `\Deleted` (RFC 4314's `t`) and
    /// expunging (`e`), or RFC 2086's `d` that held both (Courier sends `acdilrsw`). Nil when unknown (no ACL, or
    /// `MYRIGHTS` refused): only trying tells then.
    package func mayRemoveMessages(from mailbox: MailboxName) throws(IMAPClientError) -> Bool? {
        guard let rights = try myRights(mailbox) else { return nil }
        let d = rights.contains("d")
        return (rights.contains("t") || d) && (rights.contains("e") || d)
    }
}
