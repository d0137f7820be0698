import EventLog
import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailParser
import Projections
import SyncCore

extension SyncEngine {
    /// Writes the account's pending actions back to the server, oldest first, and records each outcome:
    /// `ActionApplied`; `ActionRejected` plus the compensation (`FlagRejected`, `ActionReverted`) when the
    /// server refuses (a NO, a read-only folder, PERMANENTFLAGS without the flag, or a flag it did not keep);
    /// `ActionFailed` with the next retry time when the connection fails. What the server already shows is
    /// recorded as applied without sending anything, so an operation done before a crash is never done twice.
    /// Actions waiting for a retry are skipped unless named in `force`. Then the drafts go to the server's
    /// Drafts folder (`syncDrafts`, SyncEngine+Drafts.swift).
    public func writeBack(force: Set<String> = []) throws -> WriteBackReport {
        try exclusively {
            var report = try writeBackLocked(force: force)
            report.drafts = try syncDraftsLocked(force: false)
            return report
        }
    }

    private func writeBackLocked(force: Set<String>) throws -> WriteBackReport {
        var report = WriteBackReport()
        let pending = try store.latestViews().pendingActions(account: account.name)
        let due = SyncEngine.due(pending, force: force, now: .now)
        // Those left for their retry time are counted (a sync after a lost connection said "0 to retry" while some waited).
        let dueIDs = Set(due.map(\.id))
        report.waiting = pending.filter { !dueIDs.contains($0.id) }.reduce(0) { $0 + $1.pending.count }
        guard !due.isEmpty else { return report }
        let conn = try connect()
        if mapped.isEmpty {
            var ignored = SyncReport(account: account.name)
            mapped = try discoverFolders(conn, report: &ignored)
        }
        for due in due {
            // One action at a time under the write-back lock, read again under it: an undo from another process
            // waits for the action's outcome, or comes first and leaves nothing to send.
            let failed = try writingBack { () throws -> Bool in
                guard let r = try store.latestViews().action(id: due.id.description), !r.undone, !r.pending.isEmpty else { return false }
                var outcome = ActionOutcome()
                do {
                    try perform(r, conn, into: &outcome)
                } catch let e as SyncError {
                    guard case .server(let error) = e, SyncWatcher.isTransient(e) else { throw e }
                    outcome.failedReason = error.description
                }
                try record(r, outcome, into: &report)
                // A lost connection ends the write-back; a move left to finish later (``ActionOutcome/deferred``) does not.
                return outcome.failedReason != nil && !outcome.deferred
            }
            if failed { disconnect() ; break }
        }
        return report
    }

    /// The actions of `pending` (oldest first) to send now, in order: those whose retry time has come (or never set),
    /// and those named in `force` with every older pending action on any of their emails (a push sends what came
    /// before it on the same mail first). An action sharing an email with an older one that waits, waits too: the
    /// server gets a message's actions in the order the user took them (a star waiting after a lost connection, then
    /// an unstar: the unstar had been sent first and the star after it, leaving the message starred).
    package static func due(_ pending: [ActionRecord], force: Set<String>, now: Timestamp) -> [ActionRecord] {
        // Newest first: a forced action forces the older ones on its emails.
        var forced = force
        var forcedEmails = Set<String>()
        for r in pending.reversed() {
            if forced.contains(r.id.description) || !forcedEmails.isDisjoint(with: r.pending) {
                forced.insert(r.id.description)
                forcedEmails.formUnion(r.pending)
            }
        }
        var held = Set<String>()
        var out: [ActionRecord] = []
        for r in pending {
            let isDue = forced.contains(r.id.description) || (r.retryAt.map { RetryBackoff.hasCome($0, now: now) } ?? true)
            if isDue && held.isDisjoint(with: r.pending) {
                out.append(r)
            } else {
                held.formUnion(r.pending)
            }
        }
        return out
    }

    /// What the server made of one action's pending copies.
    struct ActionOutcome {
        var applied: [String] = []
        var rejected: [(emailID: String, reason: String)] = []
        var failedReason: String?
        /// The failure is not the connection's: the server took part of the action and the rest is tried again after
        /// the backoff (a move copied and marked `\Deleted` on a server without UIDPLUS that could not expunge only
        /// it); the write-back goes on with the next action on the same connection.
        var deferred = false

