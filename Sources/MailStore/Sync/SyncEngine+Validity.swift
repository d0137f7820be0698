import EventModel
import IMAPClient
import IMAPProtocol
import MailParser
import Projections
import SyncCore

extension SyncEngine {
    /// A folder's UIDVALIDITY changed (the mailbox was recreated or the server rebuilt its index): every
    /// old UID is retired. Copies still on the server are matched again by Message-ID and size and keep
    /// their email ids (a new `EmailReceived` at the new UID, no new message); unmatched old copies are
    /// expunged; unmatched server messages are left for the normal fetch. Returns the new state.
    func rematch(_ folder: MappedFolder, _ sel: SelectedMailbox, old: FolderSyncState, _ conn: IMAPConnection,
                 report: inout FolderSyncReport) throws -> FolderSyncState {
        let path = folder.path
        report.uidValidityChanged = true
        var events: [NewEvent] = [event(.uidValidityChanged(UIDValidityChanged(folder: path, oldValue: old.uidValidity,
                                                                                newValue: sel.uidValidity)),
                                        stream: folderStream(path),
                                        id: identity.eventID("UIDValidityChanged", account.name, path, "\(old.uidValidity)",
                                                             "\(sel.uidValidity)"))]
        var byKey: [String: [SyncedCopy]] = [:]
        for copy in try views.syncedCopies(account: account.name, folder: path).values.sorted(by: { $0.uid < $1.uid }) {
            guard let id = copy.messageID else { continue }
            byKey["\(id)\u{0}\(copy.size)", default: []].append(copy)
        }
        var claimed = Set<String>()
        var highest: UInt32 = 0
        do {
            if sel.exists > 0 { try conn.uidFetch(.all, [.uid, .flags, .rfc822Size, .body(.headerFields(["MESSAGE-ID"]), peek: true)]) { msg in
                guard let uid = msg.uid, let size = msg.size else { return }
                highest = max(highest, uid)
                guard let header = msg.section("HEADER.FIELDS (MESSAGE-ID)"),
                      let id = MailParser.parse(header).messageID,
                      var candidates = byKey["\(id)\u{0}\(size)"], !candidates.isEmpty else { return }
                let copy = candidates.removeFirst()
                byKey["\(id)\u{0}\(size)"] = candidates
                guard let again = try self.received(again: copy, uid: uid, validity: sel.uidValidity, folder: path) else { return }
                claimed.insert(copy.emailID)
                events.append(again.event)
                // The re-sent event sets the flags of the copy's first arrival: what changed since then (here or on
                // the server) is recorded against those, so the copy ends with the server's flags.
                let flags = SyncEngine.normalized(msg.flags ?? [])
                let sent = again.flags
                if Set(flags) != Set(sent) {
                    events.append(self.event(.flagsChanged(FlagsChanged(emailID: copy.emailID, folder: path, flags: flags,
                                                                        added: flags.filter { !sent.contains($0) },
                                                                        removed: sent.filter { !flags.contains($0) }.sorted(),
                                                                        modSeq: msg.modSeq)),
                                             stream: .email(copy.emailID)))
                }
                report.rematched += 1
            } }
        } catch let e as IMAPClientError { throw SyncError.server(e) }
        for copy in try views.syncedCopies(account: account.name, folder: path).values.sorted(by: { $0.uid < $1.uid })
        where !claimed.contains(copy.emailID) {
            events.append(expunged(copy, folder: path))
            report.expunged += 1
        }
        // Matching is done; whatever the server has beyond the matches is fetched as new mail.
        let state = FolderSyncState(uidValidity: sel.uidValidity, highestUID: highest, uidNext: sel.uidNext,
                                    highestModSeq: sel.highestModSeq, lowestUIDFetched: highest &+ 1)
        events.append(checkpoint(path, state))
        try store.commit(events)
        report.events += events.count
        return state
    }

    /// The `EmailReceived` of a copy found again at a new UID: the original event with the new UID,
    /// its email id kept, and the flags it sets (those of the copy's first arrival, not its current ones);
    /// nil if the original cannot be read.
    func received(again copy: SyncedCopy, uid: UInt32, validity: UInt32, folder: String) throws -> (event: NewEvent, flags: [String])? {
        guard let stored = try store.log.event(at: copy.sequence), case .emailReceived(var p) = try stored.decode() else { return nil }
        p.update {
            $0.uid = uid
            $0.uidValidity = validity
        }
        let event = NewEvent(id: identity.eventID("EmailReceived", account.name, folder, SyncEngine.location(validity: validity, uid: uid)),
                             event: .emailReceived(p), account: account.name, stream: .email(copy.emailID),
                             occurredAt: stored.envelope.occurredAt, correlationID: correlation, actor: .sync)
        return (event, p.flags)
    }
}
