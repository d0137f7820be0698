import IMAPProtocol

extension IMAPConnection {
    /// Moves messages to `mailbox`: `UID MOVE` when MOVE is advertised, else `UID COPY`, then
    /// `UID STORE +FLAGS.SILENT (\Deleted)` and `UID EXPUNGE` (UIDPLUS) of exactly those UIDs.
    /// Without MOVE and UIDPLUS it refuses (``IMAPClientError/commandFailed(command:status:text:)``,
    /// nothing sent): a plain EXPUNGE could remove other messages marked `\Deleted`.
    /// Returns the COPYUID when the server sent one.
    public func uidMove(_ set: UIDSet, to mailbox: MailboxName) throws(IMAPClientError) -> CopyUID? {
        if has("MOVE") { return try copyOrMove(.uidMove(set, to: mailbox), name: "UID MOVE") }
        guard has("UIDPLUS") else {
            throw .commandFailed(command: "UID MOVE", status: "NOT SENT",
                                 text: "the server offers neither MOVE nor UIDPLUS; a plain EXPUNGE could remove other messages marked \\Deleted")
        }
        let copied = try uidCopy(set, to: mailbox)
        _ = try uidStore(set, .add, flags: ["\\Deleted"])
        try uidExpunge(set)
        return copied
    }

    /// `UID EXPUNGE set` (UIDPLUS): removes exactly those of `set` that are marked `\Deleted`.
    /// Without UIDPLUS it refuses (nothing sent) rather than expunge every `\Deleted` message.
    /// The expunges are reported to ``onUnsolicited`` (EXPUNGE or VANISHED).
    public func uidExpunge(_ set: UIDSet) throws(IMAPClientError) {
        guard has("UIDPLUS") else {
            throw .commandFailed(command: "UID EXPUNGE", status: "NOT SENT",
                                 text: "the server does not offer UIDPLUS; a plain EXPUNGE could remove other messages marked \\Deleted")
        }
        try run(.uidExpunge(set), name: "UID EXPUNGE")
    }

    /// `UID COPY set mailbox`; returns the COPYUID when the server sent one.
    public func uidCopy(_ set: UIDSet, to mailbox: MailboxName) throws(IMAPClientError) -> CopyUID? {
        try copyOrMove(.uidCopy(set, to: mailbox), name: "UID COPY")
    }

    /// Runs UID COPY or UID MOVE and picks up COPYUID from an untagged OK (MOVE) or the completion (COPY).
    private func copyOrMove(_ command: IMAPCommand, name: String) throws(IMAPClientError) -> CopyUID? {
        var copyUID: CopyUID?
        let completion = try run(command, name: name) { response in
            guard case .condition(.ok, .copyUID(let uidValidity, let source, let destination)?, _) = response else { return false }
            copyUID = CopyUID(uidValidity: uidValidity, source: source, destination: destination)
            return true
        }
        if case .copyUID(let uidValidity, let source, let destination)? = completion.code {
            copyUID = CopyUID(uidValidity: uidValidity, source: source, destination: destination)
        }
        return copyUID
    }
}