        /// Records that the copies not applied or refused are left for a retry, for `reason`: the action's `attempt`th
        /// attempt that found them unexpunged (``SyncEngine/unexpungedAttempts(_:)`` counts them by the reason's lead).
        mutating func postpone(_ reason: String, attempt: UInt32) {
            failedReason = failedReason ?? "\(SyncEngine.unexpungedLead) (attempt \(attempt) of \(SyncEngine.maxUnexpungedAttempts) "
                + "before the move is given up): \(reason)"
            deferred = true
        }
    }

    /// Sends one action to the server, folder by folder. A UID is sent only under the UIDVALIDITY it was recorded
    /// with (`current(_:in:validity:_:)`): after the folder's UIDVALIDITY changed, the copy is found again first.
    func perform(_ r: ActionRecord, _ conn: IMAPConnection, into outcome: inout ActionOutcome) throws {
        var byFolder: [String: [(target: ActionTarget, copy: SyncedCopy)]] = [:]
        let pending = Set(r.pending)
        for t in r.targets where pending.contains(t.emailID) {
            if let (folder, copy) = try views.syncedCopy(account: account.name, emailID: t.emailID) {
                byFolder[folder, default: []].append((t, copy))
            } else {
                // No server copy (imported mail, or not synced): the action is complete locally.
                outcome.applied.append(t.emailID)
            }
        }
        // The attempts that found this move's copies unexpunged so far: only those bring its give-up closer.
        let blocked = r.kind.flag == nil && !byFolder.isEmpty && !conn.has("MOVE") ? try unexpungedAttempts(r) : 0
        let copiedBefore = r.kind.flag == nil && !byFolder.isEmpty ? try retriesAttemptedMove(r) : false
        for folder in byFolder.keys.sorted() {
            let group = byFolder[folder]!
            guard let source = mapped.first(where: { $0.path == folder }) else {
                outcome.rejected += group.map { ($0.target.emailID, "the folder \(folder) is no longer on the server") }
                continue
            }
            do {
                if let (flag, set) = r.kind.flag {
                    try storeFlag(flag, set: set, group, in: source, conn, into: &outcome)
                } else {
                    try move(group, from: source, to: r.destination ?? "", attempts: r.attempts, blocked: blocked,
                             copiedBefore: copiedBefore, conn, into: &outcome)
                }
            } catch let error as IMAPClientError {
                if case .commandFailed(_, IMAPConnection.notExpunged, let text) = error {
                    // Copied and marked, not expunged (others marked too, no UIDPLUS): tried again later, where the
                    // copies are found in the destination and only expunged from the source.
                    outcome.postpone(text, attempt: blocked + 1)
                } else if case .commandFailed(_, let status, let text) = error, status == "NO" || status == "BAD" {
                    // Those the server already took in this group (a retried move's copies found in the destination) stay
                    // applied: refused too, they would be reverted in the views though the server has moved them.
                    let done = Set(outcome.applied)
                    outcome.rejected += group.filter { !done.contains($0.target.emailID) }.map { ($0.target.emailID, text) }
                } else {
                    throw SyncError.server(error)
                }
            }
            SyncEngine.failpoint("after-server-write")
        }
    }

