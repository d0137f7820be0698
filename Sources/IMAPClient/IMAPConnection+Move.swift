import IMAPProtocol

extension IMAPConnection {
    /// Moves messages to `mailbox`: `UID MOVE` when MOVE is advertised, else RFC 6851's steps: `UID COPY`, `UID STORE
    /// +FLAGS.SILENT (\Deleted)` and `UID EXPUNGE` (UIDPLUS) of exactly those UIDs. Whether the user may delete in the
    /// source is checked before anything is copied, since a folder the user may not delete from answers the STORE with
    /// OK and keeps nothing (Courier, Dovecot with ACLs) and a copy made then could not be removed from the source:
    /// by the ACL when the server has one (`MYRIGHTS`, ``mayRemoveMessages(from:)``: nothing is marked), else by
    /// trying: `\Deleted` set, read back (`UID FETCH FLAGS`) and taken away again (a connection cut between the two
    /// leaves the mark, which the next move of the message takes away, but not an undo). The copy is made while the
    /// source is not marked: a COPY keeps the flags, and copies marked `\Deleted` (as this fallback made them until
    /// 2026-12-06) are erased by the next client that closes the destination folder (Courier; every client's CLOSE or
    /// EXPUNGE). After the expunge the source is read again: a message the server kept there (copied, not removed)
    /// fails the move as refused (``IMAPClientError/commandFailed(command:status:text:)``, `UID EXPUNGE`, `NO`) rather
    /// than report a move the server did not make; the copy stays in the destination, where the next sync finds it.
    /// Without MOVE and UIDPLUS the expunge is a plain `EXPUNGE`, sent only when no other message of the source is
    /// marked `\Deleted` (``expungeOnly(_:)``); else the messages stay copied and marked in the source, and the move
    /// fails with ``IMAPClientError/commandFailed(command:status:text:)``, `EXPUNGE`, ``notExpunged`` (nothing of
    /// anyone else's removed): the caller tries again later, finding the copies already in the destination.
    /// Returns the COPYUID when the server sent one.
    package func uidMove(_ set: UIDSet, to mailbox: MailboxName) throws(IMAPClientError) -> CopyUID? {
        if has("MOVE") { return try inParts(set) { part throws(IMAPClientError) in try copyOrMove(.uidMove(part, to: mailbox), name: "UID MOVE") } }
        let refusal = IMAPClientError.commandFailed(
            command: "UID MOVE", status: "NO", text: "the server did not keep \\Deleted in the source folder (no right to delete there); nothing was copied")
        var allowed: Bool?
        if let source = selectedMailbox { allowed = try mayRemoveMessages(from: source) }
        switch allowed {
        case true?:
            // Unmarked before the copy (all of them: one marked by another client before would be copied marked too).
            _ = try uidStore(set, .remove, flags: ["\\Deleted"])
        case false?:
            throw refusal
        case nil:
            guard try deletesAreKept(set) else {
                // Those that kept the mark lose it again: nothing was copied, and a marked message is erased by the next
                // client that closes the folder.
                _ = try? uidStore(set, .remove, flags: ["\\Deleted"])
                throw refusal
            }
            _ = try uidStore(set, .remove, flags: ["\\Deleted"])
        }
        let copied = try uidCopy(set, to: mailbox)
        _ = try uidStore(set, .add, flags: ["\\Deleted"])
        guard try expungeOnly(set) else {
            throw .commandFailed(command: "EXPUNGE", status: IMAPConnection.notExpunged,
                                 text: "copied to \(mailbox) and marked \\Deleted in \(selectedMailbox.map { "\($0)" } ?? "the source folder"), not "
                                     + "expunged: other messages there are marked \\Deleted too, and this server (without UIDPLUS) can only expunge "
                                     + "them all; tried again later")
        }
        var kept = 0
        do {
            try uidFetch(set, [.uid]) { message in if message.uid != nil { kept += 1 } }
        } catch let error as IMAPClientError {
            throw error
        } catch {
            throw .commandFailed(command: "UID FETCH", status: "NO", text: "\(error)")
        }
        guard kept == 0 else {
            throw .commandFailed(command: "UID EXPUNGE", status: "NO",
                                 text: "the server copied \(kept == 1 ? "a message" : "\(kept) messages") to \(mailbox) but kept "
                                     + "\(kept == 1 ? "it" : "them") in the source folder (no right to delete there?)")
        }
        return copied
    }

    /// Marks `set` `\Deleted` and reads the flags back: false when the server did not keep the mark on every one.
    private func deletesAreKept(_ set: UIDSet) throws(IMAPClientError) -> Bool {
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
        return kept
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

    /// The status of the error a move or ``expungeOnly(_:)``'s caller reports when the messages were marked `\Deleted`
    /// but not expunged (a server without UIDPLUS, other messages marked too): nothing was sent that could remove them.
    package static let notExpunged = "NOT EXPUNGED"

    /// Expunges exactly `set` (those of it marked `\Deleted`) from the selected folder: `UID EXPUNGE` with UIDPLUS;
    /// without it a plain `EXPUNGE`, only when `UID SEARCH DELETED` finds no other message marked `\Deleted` there.
    /// Returns false when nothing was sent because others are marked too: the caller's messages stay marked.
    ///
    /// The race left without UIDPLUS, which no IMAP4rev1 command closes: a message another client marks `\Deleted`
    /// (or appends marked) in the same folder after the server has run the `UID SEARCH DELETED` and before it runs
    /// the `EXPUNGE` is expunged with the caller's. That window is one round trip: the search's reply travelling to
    /// this client and the `EXPUNGE` travelling back. Nothing else is sent between the two commands (the EXPUNGE is
    /// written as soon as the search's tagged OK is read and its UIDs compared with `set`); callers mark their
    /// messages before calling, so the window does not hold their STORE either. (The other client's mark is its
    /// request to have the message expunged at its next EXPUNGE or CLOSE, so what the window loses is a message
    /// that client had asked to remove, though sooner than it chose.)
    package func expungeOnly(_ set: UIDSet) throws(IMAPClientError) -> Bool {
        if has("UIDPLUS") {
            try uidExpunge(set)
            return true
        }
        // From here to the EXPUNGE nothing else goes to the server: the window above is the search's round trip.
        let marked = try uidSearch([.deleted])
        guard !marked.isEmpty else { return true }
        guard marked.allSatisfy({ set.contains($0) }) else { return false }
        try expunge()
        return true
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
