import EventModel
import IMAPClient
import IMAPProtocol
import Projections
import SyncCore

extension SyncEngine {
    /// Syncs one folder: UIDVALIDITY, flag changes, expunges, then new mail newest first.
    func sync(_ folder: MappedFolder, _ conn: IMAPConnection) throws -> FolderSyncReport {
        var report = FolderSyncReport(folder: folder.path, role: folder.role.description)
        // Recorded for its role only (Gmail's All Mail): never fetched.
        guard folder.syncable else { return report }
        let name = account.name, path = folder.path
        syncedInRun.insert(path)
        let sel: SelectedMailbox
        do { sel = try conn.select(folder.mailbox, readOnly: true, condstore: conn.has("CONDSTORE")) } catch { throw SyncError.server(error) }
        var state = try views.syncState(account: name, folder: path)
        if let s = state, s.uidValidity != sel.uidValidity {
            // An empty folder of which no copy is known has nothing to match again, retire or fetch: some
            // servers (Courier) give such a folder a new UIDVALIDITY in every session. Nothing is recorded;
            // the old value stays, and the first sync that finds mail under another value re-matches then.
            if sel.exists == 0, try views.syncedCount(account: name, folder: path) == 0 { return report }
            state = try rematch(folder, sel, old: s, conn, report: &report)
        }
        // Nothing changed: same UIDNEXT, mod-sequence and message count, and the last pass finished.
        if let s = state, s.isComplete, s.uidValidity == sel.uidValidity, s.uidNext == sel.uidNext,
           let m = sel.highestModSeq, s.highestModSeq == m,
           try views.syncedCount(account: name, folder: path) == Int(sel.exists) {
            return report
        }
        var known = try views.syncedCopies(account: name, folder: path)
        var events: [NewEvent] = []
        var gone = Set<UInt32>()
        if let s = state {
            let vanished = try changedFlags(since: s, sel, conn, known: known, into: &events, report: &report)
            gone.formUnion(vanished)
        }
        let onServer: [UInt32]
        do { onServer = sel.exists == 0 ? [] : try conn.uidSearch([.all]) } catch { throw SyncError.server(error) }
        let serverSet = Set(onServer)
        if state != nil { gone.formUnion(known.keys.filter { !serverSet.contains($0) }) }
        let ahead = try destinationsAhead(of: path, gone: gone.compactMap { known[$0] })
        if !ahead.isEmpty {
            // The user's moves left this folder for those: their new copies are recorded first, then this folder
            // again (selected anew), so its expunges never leave the moved mail in no folder.
            for d in ahead { reportsAhead.append(try sync(d, conn)) }
            return try sync(folder, conn)
        }
        for uid in gone.sorted() {
            guard let copy = known.removeValue(forKey: uid) else { continue }
            events.append(expunged(copy, folder: path))
            report.expunged += 1
        }
        let missing = onServer.filter { known[$0] == nil }.sorted(by: >)
        let top = max(onServer.last ?? 0, state?.highestUID ?? 0)
        var next = FolderSyncState(uidValidity: sel.uidValidity, highestUID: top, uidNext: sel.uidNext,
                                   highestModSeq: sel.highestModSeq, lowestUIDFetched: missing.first.map { $0 &+ 1 })
        if !events.isEmpty || next != state {
            events.append(checkpoint(path, next))
            try store.commit(events)
            report.events += events.count
        }
        guard !missing.isEmpty else { return report }
        report.skippedTooLarge = try fetchNew(missing, folder: folder, validity: sel.uidValidity, conn) { batch, blobs, lowest, remaining in
            next.lowestUIDFetched = remaining == 0 ? nil : lowest
            var all = batch
            all.append(self.checkpoint(path, next))
            try self.store.commit(all, blobs: blobs)
            report.received += batch.count { $0.event.type == .emailReceived }
            report.events += all.count
        }
        return report
    }

    /// The folders to sync before recording `gone` (copies of `folder` no longer on the server) expunged: those the
    /// views show such a copy in now, other than `folder` (moved there by the user's archive, delete or move, written
    /// back), not synced in this run yet, and syncable. Recorded first, the expunge removed the moved copy from every
    /// view (and search, and an undo's targets) until the destination's own sync brought its new copy: with a watch,
    /// which syncs only the Inbox on a change, up to its poll interval; after a sync cut off between the two folders,
    /// until the next sync. Mail another client moved shows in the folder it left: its expunge is recorded as it is.
    func destinationsAhead(of folder: String, gone: [SyncedCopy]) throws -> [MappedFolder] {
        guard !gone.isEmpty else { return [] }
        let views = try self.views
        var paths = Set<String>()
        for copy in gone {
            guard let shown = try views.emailRecord(id: copy.emailID)?.folder, shown != folder,
                  !syncedInRun.contains(shown) else { continue }
            paths.insert(shown)
        }
        return mapped.filter { paths.contains($0.path) && $0.syncable }
    }

    /// Records flag changes since the last checkpoint (CONDSTORE CHANGEDSINCE, else every message's flags)
    /// and returns the UIDs QRESYNC reports VANISHED.
    func changedFlags(since s: FolderSyncState, _ sel: SelectedMailbox, _ conn: IMAPConnection, known: [UInt32: SyncedCopy],
                      into events: inout [NewEvent], report: inout FolderSyncReport) throws -> [UInt32] {
        // An empty mailbox has nothing to report (its expunges show in the UID SEARCH diff).
        guard !known.isEmpty, sel.exists > 0 else { return [] }
        let condstore = sel.highestModSeq != nil && s.highestModSeq != nil
        if condstore && s.highestModSeq == sel.highestModSeq { return [] }
        var found: [NewEvent] = []
        let vanished: UIDSet
        do {
            vanished = try conn.uidFetch(.all, condstore ? [.uid, .flags, .modSeq] : [.uid, .flags],
                                         changedSince: condstore ? s.highestModSeq : nil, vanished: condstore && qresyncEnabled) { msg in
                guard let uid = msg.uid, let flags = msg.flags, let copy = known[uid] else { return }
                let now = SyncEngine.normalized(flags)
                guard Set(now) != Set(copy.flags) else { return }
                let before = Set(copy.flags)
                found.append(self.event(.flagsChanged(FlagsChanged(emailID: copy.emailID, folder: report.folder, flags: now,
                                                                   added: now.filter { !before.contains($0) },
                                                                   removed: copy.flags.filter { !Set(now).contains($0) }.sorted(),
                                                                   modSeq: msg.modSeq)),
                                        stream: .email(copy.emailID)))
            }
        } catch let e as IMAPClientError {
            throw SyncError.server(e)
        }
        events.append(contentsOf: found)
        report.flagsChanged += found.count
        // Only UIDs this store knows can vanish from it: the server's ranges are never expanded.
        return vanished.isEmpty ? [] : vanished.resolvingStar(to: s.highestUID).members(of: known.keys)
    }

    /// Flags as stored: `\Recent` (a session flag) dropped, system flags in their canonical case, sorted.
    static func normalized(_ flags: [String]) -> [String] {
        var out = Set<String>()
        for f in flags {
            let canonical = systemFlags.first { $0.caseInsensitiveCompare(f) == .orderedSame } ?? f
            if canonical == "\\Recent" { continue }
            out.insert(canonical)
        }
        return out.sorted()
    }

    static let systemFlags = ["\\Seen", "\\Answered", "\\Flagged", "\\Deleted", "\\Draft", "\\Recent"]
}