    /// Sets or clears a flag; checks PERMANENTFLAGS first and the flags the server reports after. A copy gone from
    /// the folder whose target names another one (where the views have it: a write-back moved it there before any
    /// sync saw where it went) is looked for there by Message-ID and changed there; one gone otherwise was expunged
    /// meanwhile, and has nothing left to change. A copy of another UIDVALIDITY is found again first (`current`).
    func storeFlag(_ flag: String, set: Bool, _ copies: [(target: ActionTarget, copy: SyncedCopy)], in folder: MappedFolder,
                   _ conn: IMAPConnection, into outcome: inout ActionOutcome) throws {
        let sel = try conn.select(folder.mailbox, readOnly: false, condstore: conn.has("CONDSTORE"))
        let refusal = set ? "the server does not keep \(flag) in \(folder.path)" : "the server did not clear \(flag) in \(folder.path)"
        if sel.readOnly {
            outcome.rejected += copies.map { ($0.target.emailID, "\(folder.path) is read-only for this account") }
            return
        }
        if let permanent = sel.permanentFlags, !permanent.contains("\\*"),
           !permanent.contains(where: { $0.caseInsensitiveCompare(flag) == .orderedSame }) {
            outcome.rejected += copies.map { ($0.target.emailID, refusal) }
            return
        }
        let (group, absent) = try current(copies, in: folder.path, validity: sel.uidValidity, conn)
        var moved: [ActionTarget] = []
        func notHere(_ t: ActionTarget) {
            if t.folder != folder.path { moved.append(t) }
            else { outcome.applied.append(t.emailID) }  // expunged meanwhile: nothing left to change
        }
        absent.forEach(notHere)
        if !group.isEmpty {
            let uids = UIDSet(group.map(\.uid))
            let before = try flags(of: uids, conn)
            let todo = group.filter { has(before[$0.uid], flag) != set }
            if !todo.isEmpty { _ = try conn.uidStore(UIDSet(todo.map(\.uid)), set ? .add : .remove, flags: [flag]) }
            let after = todo.isEmpty ? before : try flags(of: uids, conn)
            for g in group {
                if after[g.uid] == nil { notHere(g.target) }
                else if has(after[g.uid], flag) == set { outcome.applied.append(g.target.emailID) }
                else { outcome.rejected.append((g.target.emailID, refusal)) }
            }
        }
        // Found again where they went, by Message-ID: first where the views have each copy now (every action taken since
        // folded in, an undo of a move included), then where the action saw it; a copy found in neither was expunged
        // meanwhile. (Looked for only where the action saw it, a star taken after a move that was undone before it
        // reached the server was looked for in the move's folder, not found, and counted as applied: lost.)
        func store(_ name: String, _ readOnly: Bool, _ located: [(target: ActionTarget, uid: UInt32)]) throws(IMAPClientError) {
            if readOnly {
                outcome.rejected += located.map { ($0.target.emailID, "\(name) is read-only for this account") }
                return
            }
            let uidsThere = UIDSet(located.map(\.uid))
            _ = try conn.uidStore(uidsThere, set ? .add : .remove, flags: [flag])
            let now = try flags(of: uidsThere, conn)
            for g in located {
                if now[g.uid] == nil || has(now[g.uid], flag) == set { outcome.applied.append(g.target.emailID) }
                else { outcome.rejected.append((g.target.emailID, refusal)) }
            }
        }
        let nowIn = (try? views.emailCopyStates(ids: moved.map(\.emailID))) ?? []
        let elsewhere = zip(moved, nowIn + Array(repeating: nil, count: max(0, moved.count - nowIn.count))).compactMap { t, state -> ActionTarget? in
            guard let state, state.folder != t.folder, state.folder != folder.path else { return nil }
            var there = t
            there.folder = state.folder
            return there
        }
        let notFoundElsewhere = Set(try relocated(elsewhere, conn, found: store).map(\.emailID))
        let lookedFor = Set(elsewhere.map(\.emailID))
        let gone = try relocated(moved.filter { !lookedFor.contains($0.emailID) || notFoundElsewhere.contains($0.emailID) }, conn, found: store)
        outcome.applied += gone.map(\.emailID)
    }

    /// Copies a write-back moved before any sync saw where they went (the sync state still has them where they
    /// were): selects in turn each folder the views have them in (their targets' folder, read-write), finds each
    /// copy there by its Message-ID (the newest match: the copy that move made) and calls `found` with the
    /// folder's path, whether it is read-only, and the copies found with their UIDs. Returns those found nowhere.
    func relocated(_ targets: [ActionTarget], _ conn: IMAPConnection,
                   found: (String, Bool, [(target: ActionTarget, uid: UInt32)]) throws(IMAPClientError) -> Void)
        throws(IMAPClientError) -> [ActionTarget] {
        var missing: [ActionTarget] = []
        let byFolder = Dictionary(grouping: targets, by: \.folder)
        for name in byFolder.keys.sorted() {
            guard let copies = byFolder[name], let there = mapped.first(where: { $0.path == name }) else {
                missing += byFolder[name] ?? []
                continue
            }
            let selected = try conn.select(there.mailbox, readOnly: false, condstore: false)
            var located: [(target: ActionTarget, uid: UInt32)] = []
            for t in copies {
                guard let messageID = (try? views.syncedCopy(account: account.name, emailID: t.emailID))??.copy.messageID,
                      let uid = try conn.uidSearch([.header("Message-ID", messageID)]).max() else {
                    missing.append(t)
                    continue
                }
                located.append((t, uid))
            }
            if !located.isEmpty { try found(name, selected.readOnly, located) }
        }
        return missing
    }

