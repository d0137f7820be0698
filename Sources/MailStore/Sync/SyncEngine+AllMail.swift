import EventModel
import IMAPClient
import IMAPProtocol
import Projections
import SyncCore

extension SyncEngine {
    /// Gmail's All Mail (`\All`) when the account does not sync it (the provider excludes it, AC-MP-11), else nil.
    var unsyncedAllMail: MappedFolder? {
        guard provider.hasGmailExtensions else { return nil }
        return mapped.first { $0.role == .all && !$0.syncable }
    }

    /// Gmail: of the copies `gone` from the label folder `folder` (INBOX or a label), those the server's All Mail still
    /// holds, with the event that records each there: its `EmailReceived` again, in All Mail at its UID there, its email
    /// id and current flags kept (the views move it there; `show`, search and an undo of the action that archived it
    /// find it). On Gmail a message leaves a label when it is archived or unlabelled (by this store's write-back or by
    /// another client) and stays in All Mail, which the account does not sync: recorded expunged, it had vanished from
    /// every view although it was still on the server.
    ///
    /// Asked about are the copies the views show in All Mail (archived by the user here), and those of which the views
    /// hold no other copy in a folder the account syncs (a message still under another label stays listed there: its
    /// copy leaving this label is expunged). They are looked for by Message-ID and size (``locate(_:in:_:)``, batches of
    /// ``searchBatch``), which needs nothing recorded at their arrival, so mail synced before is kept too; a copy without a
    /// Message-ID is expunged as before. EXAMINEs All Mail, then selects `folder` again (read-only). None on another
    /// provider, or when All Mail is synced (a server listing `\All` under a name the provider does not exclude).
    func keptInAllMail(_ gone: [SyncedCopy], leaving folder: MappedFolder, _ conn: IMAPConnection) throws -> [String: NewEvent] {
        guard !gone.isEmpty, let all = unsyncedAllMail, all.path != folder.path else { return [:] }
        let views = try self.views
        var asked: [SyncedCopy] = []
        for (copy, state) in zip(gone, try views.emailCopyStates(ids: gone.map(\.emailID))) {
            guard let messageID = copy.messageID, !messageID.isEmpty else { continue }
            if state?.folder == all.path {
                asked.append(copy)
                continue
            }
            var elsewhere = false
            for other in try views.copies(account: account.name, messageID: ViewBounds.id(messageID)) where other.emailID != copy.emailID {
                if let at = try views.syncedCopy(account: account.name, emailID: other.emailID), at.folder != folder.path, at.folder != all.path {
                    elsewhere = true
                    break
                }
            }
            if !elsewhere { asked.append(copy) }
        }
        guard !asked.isEmpty else { return [:] }
        let found: (validity: UInt32, uids: [String: UInt32])
        do {
            found = try locate(asked.map { ($0.emailID, $0) }, in: all.mailbox, conn)
            _ = try conn.select(folder.mailbox, readOnly: true, condstore: conn.has("CONDSTORE"))
        } catch {
            throw SyncError.server(error)
        }
        let generation = try views.folderGeneration(account: account.name, folder: all.path)
        var out: [String: NewEvent] = [:]
        for copy in asked {
            guard let uid = found.uids[copy.emailID],
                  let stored = try store.log.event(at: copy.sequence), case .emailReceived(var p) = try stored.decode() else { continue }
            p.update {
                $0.folder = all.path
                $0.uid = uid
                $0.uidValidity = found.validity
                $0.flags = copy.flags
            }
            // Its own id (not the All Mail location's alone): a message back under a label and archived again is another copy.
            let location = SyncEngine.location(validity: found.validity, uid: uid, generation: generation)
            out[copy.emailID] = NewEvent(id: identity.eventID("EmailKeptInAllMail", account.name, copy.emailID, all.path, location),
                                         event: .emailReceived(p), account: account.name, stream: .email(copy.emailID),
                                         occurredAt: stored.envelope.occurredAt, correlationID: correlation, actor: .sync)
        }
        return out
    }
}

extension SyncEngine {
    /// Gmail: the expunges of the copies kept in All Mail (``keptInAllMail(_:leaving:_:)``) of the messages `batch`
    /// brings into a label folder, recorded with the new copies in one commit: the message is listed under the label
    /// again, once (an undo of an archive, written back, had listed it twice there: the kept copy the undo moved back,
    /// and the new one).
    func keptCopiesReplaced(_ batch: [NewEvent]) throws -> [NewEvent] {
        guard let all = unsyncedAllMail else { return [] }
        let views = try self.views
        var out: [NewEvent] = []
        var seen = Set<String>()
        for ev in batch {
            guard case .emailReceived(let p) = ev.event, p.folder != all.path, let raw = p.messageID, !raw.isEmpty else { continue }
            for copy in try views.copies(account: account.name, messageID: ViewBounds.id(raw))
                where copy.emailID != p.emailID && seen.insert(copy.emailID).inserted {
                guard let at = try views.syncedCopy(account: account.name, emailID: copy.emailID), at.folder == all.path else { continue }
                out.append(expunged(at.copy, folder: at.folder))
            }
        }
        return out
    }
}

extension SyncEngine {
    /// At most this many copies kept in All Mail are checked by ``keptCopiesGone(_:)`` (more: none is checked).
    static let keptCopiesChecked = 10_000

    /// Gmail: the copies kept in All Mail (``keptInAllMail(_:leaving:_:)``) that All Mail no longer holds (deleted on
    /// Gmail since, or moved to Trash or Spam: a synced folder then brings the message back where it is) recorded
    /// expunged, with the report of All Mail; nil when nothing was checked. One EXAMINE of All Mail and one `UID SEARCH
    /// UID` of the kept UIDs, when there are any (at most ``keptCopiesChecked``; copies of another UIDVALIDITY are left).
    func keptCopiesGone(_ conn: IMAPConnection) throws -> FolderSyncReport? {
        guard let all = unsyncedAllMail,
              let uids = try views.syncedUIDs(account: account.name, folder: all.path, limit: SyncEngine.keptCopiesChecked),
              !uids.isEmpty else { return nil }
        var report = FolderSyncReport(folder: all.path, role: all.role.description)
        let there: Set<UInt32>
        let validity: UInt32
        do {
            let sel = try conn.select(all.mailbox, readOnly: true, condstore: false)
            validity = sel.uidValidity
            there = sel.exists == 0 ? [] : Set(try conn.uidSearch([.uid(UIDSet(uids))]))
        } catch {
            throw SyncError.server(error)
        }
        let gone = try views.syncedCopies(account: account.name, folder: all.path).values
            .filter { $0.uidValidity == validity && !there.contains($0.uid) }.sorted { $0.uid < $1.uid }
        guard !gone.isEmpty else { return report }
        let events = gone.map { expunged($0, folder: all.path) }
        try store.commit(events)
        report.expunged = gone.count
        report.events = events.count
        return report
    }
}
