import EventModel
import IMAPClient
import IMAPProtocol
import Projections
import SyncCore

extension SyncEngine {
    /// Syncs one folder: UIDVALIDITY, flag changes, expunges, then new mail newest first. When copies that left it
    /// are shown by the views in folders to sync first (``destinationsAhead(of:gone:)``), those are synced, and the
    /// folder's pass starts again (selected anew).
    ///
    /// `conn` is the engine's connection when the folder's sync starts; a fetch that had to reconnect (a batch the
    /// server failed to deliver, ``fetchNew(_:sizes:folder:validity:generation:_:commit:)``) leaves a new one in ``connection``,
    /// which is used from then on (``connect()``).
    func sync(_ folder: MappedFolder, _ conn: IMAPConnection) throws -> FolderSyncReport {
        var report = FolderSyncReport(folder: folder.path, role: folder.role.description)
        // Recorded for its role only (Gmail's All Mail): never fetched.
        guard folder.syncable else { return report }
        syncedInRun.insert(folder.path)
        // Each pass that defers adds a folder to `syncedInRun`: at most one pass more than the account has folders.
        while true {
            let ahead = try pass(folder, connection ?? conn, report: &report)
            if ahead.isEmpty { return report }
            for d in ahead where !syncedInRun.contains(d.path) {
                do {
                    reportsAhead.append(try sync(d, try connect()))
                } catch where SyncEngine.isFolderGone(error) {
                    // Its mailbox is gone (``isFolderGone(_:)``): recorded removed, the moved mail's copies there with it.
                    syncedInRun.insert(d.path)
                    if let gone = try recordGone(d.path) { reportsAhead.append(gone) }
                } catch where SyncEngine.isFolderRefusal(error) {
                    // The server refused the destination (its SELECT, say): the folder is synced as before, its
                    // expunges recorded, the destination named in the run's failed folders. Anything else (a lost
                    // connection, a protocol error, a full disk) fails the sync as it would have.
                    syncedInRun.insert(d.path)
                    failedAhead.append(FolderSyncFailure(folder: d.path, error: error))
                }
            }
        }
    }

