import IMAPProtocol

extension IMAPConnection {
    /// Moves messages to `mailbox`: `UID MOVE` when MOVE is advertised, else `UID STORE +FLAGS.SILENT
    /// (\Deleted)`, `UID COPY` and `UID EXPUNGE` (UIDPLUS) of exactly those UIDs. `\Deleted` goes first
    /// and is checked (`UID FETCH FLAGS`) before anything is copied: a folder the user may not delete from
    /// answers the STORE with OK and keeps nothing (Courier, Dovecot with ACLs), and a copy made then could
    /// not be removed from the source. A refused COPY takes the `\Deleted` back.
    /// Without MOVE and UIDPLUS it refuses (``IMAPClientError/commandFailed(command:status:text:)``,
    /// nothing sent): a plain EXPUNGE could remove other messages marked `\Deleted`.
    /// Returns the COPYUID when the server sent one.
    package func uidMove(_ set: UIDSet, to mailbox: MailboxName) throws(IMAPClientError) -> CopyUID? {
        if has("MOVE") { return try inParts(set) { part throws(IMAPClientError) in try copyOrMove(.uidMove(part, to: mailbox), name: "UID MOVE") } }
        guard has("UIDPLUS") else {
            throw .commandFailed(command: "UID MOVE", status: "NOT SENT",
                                 text: "the server offers neither MOVE nor UIDPLUS; a plain EXPUNGE could remove other messages marked \\Deleted")
        }
        _ = try uidStore(set, .add, flags: ["\\Deleted"])
        var kept = true
        do {
            try uidFetch(set, [.uid, .flags]) { message in
                if let flags = message.flags, !flags.contains(where: { $0.lowercased() == "\\deleted" }) { kept = false }
            }
        } catch let error as IMAPClientError {
            throw error
        } catch {
            throw .commandFailed(command: "UID FETCH", status: "NO", text: "\(error)")
        }
        guard kept else {
            throw .commandFailed(command: "UID MOVE", status: "NO",
                                 text: "the server did not keep \\Deleted in the source folder (no right to delete there); nothing was copied")
        }
        let copied: CopyUID?
        do {
            copied = try uidCopy(set, to: mailbox)
        } catch {
            _ = try? uidStore(set, .remove, flags: ["\\Deleted"])
            throw error
        }
        try uidExpunge(set)
        return copied
    }

    /// `UID EXPUNGE set` (UIDPLUS): removes exactly those of `set` that are marked `\Deleted`.
    /// Without UIDPLUS it refuses (nothing sent) rather than expunge every `\Deleted` message.
    /// The expunges are reported to ``onUnsolicited`` (EXPUNGE or VANISHED).
    package func uidExpunge(_ set: UIDSet) throws(IMAPClientError) {
        guard has("UIDPLUS") else {
            throw .commandFailed(command: "UID EXPUNGE", status: "NOT SENT",
                                 text: "the server does not offer UIDPLUS; a plain EXPUNGE could remove other messages marked \\Deleted")
        }
        for part in set.parts(maxWireBytes: limits.maxSetBytes) { try run(.uidExpunge(part), name: "UID EXPUNGE") }
    }

    /// `EXPUNGE`: removes every message of the selected folder marked `\Deleted`, not only the caller's; for
    /// servers without UIDPLUS, after the caller has checked (`UID SEARCH DELETED`) that only its own are marked.
    package func expunge() throws(IMAPClientError) {
        try run(.expunge, name: "EXPUNGE")
    }

    /// `UID COPY set mailbox`; returns the COPYUID when the server sent one.
    package func uidCopy(_ set: UIDSet, to mailbox: MailboxName) throws(IMAPClientError) -> CopyUID? {
        try inParts(set) { part throws(IMAPClientError) in try copyOrMove(.uidCopy(part, to: mailbox), name: "UID COPY") }
    }

    /// Runs `command` for each part of `set` within ``CommandLimits/maxSetBytes`` (ascending), merging the
    /// COPYUIDs: each part's source and destination UIDs ascend together, so their unions still pair up. Nil
    /// when a part brought none.
    private func inParts(_ set: UIDSet, _ command: (UIDSet) throws(IMAPClientError) -> CopyUID?) throws(IMAPClientError) -> CopyUID? {
        let parts = set.parts(maxWireBytes: limits.maxSetBytes)
        guard parts.count > 1 else { return try command(set) }
        var merged: CopyUID?
        var complete = true
        for part in parts {
            guard let c = try command(part) else { complete = false; continue }
            if var m = merged, m.uidValidity == c.uidValidity {
                m.source.formUnion(c.source)
                m.destination.formUnion(c.destination)
                merged = m
            } else if merged == nil {
                merged = c
            } else {
                complete = false
            }
        }
        return complete ? merged : nil
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