    /// Moves copies (UID MOVE, or COPY + STORE \Deleted + UID EXPUNGE); copies already gone from the source
    /// are looked for in the destination by Message-ID (moved before a crash) and recorded without moving. A copy
    /// found in neither but whose target names another folder (where the views have it: an undo's move back of
    /// mail a write-back moved before any sync saw where it went) is looked for there by Message-ID and moved from
    /// there, its newest match (the copy that move made); one found nowhere was expunged meanwhile, and has nothing
    /// left to move (applied, as a flag action on it is). A copy of another UIDVALIDITY is found again first
    /// (`current`).
    ///
    /// On a server without MOVE, when the action was attempted before (`attempts` failures recorded: a lost connection,
    /// perhaps after the server had done the `UID COPY` but before its reply came; or copied and marked, but not
    /// expunged without UIDPLUS), the copies still in the source are first looked for in the destination by
    /// Message-ID and size (`alreadyCopied`); those found there are only removed from the source (`\Deleted` and
    /// `UID EXPUNGE` of their UIDs, or without UIDPLUS a plain `EXPUNGE` when no other message is marked: else they
    /// stay marked and the action is deferred again, up to ``maxUnexpungedAttempts`` such attempts (`blocked` of them before
    /// this one, ``unexpungedAttempts(_:)``): ``unexpunged(_:in:to:reason:attempt:_:into:)``),
    /// not copied a second time. So is a first attempt that retries such a move (`copiedBefore`,
    /// ``retriesAttemptedMove(_:)``: `mailstore retry` of a move given up at its bound, whose copy stays in the destination).
    func move(_ copies: [(target: ActionTarget, copy: SyncedCopy)], from source: MappedFolder, to destination: String,
              attempts: UInt32 = 0, blocked: UInt32 = 0, copiedBefore: Bool = false, _ conn: IMAPConnection,
              into outcome: inout ActionOutcome) throws {
        let target = mapped.first { $0.path == destination }?.mailbox ?? MailboxName(destination)
        let sel = try conn.select(source.mailbox, readOnly: false, condstore: conn.has("CONDSTORE"))
        let (group, absent) = try current(copies, in: source.path, validity: sel.uidValidity, conn)
        let present = group.isEmpty ? [:] : try flags(of: UIDSet(group.map(\.uid)), conn)
        var here = group.filter { present[$0.uid] != nil }
        // Copied and marked `\Deleted` in the source, not expunged (no UIDPLUS, others marked too), with the reason.
        var waiting: [(target: ActionTarget, uid: UInt32)] = []
        var waitReason = ""
        if attempts > 0 || copiedBefore, !here.isEmpty, !conn.has("MOVE") {
            let copyOf = Dictionary(copies.map { ($0.target.emailID, $0.copy) }, uniquingKeysWith: { a, _ in a })
            let copied = try alreadyCopied(here.compactMap { h in copyOf[h.target.emailID].map { (h.target, $0) } }, to: target, conn)
            // The destination was EXAMINEd: the source is selected again (read-write) for the expunge and the move.
            _ = try conn.select(source.mailbox, readOnly: false, condstore: conn.has("CONDSTORE"))
            if !copied.isEmpty {
                let finish = here.filter { copied.contains($0.target.emailID) }
                here = here.filter { !copied.contains($0.target.emailID) }
                let uids = UIDSet(finish.map { $0.uid })
                _ = try conn.uidStore(uids, .add, flags: ["\\Deleted"])
                let expunged = try conn.expungeOnly(uids)
                let left = try flags(of: uids, conn)
                for f in finish {
                    if left[f.uid] == nil { outcome.applied.append(f.target.emailID) }
                    else if !expunged {
                        waiting.append((f.target, f.uid))
                        waitReason = "already in \(destination) and marked \\Deleted in \(source.path), not expunged: other messages "
                            + "there are marked \\Deleted too, and this server (without UIDPLUS) can only expunge them all; tried again later"
                    }
                    else {
                        outcome.rejected.append((f.target.emailID, "the message is already in \(destination) but the server did not "
                                                 + "remove it from \(source.path) (no right to delete there?); delete it there by hand"))
                    }
                }
            }
        }
        if !here.isEmpty {
            if let text = try moveUnlessUnexpunged(UIDSet(here.map(\.uid)), to: target, conn) {
                waiting += here.map { ($0.target, $0.uid) }
                waitReason = text
            } else {
                outcome.applied += here.map(\.target.emailID)
            }
        }
        // The source is still selected: the marks are taken away there when the move is given up.
        if !waiting.isEmpty {
            try unexpunged(waiting, in: source.path, to: destination, reason: waitReason, attempt: blocked + 1, conn, into: &outcome)
        }
        let gone = group.filter { present[$0.uid] == nil }.map(\.target) + absent
        guard !gone.isEmpty else { return }
        _ = try conn.select(target, readOnly: true, condstore: false)
        var elsewhere: [ActionTarget] = []
        for t in gone {
            let messageID = (try? views.syncedCopy(account: account.name, emailID: t.emailID))??.copy.messageID
            var found: [UInt32] = []
            if let messageID { found = try conn.uidSearch([.header("Message-ID", messageID)]) }
            if !found.isEmpty {
                outcome.applied.append(t.emailID)
            } else if messageID != nil, t.folder != source.path, t.folder != destination {
                elsewhere.append(t)
            } else {
                // Expunged meanwhile (deleted by another client): nothing is left to move, as a flag action finds
                // nothing left to change. Refused, it had stayed among the failed actions for good (its thread gone,
                // `retry` had nothing to retry), and been reverted in the views until the next sync dropped it anyway.
                outcome.applied.append(t.emailID)
            }
        }
        guard !elsewhere.isEmpty else { return }
        let missing = try relocated(elsewhere, conn) { (name, _, located) throws(IMAPClientError) in
            for c in located {
                // Gmail: a label the message had before (another copy of it synced there) is kept: the copy is put back
                // (UID COPY adds the label) rather than moved (which had taken away a label the move never gave).
                if keepsLabel(name, of: c.target.emailID) {
                    _ = try conn.uidCopy(UIDSet(c.uid), to: target)
                } else if let text = try moveUnlessUnexpunged(UIDSet(c.uid), to: target, conn) {
                    try unexpunged([c], in: name, to: destination, reason: text, attempt: blocked + 1, conn, into: &outcome)
                    continue
                }
                outcome.applied.append(c.target.emailID)
            }
        }
        outcome.applied += missing.map(\.emailID)  // expunged meanwhile, as above
    }