    /// One pass of ``sync(_:_:)``; returns the folders to sync before it can record its expunges (nothing recorded
    /// then but a changed UIDVALIDITY's re-match), else empty once the folder is synced.
    private func pass(_ folder: MappedFolder, _ conn: IMAPConnection, report: inout FolderSyncReport) throws -> [MappedFolder] {
        let name = account.name, path = folder.path
        // The folder's STATUS from this run's LIST (LIST-STATUS): equal to its checkpoint, it is passed unexamined.
        if let status = listedStatus.removeValue(forKey: folder.mailbox.raw), let validity = status["UIDVALIDITY"],
           let exists = status["MESSAGES"], let s = try views.syncState(account: name, folder: path),
           try isUnchanged(s, folder: path, uidValidity: UInt32(exactly: validity), uidNext: status["UIDNEXT"].flatMap { UInt32(exactly: $0) },
                           highestModSeq: status["HIGHESTMODSEQ"].flatMap { $0 == 0 ? nil : $0 }, exists: exists) {
            report.skippedUnfetchable = s.unfetchable
            return []
        }
        let sel: SelectedMailbox
        do { sel = try conn.select(folder.mailbox, readOnly: true, condstore: conn.has("CONDSTORE")) } catch { throw SyncError.server(error) }
        try rediscoverIfGhost(folder)
        var state = try views.syncState(account: name, folder: path)
        if let s = state, s.uidValidity != sel.uidValidity {
            // An empty folder of which no copy is known has nothing to match again, retire or fetch: some
            // servers (Courier) give such a folder a new UIDVALIDITY in every session. Nothing is recorded;
            // the old value stays, and the first sync that finds mail under another value re-matches then.
            if sel.exists == 0, try views.syncedCount(account: name, folder: path) == 0 { return [] }
            // The re-match expunges the copies it does not find again, among them those the user's moves took
            // elsewhere: their destinations are synced first, as for any expunge (the moved mail had shown in no folder).
            let ahead = try destinationsAhead(of: path, gone: Array(try views.syncedCopies(account: name, folder: path).values))
            if !ahead.isEmpty { return ahead }
            state = try rematch(folder, sel, old: s, conn, report: &report)
        }
        // Nothing changed (``isUnchanged``). Those given up are still named.
        let now = clock()
        if let s = state, try isUnchanged(s, folder: path, uidValidity: sel.uidValidity, uidNext: sel.uidNext,
                                          highestModSeq: sel.highestModSeq, exists: UInt64(sel.exists)) {
            report.skippedUnfetchable = s.unfetchable
            return []
        }
        var known = try views.syncedCopies(account: name, folder: path)
        var events: [NewEvent] = []
        var gone = Set<UInt32>()
        // What this pass counts before it may defer (a deferred pass records none of it but the flag changes
        // already appended, ``changedFlags(since:_:_:known:into:report:)``: the next counts the rest).
        var counted = report
        if let s = state {
            let before = report.flagsChanged
            let vanished = try changedFlags(since: s, sel, conn, known: known, into: &events, report: &report)
            gone.formUnion(vanished)
            let appended = report.flagsChanged - before - events.count
            counted.flagsChanged += appended
            counted.events += appended
        }
        let onServer: [UInt32]
        do { onServer = sel.exists == 0 ? [] : try conn.uidSearch([.all]) } catch { throw SyncError.server(error) }
        let serverSet = Set(onServer)
        if state != nil { gone.formUnion(known.keys.filter { !serverSet.contains($0) }) }
        let ahead = try destinationsAhead(of: path, gone: gone.compactMap { known[$0] })
        if !ahead.isEmpty {
            // The user's moves left this folder for those: their new copies are recorded first, then this folder
            // again (selected anew), so its expunges never leave the moved mail in no folder.
            report = counted
            return ahead
        }
        let leaving = gone.sorted().compactMap { known.removeValue(forKey: $0) }
        // On Gmail a copy gone from a label may be in All Mail only (archived): recorded there, not expunged.
        let kept = try keptInAllMail(leaving, leaving: folder, conn)
        for copy in leaving {
            if let there = kept[copy.emailID] {
                events.append(there)
                report.keptInAllMail += 1
            } else {
                events.append(expunged(copy, folder: path))
                report.expunged += 1
            }
        }
        // Those the server failed to deliver whole (twice alone) under this UIDVALIDITY are not fetched again while
        // there, unless this sync is to try them again (`SyncOptions.retryUnfetchable`: all of them) or their retry is
        // due (``UnfetchableMessage/retryAt``: at most ``scheduledRetriesPerPass``): then they are fetched as new mail.
        // A retry is an attempt from its start: the checkpoint before the fetch records each retried message given up
        // once more, now (``UnfetchableMessage/givenUpAgain(at:)``), and each later one keeps it so until its fetch
        // delivers it (then it is stored and no longer given up) or it fails alone twice again (given up once more, now,
        // as recorded). A process killed mid-fetch thus leaves it waiting its next, longer delay, not retried at once
        // with its count started again.
        let givenUp = (state?.uidValidity == sel.uidValidity ? state?.givenUp ?? [] : []).filter { serverSet.contains($0.uid) }
        let retried = options.retryUnfetchable ? givenUp : SyncEngine.dueRetries(givenUp, at: now)
        let retriedByUID = Dictionary(retried.map { ($0.uid, $0) }, uniquingKeysWith: { a, _ in a })
        let unfetchable = givenUp.filter { retriedByUID[$0.uid] == nil }
        if options.retryUnfetchable || !retried.isEmpty { report.retriedUnfetchable = retried.map(\.uid) }
        let given = Set(unfetchable.map(\.uid))
        var missing = onServer.filter { known[$0] == nil && !given.contains($0) }.sorted(by: >)
        // Those the server says are over 64 MiB are left out before the checkpoint (named at every sync while there):
        // a folder whose only mail not stored is such a message appends nothing when nothing changed.
        // A server refusing the size fetch (a NO over a message its index cannot read) has the pass planned without
        // sizes: the expunges and flag changes above are still committed, and the body fetch isolates the bad message.
        let sizes: [UInt32: UInt64]
        do { sizes = try statedSizes(missing, conn) } catch where SyncEngine.isFolderRefusal(error) { sizes = [:] }
        let limit = UInt64(conn.maxMessageBytes)
        let tooLarge = missing.filter { (sizes[$0] ?? 0) > limit }
        if !tooLarge.isEmpty {
            let skipped = Set(tooLarge)
            missing.removeAll { skipped.contains($0) }
        }
        report.skippedTooLarge = tooLarge
        let fetching = Set(missing)
        let attempted = retried.filter { fetching.contains($0.uid) }.map { $0.givenUpAgain(at: now) }
        // The attempted messages not delivered yet (nor given up again) by the fetch below.
        var pending = Set(attempted.map(\.uid))
        let top = max(onServer.last ?? 0, state?.highestUID ?? 0)
        var next = FolderSyncState(uidValidity: sel.uidValidity, highestUID: top, uidNext: sel.uidNext,
                                   highestModSeq: sel.highestModSeq, lowestUIDFetched: missing.first.map(FolderSyncState.fetchMark(above:)),
                                   givenUp: unfetchable + attempted)
        report.skippedUnfetchable = next.unfetchable
        if !events.isEmpty || next != state {
            events.append(checkpoint(path, next))
            // A checkpoint alone, nothing to fetch (an empty folder's first sync, say): committed with others.
            if events.count == 1 && missing.isEmpty { try gather(events[0]) } else { try commitChanges(events) }
            report.events += events.count
        }
        guard !missing.isEmpty else { return [] }
        // The folder's generation: its mail after a rediscovery gets ids of its own (``location(validity:uid:generation:)``).
        let generation = try views.folderGeneration(account: name, folder: path)
        try fetchNew(missing, sizes: sizes, folder: folder, validity: sel.uidValidity, generation: generation,
                     conn) { batch, blobs, lowest, remaining, given, covered in
            next.lowestUIDFetched = remaining == 0 ? nil : lowest
            pending.subtract(covered)
            pending.subtract(given)
            next.givenUp = unfetchable + attempted.filter { pending.contains($0.uid) }
                + given.map { retriedByUID[$0]?.givenUpAgain(at: now) ?? UnfetchableMessage(uid: $0, givenUpAt: now) }
            report.skippedUnfetchable = next.unfetchable
            var all = try self.replacedByArrivals(batch, folder: path)
            all += batch
            all.append(self.checkpoint(path, next))
            let outcomes = try self.store.commit(all, blobs: blobs)
            // Only those the log appended are new (a retried batch's are there already).
            report.received += zip(all, outcomes).count { $0.event.type == .emailReceived && $1.isNew }
            report.events += all.count
        }
        return []
    }

