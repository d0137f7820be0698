import IMAPProtocol

extension IMAPConnection {
    /// Opens `mailbox` with SELECT (or EXAMINE when `readOnly`) and returns its state.
    ///
    /// Sends `(QRESYNC (...))` when `qresync` is given (QRESYNC must have been enabled with
    /// ``enable(_:)``): the result then lists what vanished and changed since that state.
    /// Otherwise sends `(CONDSTORE)` when `condstore` is set and the server advertises CONDSTORE,
    /// so the highest mod-sequence is reported. A `HIGHESTMODSEQ` from a server that advertises neither CONDSTORE
    /// nor QRESYNC is not taken (RFC 7162 section 3: no `CHANGEDSINCE` or `MODSEQ` may be sent to it, and a value it
    /// does not keep up to date would hide other clients' flag changes from the "nothing changed" check).
    package func select(_ mailbox: MailboxName, readOnly: Bool = false, condstore: Bool = true,
                       qresync: QResyncParameters? = nil) throws(IMAPClientError) -> SelectedMailbox {
        let name = readOnly ? "EXAMINE" : "SELECT"
        let option: SelectOption?
        if let qresync {
            guard enabledExtensions.contains("QRESYNC") else {
                throw .commandFailed(command: name, status: "NOT SENT", text: "QRESYNC parameters need enable([\"QRESYNC\"]) first")
            }
            option = .qresync(qresync)
        } else {
            option = condstore && has("CONDSTORE") ? .condstore : nil
        }
        var state = SelectState()
        selectedUIDNext = nil
        selectedMailbox = nil  // a SELECT that fails leaves none selected (RFC 3501 6.3.1)
        let completion = try run(readOnly ? .examine(mailbox, option) : .select(mailbox, option), name: name) { response throws(IMAPClientError) in
            let taken = state.take(response)
            try self.checkCollected(max(state.changed.count, state.vanishedRanges.count))
            return taken
        }
        selectedUIDNext = state.uidNext
        selectedExists = state.exists ?? 0
        selectedMailbox = mailbox
        guard let uidValidity = state.uidValidity else {
            throw fail(.protocolError("the server did not report UIDVALIDITY for \(mailbox)"))
        }
        return SelectedMailbox(
            name: mailbox, uidValidity: uidValidity, uidNext: state.uidNext,
            highestModSeq: state.noModSeq || !advertisesModSeqs ? nil : state.highestModSeq, exists: state.exists ?? 0,
            flags: state.flags, permanentFlags: state.permanentFlags,
            readOnly: readOnly || completion.code == .readOnly, vanished: UIDSet(ranges: state.vanishedRanges),
            changed: state.changed)
    }

    /// Whether the server advertises mod-sequences: CONDSTORE, or QRESYNC, which implies it (RFC 7162 section 3.2.3).
    private var advertisesModSeqs: Bool { has("CONDSTORE") || has("QRESYNC") }
}