    /// Whether `r` retries (`mailstore retry`: its causation) a move to the same folder that had failed attempts: one given
    /// up at ``maxUnexpungedAttempts`` leaves its copy in the destination, and another failed attempt (a lost `UID COPY`
    /// reply) may have. Its first attempt then looks for the copies there (``alreadyCopied(_:to:_:)``: Message-ID and size,
    /// one destination message per copy) instead of copying them a second time. A copy of the same message there that the
    /// given-up move did not make counts too: the message is in the destination either way. An undo's inverse is caused
    /// by the `ActionUndone`, not by an action: never so.
    func retriesAttemptedMove(_ r: ActionRecord) throws -> Bool {
        guard r.kind.flag == nil, let cause = r.causation, let before = try views.action(id: cause.description) else { return false }
        return before.kind.flag == nil && before.attempts > 0 && before.destination == r.destination
    }

    /// `UID MOVE` of `set` to `target` (``IMAPConnection/uidMove(_:to:)``): nil when moved; the reason when the server
    /// (without UIDPLUS) copied and marked them but could not expunge only them (``IMAPConnection/notExpunged``).
    func moveUnlessUnexpunged(_ set: UIDSet, to target: MailboxName, _ conn: IMAPConnection) throws(IMAPClientError) -> String? {
        let moved = Result { () throws(IMAPClientError) -> Void in _ = try conn.uidMove(set, to: target) }
        guard case .failure(let error) = moved else { return nil }
        guard case .commandFailed(_, IMAPConnection.notExpunged, let text) = error else { throw error }
        return text
    }