    /// Whether `s`, the checkpoint of `path`, records the folder as the server shows it now (its EXAMINE, or its STATUS
    /// from the LIST): the same UIDVALIDITY, UIDNEXT, mod-sequence (none known: never unchanged, its flags may have
    /// changed) and message count, its last pass finished, and no message given up is to be tried again (asked for or due).
    func isUnchanged(_ s: FolderSyncState, folder path: String, uidValidity: UInt32?, uidNext: UInt32?, highestModSeq: UInt64?,
                     exists: UInt64) throws -> Bool {
        let now = clock()
        guard s.isComplete, s.uidValidity == uidValidity, s.uidNext == uidNext, let m = highestModSeq, s.highestModSeq == m,
              !s.givenUp.contains(where: { options.retryUnfetchable || $0.isDue(at: now) }) else { return false }
        return try UInt64(views.syncedCount(account: account.name, folder: path) + s.givenUp.count) == exists
    }

    /// At most this many messages given up as unfetchable are tried again by one pass of an ordinary sync, those due
    /// first (each that still stalls costs up to three read timeouts, and a fetch may fail at most
    /// ``maxFetchFailures`` times); `sync --retry-unfetchable` tries them all.
    static let scheduledRetriesPerPass = 2

    /// The messages of `givenUp` whose retry is due at `now`, the earliest due first (then the lowest UID), at most
    /// ``scheduledRetriesPerPass``.
    static func dueRetries(_ givenUp: [UnfetchableMessage], at now: Timestamp) -> [UnfetchableMessage] {
        let due = givenUp.filter { $0.isDue(at: now) }.sorted { ($0.retryAt, $0.uid) < ($1.retryAt, $1.uid) }
        return Array(due.prefix(scheduledRetriesPerPass))
    }

