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
        } catch .temporarilyUnavailable {
            // Advisory: rights not known now are rights unknown, as for a server that refuses the command.
            return nil
        }
        return rights.map { Set($0.lowercased()) }
    }

    /// Whether the user may remove messages from `mailbox` by the ACL (``mayRemoveMessages(rights:)``). Nil when
    /// unknown (no ACL, or `MYRIGHTS` refused): only trying tells then.
    package func mayRemoveMessages(from mailbox: MailboxName) throws(IMAPClientError) -> Bool? {
        guard let rights = try myRights(mailbox) else { return nil }
        return IMAPConnection.mayRemoveMessages(rights: rights)
    }

    /// Whether `rights` (a `MYRIGHTS` answer) allow setting `\Deleted` and expunging: RFC 4314's `t` and `e`; from a
    /// server that answers in RFC 2086's letters only (Courier: `acdilrsw`), its `d`, which held both. An RFC 4314
    /// server also sends `d` when it grants any one of `t`, `e`, `x` (RFC 4314 2.1.1), so beside any of its own
    /// letters (`t`, `e`, `x`, `k`) `d` says nothing: `lrstd` may mark but not expunge.
    package static func mayRemoveMessages(rights: Set<Character>) -> Bool {
        let rfc4314 = rights.contains("t") || rights.contains("e") || rights.contains("x") || rights.contains("k")
        return rfc4314 ? rights.contains("t") && rights.contains("e") : rights.contains("d")
    }
}