    /// How many write-back attempts a move gets that find its copies marked `\Deleted` in the source, not expunged,
    /// because the server (without UIDPLUS) can only expunge every marked message and another client keeps one marked
    /// there: at the 10th such attempt it is given up (``unexpunged(_:in:to:reason:attempt:_:into:)``). Only those count
    /// (``unexpungedAttempts(_:)``): a lost connection's failure does not bring the give-up closer (until the sixteenth
    /// round every failed attempt counted). At the retry times (30 s doubling to an hour, ``RetryBackoff``) the 10th
    /// comes about three hours after the first.
    static let maxUnexpungedAttempts: UInt32 = 10

    /// The lead of the reason an attempt records when it finds the move's copies unexpunged (``ActionOutcome/postpone(_:attempt:)``),
    /// at the reason's start so that no cut of a long reason (``RecordedText/bounded(_:maxBytes:)``) takes it away.
    static let unexpungedLead = "waiting for an expunge"

    /// How many of `r`'s failed attempts found its copies unexpunged (``maxUnexpungedAttempts``): its `ActionFailed` events
    /// whose reason begins with ``unexpungedLead``, or (recorded before the sixteenth round, without the lead) says the
    /// server "can only expunge them all" after its own words' start. Read from the action's stream, which holds one `ActionFailed` per failed
    /// attempt; the count stops at ``maxUnexpungedAttempts`` (the scan with it). An action with no failure recorded has none.
    func unexpungedAttempts(_ r: ActionRecord) throws -> UInt32 {
        guard r.attempts > 0 else { return 0 }
        var count: UInt32 = 0
        try store.log.scan(filter: ScanFilter(types: [.actionFailed], stream: .action(r.id))) { ev in
            // One that does not decode (a damaged record: `verify` says so) is not counted, as a transient failure is not.
            guard case .actionFailed(let p)? = try? ev.decode() else { return true }
            let before = (p.reason.hasPrefix("copied to ") || p.reason.hasPrefix("already in ")) && p.reason.contains("can only expunge them all")
            if p.reason.hasPrefix(SyncEngine.unexpungedLead) || before { count += 1 }
            return count < SyncEngine.maxUnexpungedAttempts
        }
        return count
    }

    /// What becomes of copies a move copied to `destination` and marked `\Deleted` in `folder` (selected read-write) but could not
    /// expunge (no UIDPLUS; another client keeps other messages marked there), at the action's attempt number
    /// `attempt`. Before ``maxUnexpungedAttempts`` the action waits for its retry (`reason`; ``ActionOutcome/postpone(_:attempt:)``).
    /// At it the move is given up: the marks are taken away again (a marked message is erased by the next client that
    /// expunges the folder) and the copies refused with the reason, which reverts them in the views (`ActionRejected`,
    /// `ActionReverted`): the message stays in `folder`, as the server keeps it, and its copy in `destination`, which the
    /// next sync brings in. Until 2026-12-07 such a move was retried without a limit.
    func unexpunged(_ waiting: [(target: ActionTarget, uid: UInt32)], in folder: String, to destination: String, reason: String,
                    attempt: UInt32, _ conn: IMAPConnection, into outcome: inout ActionOutcome) throws(IMAPClientError) {
        guard attempt >= SyncEngine.maxUnexpungedAttempts else {
            outcome.postpone(reason, attempt: attempt)
            return
        }
        _ = try conn.uidStore(UIDSet(waiting.map(\.uid)), .remove, flags: ["\\Deleted"])
        let refusal = "given up after \(attempt) attempts: copied to \(destination) but never expunged from \(folder), where another "
            + "client keeps other messages marked \\Deleted (this server, without UIDPLUS, can only expunge them all); the message "
            + "stays in \(folder), its \\Deleted mark taken away, and the copy in \(destination): delete one of them by hand"
        outcome.rejected += waiting.map { ($0.target.emailID, refusal) }
    }