    /// The expunges of the copies that `batch`'s new mail of `folder` replaces: copies of the same messages (by
    /// Message-ID) that the views show in `folder` while the server had them in another folder, moved there by the
    /// user's action, written back (none waits for the server). Recorded with the new copies, in one commit: an undo
    /// of an archive, written back, then a sync of the Inbox had listed the message twice there (the copy the undo
    /// moved back, and the new one) until the Archive's own sync. The Archive's sync then finds nothing to expunge.
    ///
    /// Not so on Gmail, where a folder is a label: a message moved out of one may stay in it, and an expunge recorded
    /// without the server's word could not be taken back (the copy's next fetch is the same event, appended once). There
    /// the copies replaced are those kept in All Mail (``keptInAllMail(_:leaving:_:)``), which the account does not sync:
    /// the message is back under a label (an undo of an archive, written back; another client's), listed there.
    func replacedByArrivals(_ batch: [NewEvent], folder: String) throws -> [NewEvent] {
        guard provider.id != "gmail" else { return try keptCopiesReplaced(batch) }
        var candidates: [String] = []
        var seen = Set<String>()
        let views = try self.views
        for ev in batch {
            guard case .emailReceived(let p) = ev.event, let raw = p.messageID, !raw.isEmpty else { continue }
            for copy in try views.copies(account: account.name, messageID: ViewBounds.id(raw))
                where copy.emailID != p.emailID && copy.folder != folder && seen.insert(copy.emailID).inserted {
                candidates.append(copy.emailID)
            }
        }
        guard !candidates.isEmpty else { return [] }
        var pending: Set<String>?
        var out: [NewEvent] = []
        for (id, state) in zip(candidates, try views.emailCopyStates(ids: candidates)) where state?.folder == folder {
            // (A flag waiting for the server does not keep the copy where it is: only a move does.)
            if pending == nil {
                pending = Set(try views.pendingActions(account: account.name).filter { $0.kind.flag == nil }.flatMap(\.pending))
            }
            guard pending?.contains(id) == false, let at = try views.syncedCopy(account: account.name, emailID: id),
                  at.folder != folder else { continue }
            out.append(expunged(at.copy, folder: at.folder))
        }
        return out
    }

    /// The folders to sync before recording `gone` (copies of `folder` no longer on the server) expunged: those the
    /// views show such a copy in now, other than `folder` (moved there by the user's archive, delete or move, written
    /// back), not synced in this run yet, syncable, and synced before (a folder never synced, one `--folder` leaves
    /// out for its size, is not fetched whole for it). Recorded first, the expunge removed the moved copy from every
    /// view (and search, and an undo's targets) until the destination's own sync brought its new copy: with a watch,
    /// which syncs only the Inbox on a change, up to its poll interval; after a sync cut off between the two folders,
    /// until the next sync. Mail another client moved shows in the folder it left: its expunge is recorded as it is.
    func destinationsAhead(of folder: String, gone: [SyncedCopy]) throws -> [MappedFolder] {
        guard !gone.isEmpty else { return [] }
        let views = try self.views
        var paths = Set<String>()
        // Folder and flags only, a chunk of copies per read transaction (`emailCopyStates`).
        for state in try views.emailCopyStates(ids: gone.map(\.emailID)) {
            guard let shown = state?.folder, shown != folder, !syncedInRun.contains(shown) else { continue }
            paths.insert(shown)
        }
        guard !paths.isEmpty else { return [] }
        // Their sync states are read next: the checkpoints gathered are committed first.
        try commitGathered()
        var ahead: [MappedFolder] = []
        for f in mapped where paths.contains(f.path) && f.syncable {
            if try views.syncState(account: account.name, folder: f.path) != nil { ahead.append(f) }
        }
        return ahead
    }

    /// Appends a pass's changes (flag changes, expunges, then its checkpoint last), at most ``eventsPerCommit`` in
    /// one transaction: the checkpoint comes with the last, so a pass cut off between two appends is done again
    /// by the next sync, which finds what is left of the changes (those appended are in the views by then).
    func commitChanges(_ events: [NewEvent]) throws {
        let step = max(1, eventsPerCommit)
        for start in stride(from: 0, to: events.count, by: step) {
            let chunk = Array(events[start..<min(start + step, events.count)])
            try store.commit(chunk)
            largestChangeCommit = max(largestChangeCommit, chunk.count)
        }
    }

    /// Records flag changes since the last checkpoint (CONDSTORE CHANGEDSINCE, else every message's flags)
    /// and returns the UIDs QRESYNC reports VANISHED. Each ``eventsPerCommit`` changes found are appended as they
    /// fill (counted in `report.events`), without a checkpoint: what the fetch holds stays bounded however many
    /// messages another client changed; those of the last, partial chunk are left in `events` for the pass's
    /// commit with its checkpoint.
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
                report.flagsChanged += 1
                if found.count >= self.eventsPerCommit {
                    try self.commitChanges(found)
                    report.events += found.count
                    found.removeAll(keepingCapacity: true)
                }
            }
        } catch let e as IMAPClientError {
            throw SyncError.server(e)
        }
        events.append(contentsOf: found)
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