    /// Gmail: whether the message of `emailID` is in `folder` (a label) on its own account: the views hold another copy of
    /// it synced there. Then moving `emailID`'s copy out of `folder` (an undo's move back of mail moved into a label it
    /// already had) would take that label away.
    func keepsLabel(_ folder: String, of emailID: String) -> Bool {
        guard provider.hasGmailExtensions,
              let messageID = (try? views.syncedCopy(account: account.name, emailID: emailID))??.copy.messageID,
              let copies = try? views.copies(account: account.name, messageID: ViewBounds.id(messageID)) else { return false }
        return copies.contains { c in
            c.emailID != emailID && (try? views.syncedCopy(account: account.name, emailID: c.emailID))??.folder == folder
        }
    }

    /// Message-IDs per `UID SEARCH` in ``locate(_:in:_:)``: at most 16, and at most 4,000 bytes of them.
    static let searchBatch = (ids: 16, bytes: 4_000)

    /// The email ids of `copies` that `destination` already holds: the same Message-ID and size (RFC822.SIZE), one
    /// destination message for each copy at most (``locate(_:in:_:)``, which EXAMINEs the destination: the caller selects
    /// the source again). A copy without a Message-ID is never found: it is copied.
    func alreadyCopied(_ copies: [(target: ActionTarget, copy: SyncedCopy)], to destination: MailboxName,
                       _ conn: IMAPConnection) throws(IMAPClientError) -> Set<String> {
        Set(try locate(copies.map { ($0.target.emailID, $0.copy) }, in: destination, conn).uids.keys)
    }

    /// Where `mailbox` holds the messages of `copies`: the same Message-ID and size (RFC822.SIZE), one message for each
    /// copy at most, by email id, with the mailbox's UIDVALIDITY (0 when nothing was looked for). EXAMINEs the mailbox
    /// (nothing changes there; the caller selects its own folder again) and searches in batches (``searchBatch``:
    /// `UID SEARCH OR HEADER Message-ID a HEADER ...`), then fetches the Message-ID and size of the matches (a header
    /// search matches substrings). A copy without a Message-ID is never found.
    func locate(_ copies: [(emailID: String, copy: SyncedCopy)], in mailbox: MailboxName,
                _ conn: IMAPConnection) throws(IMAPClientError) -> (validity: UInt32, uids: [String: UInt32]) {
        var wanted: [String: [String]] = [:]  // "Message-ID NUL size" -> email ids still to find
        for c in copies {
            guard let id = c.copy.messageID, !id.isEmpty else { continue }
            wanted["\(id)\u{0}\(c.copy.size)", default: []].append(c.emailID)
        }
        guard !wanted.isEmpty else { return (0, [:]) }
        let sel = try conn.select(mailbox, readOnly: true, condstore: false)
        let ids = Set(copies.compactMap { $0.copy.messageID }.filter { !$0.isEmpty }).sorted()
        var batches: [[String]] = [[]]
        var bytes = 0
        for id in ids {
            if !batches[batches.count - 1].isEmpty,
               batches[batches.count - 1].count >= SyncEngine.searchBatch.ids || bytes + id.utf8.count > SyncEngine.searchBatch.bytes {
                batches.append([])
                bytes = 0
            }
            batches[batches.count - 1].append(id)
            bytes += id.utf8.count
        }
        var found: [String: UInt32] = [:]
        for batch in batches where !batch.isEmpty {
            let keys = batch.map { SearchKey.header("Message-ID", $0) }
            let any = keys.dropFirst().reduce(keys[0]) { SearchKey.or($0, $1) }
            let uids = try conn.uidSearch([any])
            guard !uids.isEmpty else { continue }
            do {
                try conn.uidFetch(UIDSet(uids), [.uid, .rfc822Size, .body(.headerFields(["MESSAGE-ID"]), peek: true)]) { msg in
                    guard let uid = msg.uid, let size = msg.size, let header = msg.section("HEADER.FIELDS (MESSAGE-ID)"),
                          let id = MailParser.parse(header).messageID else { return }
                    let key = "\(id)\u{0}\(size)"
                    guard var left = wanted[key], !left.isEmpty else { return }
                    found[left.removeFirst()] = uid
                    wanted[key] = left
                }
            } catch let e as IMAPClientError { throw e } catch { throw .protocolError("\(error)") }
        }
        return (sel.uidValidity, found)
    }

    private func flags(of uids: UIDSet, _ conn: IMAPConnection) throws(IMAPClientError) -> [UInt32: [String]] {
        var out: [UInt32: [String]] = [:]
        do {
            try conn.uidFetch(uids, [.uid, .flags]) { m in if let uid = m.uid { out[uid] = m.flags ?? [] } }
        } catch let e as IMAPClientError { throw e } catch { throw .protocolError("\(error)") }
        return out
    }

    private func has(_ flags: [String]?, _ flag: String) -> Bool {
        flags?.contains { $0.caseInsensitiveCompare(flag) == .orderedSame } ?? false
    }

    /// Appends the outcome events of one action (one transaction) and counts them.
    func record(_ r: ActionRecord, _ o: ActionOutcome, into report: inout WriteBackReport) throws {
        let stream = StreamName.action(r.id)
        var events: [NewEvent] = []
        func add(_ e: DomainEvent) {
            events.append(NewEvent(event: e, account: account.name, stream: stream, causationID: r.id, correlationID: correlation, actor: .sync))
        }
        if !o.applied.isEmpty { add(.actionApplied(ActionApplied(actionID: r.id, emailIDs: o.applied))) }
        if !o.rejected.isEmpty {
            let ids = o.rejected.map(\.emailID)
            // A refused star says so in the spec's words (E-29), the server's reason after them.
            let reason = RecordedText.bounded(r.kind.refusalReason(o.rejected[0].reason))
            add(.actionRejected(ActionRejected(actionID: r.id, emailIDs: ids, reason: reason)))
            if let (flag, set) = r.kind.flag {
                add(.flagRejected(FlagRejected(actionID: r.id, emailIDs: ids, flag: flag, wasSet: set, message: SyncEngine.message(flag, reason))))
            } else {
                let refused = Set(ids)
                let targets = try r.targets.filter { refused.contains($0.emailID) }.map { t in
                    ActionTarget(emailID: t.emailID, folder: t.folder, flags: try views.emailRecord(id: t.emailID)?.flags ?? t.flags)
                }
                add(.actionReverted(ActionReverted(actionID: r.id, targets: targets, reason: reason)))
            }
            report.problems.append(.init(action: r.id.description, threads: try threads(of: ids, r), emails: ids.count, reason: reason, retrying: false))
        }
        if let reason = o.failedReason.map({ RecordedText.bounded($0) }) {
            let done = Set(o.applied).union(o.rejected.map(\.emailID))
            let remaining = r.pending.filter { !done.contains($0) }
            let attempt = r.attempts + 1
            add(.actionFailed(ActionFailed(actionID: r.id, emailIDs: remaining, reason: reason, attempt: attempt,
                                           retryAt: RetryBackoff.next(after: attempt))))
            report.failed += remaining.count
            report.problems.append(.init(action: r.id.description, threads: try threads(of: remaining, r), emails: remaining.count, reason: reason,
                                         retrying: true))
        }
        report.applied += o.applied.count
        report.rejected += o.rejected.count
        try store.commit(events)
    }

    /// The threads (of the action's) that hold these emails.
    private func threads(of emailIDs: [String], _ r: ActionRecord) throws -> [String] {
        let ids = Set(try emailIDs.compactMap { try views.emailRecord(id: $0)?.threadID })
        let named = r.threadIDs.filter { ids.contains($0) }
        return named.isEmpty ? ids.sorted() : named
    }

    /// What to tell the user when the server refuses a flag (the spec's wording for stars).
    static func message(_ flag: String, _ reason: String) -> String {
        switch flag {
        case "\\Flagged": ActionKind.starRefusal
        case "\\Seen": "This folder does not keep messages read or unread (\(reason))"
        default: "The server refused \(flag): \(reason)"
        }
    }

    /// A test hook: `MAILSTORE_FAILPOINT=NAME` ends the process at that point, as a crash would (``Failpoint``).
    static func failpoint(_ name: String) {
        Failpoint.reached(name)
    }
}
