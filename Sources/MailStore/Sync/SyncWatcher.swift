import EventLog
import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import LMDB
import SecureTransport
import SyncCore

/// `mailstore sync --watch`: a full sync, then IDLE on the Inbox, re-issued every refresh interval (the provider's
/// `idleRefreshSeconds` unless given: Gmail and Outlook 25 min, Yahoo 4 min, others 20 min), and at least every
/// ``idleProbeInterval`` (5 min: a DONE not answered within the timeout is a dead connection, re-opened). The IDLE is not left
/// for local work: every ``localCheckInterval`` (2 s) the watcher looks, without leaving IDLE, for actions queued
/// and drafts saved meanwhile (by this or another process) and writes them back at once, delivers the outbox's due
/// retries (every ``outboxCheckInterval``, 60 s) and polls the other folders (every `pollInterval`, in slices taken
/// between the IDLE's reads of the Inbox: ``pollSliceFolders``, ``pollSliceSeconds``), all on a
/// second connection leased from the ``ConnectionPool`` and given back after each use, and tells ``onLogGrew`` when
/// the log grew (another process's mute owes a withdrawal); a poll that brings new Inbox mail the IDLE was not told of
/// within ``idleMissGrace`` ends the IDLE and issues it again (``onIdleRenewed``); a second connection whose server left
/// it unanswered for the timeout has the IDLE connection dropped without its DONE; when the pool has no room
/// for it at once, the IDLE is ended and the work done on the watch's own connection. A failed session (a lost
/// connection, a protocol error, an over-limit response, a refused command outside a folder's sync) is re-opened
/// with exponential backoff (1 s doubling to 5 min, from 1 s again once a session's first sync went through and it
/// lasted ``steadySession``), as is a pool that had no room. Authentication, certificate and configuration errors end
/// the watch: retrying cannot fix them. A folder the server refuses (``FolderSyncFailure``) is skipped, the others
/// synced, and tried again at the next round, then with a backoff of its own while it stays refused (``FolderRetry``).
public final class SyncWatcher {
    let engine: SyncEngine
    /// Seconds an IDLE lasts before it is re-issued: the provider's `idleRefreshSeconds` unless given.
    public let idleRefresh: Double
    /// Seconds between polls of every folder.
    public let pollInterval: Double
    /// Syncs, writes back and files while the Inbox connection stays in IDLE (made on first use).
    private var helper: SyncEngine?
    /// Told about every sync that changed something.
    public var onReport: ((SyncReport) -> Void)?
    /// Told when a connected session's first full sync went through, changed or not (after `onReport` of it):
    /// the first call tells that the watch's initial sync is done (notifications: its session start is over).
    public var onSessionSynced: (() -> Void)?
    /// Told, within ``localCheckInterval`` while the watch waits in IDLE, that the log grew since it was last told (the
    /// views caught up first): events another process appended (a mute, a read, a preference) or this watch's own syncs.
    /// A notifier delivers there what they owe (the withdrawal of a muted thread's notification had waited for the next
    /// sync that changed something).
    public var onLogGrew: (() -> Void)?
    /// The log's head when `onLogGrew` was last told.
    private var toldHead: UInt64?
    /// Told about an outbox message its round could not send for a reason of its own (its draft gone, no SMTP
    /// settings), with the error; the watch goes on (a server's refusal is recorded on the message, `SendFailed`).
    public var onOutboxSkipped: ((String, any Error) -> Void)?
    /// Told about a transient failure, the seconds until the next attempt and the connection that failed (nil: none did,
    /// e.g. another process held the account's lock, or the disk was full).
    public var onRetry: ((Error, Double, Connection?) -> Void)?
    /// Told, with the seconds since the first of the failures, when a session's first sync went through after failed ones.
    public var onReconnected: ((Double) -> Void)?
    /// When the first of the failed sessions since the last one that synced failed (monotonic clock), nil: none failed.
    private var failingSince: Double?
    /// Whether the failure being retried came from the second connection (the work done while the IDLE waits).
    private var secondFailed = false
    /// Told about a folder the server refused (skipped, the others synced): at its first refusal, then at most every
    /// hour while it stays refused (quietly tried again meanwhile, with a backoff): the failure, the refusals in a row,
    /// when the first came, and the seconds before the next try (0: the next round).
    public var onFolderRefused: ((FolderSyncFailure, _ refusals: Int, _ since: Date, _ retryIn: Double) -> Void)?
    /// Told about a folder refused before that synced again.
    public var onFolderSynced: ((String) -> Void)?
    /// The folders refused again and again, shared by the watch's engines.
    let folderRetry = FolderRetry()
    /// Checked between steps (and every ``localCheckInterval`` during IDLE): true ends the watch.
    public var shouldStop: () -> Bool = { false }
    /// Told each time a poll found new Inbox mail the IDLE was not told of within ``idleMissGrace`` and the IDLE was
    /// ended and issued again, with how many times that happened in this watch (1 the first time: the command says it
    /// once).
    public var onIdleRenewed: ((Int) -> Void)?
    /// How many times a poll found Inbox mail the IDLE missed and the IDLE was issued again (``onIdleRenewed``).
    public private(set) var idleRenewals = 0
    /// When the current session's first full sync went through (nil: not yet), on the monotonic clock (`Deadline.now()`,
    /// as every interval of the watch: a wall clock stepped back had stalled the watch for as long): the reconnect
    /// backoff starts again from 1 s after a session that lasted ``steadySession`` from then.
    private var syncedAt: Double?
    /// True once the watch ended because its account is no longer configured (`account remove`, here or in another
    /// process): a removed account's mail is not synced on, nor notified.
    public private(set) var accountRemoved = false
    /// When the account was last looked up in the views (at most once a second), on the monotonic clock.
    private var accountCheckedAt = -Double.infinity

    /// A watcher over `engine`. `idleRefresh` nil: the provider's interval.
    public init(engine: SyncEngine, idleRefresh: Double? = nil, pollInterval: Double = 300) {
        self.engine = engine
        self.idleRefresh = idleRefresh ?? engine.provider.idleRefreshSeconds
        self.pollInterval = pollInterval
        engine.folderRetry = folderRetry
    }

    /// Runs until `shouldStop` says so (or a permanent error is thrown).
    public func run() throws {
        var backoff = 1.0
        while !stopping() {
            do {
                try watchOnce()
                return
            } catch let error as SyncError where SyncWatcher.reconnects(after: error) {
                retry(after: error, backoff: &backoff, connection: secondFailed ? .second : .idle)
            } catch let error as AccountLockError {
                // Another process syncs the account (a long `mailstore sync` of a big folder) past the lock's 30 s wait:
                // the watch goes on after it, as after a lost connection (it had ended for good).
                guard case .held = error else { throw error }
                retry(after: error, backoff: &backoff)
            } catch where SyncWatcher.isDiskFull(error) {
                // A full disk: nothing of the failed write was stored, and freeing space is the user's, not the watch's
                // to wait for by ending (it had ended for good, exit 3, though only authentication, certificate and
                // configuration errors end a watch): it waits its backoff and tries again, saying why each time.
                retry(after: error, backoff: &backoff)
            }
        }
    }

    /// Disconnects and waits the backoff (`stopping()` checked every 100 ms) before the next attempt.
    private func retry(after error: Error, backoff: inout Double, connection: Connection? = nil) {
        engine.disconnect()
        secondFailed = false
        if failingSince == nil { failingSince = Deadline.now() }
        let wait: Double
        // A session that fails the same way soon after every connect (garbage at each IDLE) keeps doubling its wait.
        let steady = syncedAt.map { Deadline.now() - $0 >= SyncWatcher.steadySession } ?? false
        (wait, backoff) = SyncWatcher.backoff(after: backoff, sessionSynced: steady)
        syncedAt = nil
        onRetry?(error, wait, connection)
        let until = Deadline(secondsFromNow: wait)
        while !until.hasPassed && !stopping() { usleep(100_000) }
    }

    /// Whether the watch is to end: `shouldStop`, or the account removed (looked up at most once a second; a lookup
    /// that fails leaves the watch going).
    private func stopping() -> Bool {
        if accountRemoved || shouldStop() { return true }
        guard Deadline.now() - accountCheckedAt >= 1 else { return false }
        accountCheckedAt = Deadline.now()
        // Views a replay replaced since (here, between steps, nothing holds them).
        _ = try? engine.store.reopenViewsIfReplaced()
        if case .some(.none) = try? engine.store.latestViews().account(named: engine.account.name) { accountRemoved = true }
        return accountRemoved
    }

    /// The wait before reconnecting and the backoff after it: `current` doubled up to 5 min, or 1 s again when the
    /// session that just failed got going (its first sync went through and it lasted ``steadySession`` from then): one
    /// drop after a day's watch waits 1 s, not the doubled wait of an outage long past (it had stayed doubled: 16, 32,
    /// 64 s for single drops); a server that fails every session soon after its first sync (garbage at each IDLE) is
    /// not reconnected every second.
    static func backoff(after current: Double, sessionSynced: Bool) -> (wait: Double, next: Double) {
        let wait = sessionSynced ? 1 : current
        return (wait, min(wait * 2, 300))
    }

    /// One connected session: a full sync, then IDLE until stopped or the connection fails. The Inbox is synced
    /// again after every IDLE (changes heard and settled, ``IdleChanges``, or the refresh interval), and IDLE starts only
    /// when the selected Inbox matches what the log holds, so a change made between the sync and IDLE is never missed.
    func watchOnce() throws {
        defer { helper?.disconnect() }
        // A poll a failed session left half done starts afresh (this session's first sync is a whole one).
        helper?.abandonPoll()
        report(try engine.syncAll())
        syncedAt = Deadline.now()
        onSessionSynced?()
        if let since = failingSince {
            failingSince = nil
            onReconnected?(Deadline.now() - since)
        }
        var lastPoll = Deadline.now()
        var lastOutbox = -Double.infinity
        guard let inbox = engine.mapped.first(where: { $0.role == .inbox }) else { return }
        var resynced = false
        while !stopping() {
            engine.pool.closeExpired()
            // The user's pending actions go first, so the flags read next already include them.
            let actions = try engine.writeBack()
            if actions.triedAny { helper?.serverChangedDuringPoll() }
            var inboxReport = try engine.sync(role: .inbox)
            inboxReport.actions = actions
            report(inboxReport)
            let conn = try engine.connect()
            let sel: SelectedMailbox
            do { sel = try conn.select(inbox.mailbox, readOnly: true, condstore: conn.has("CONDSTORE")) } catch { throw SyncError.server(error) }
            let state = try engine.views.syncState(account: engine.account.name, folder: inbox.path)
            let count = try engine.views.syncedCount(account: engine.account.name, folder: inbox.path)
            // Messages given up as unfetchable are on the server and not synced: counted, or every IDLE round syncs again.
            let known = count + (state?.unfetchable.count ?? 0)
            let matches = state?.uidNext == sel.uidNext && state?.highestModSeq == sel.highestModSeq && known == Int(sel.exists)
            // Changed since the sync: sync again first (once; a message the server cannot deliver must not spin the loop).
            if !matches && !resynced {
                resynced = true
                continue
            }
            resynced = false
            var localError: Error?
            var noRoom = false
            // An EXISTS repeating the count known, or a FETCH of the flags the store holds, is no change; changes are
            // synced once settled (``IdleChanges``). The Inbox's UIDs tell a FETCH's message by its sequence number
            // while they are the server's (the mailbox matched; those given up are on the server too).
            let uids = try matches ? inboxUIDs(inbox.path, givenUp: state?.unfetchable ?? []) : nil
            var changes = IdleChanges(count: sel.exists, uids: uids, storedFlags: { [engine] uid in
                try? engine.views.syncedCopy(account: engine.account.name, folder: inbox.path, uid: uid)?.flags
            })
            var localCheckedAt = Deadline.now()
            // When a poll found new Inbox mail this IDLE had not been told of (nil: none did), and whether the IDLE is
            // ended for it: an IDLE that missed mail is suspect (a server that stopped telling this connection), so it
            // is issued again (a DONE not answered within --timeout reconnects), not left to the 5-min check.
            var missedAt: Double?
            var renew = false
            do {
                // Ended (DONE, its OK awaited within --timeout) and re-issued at least every ``idleProbeInterval``: a
                // connection whose server stopped answering is found dead there, not at the refresh 20-25 min on.
                try conn.idle(timeoutSeconds: max(1, min(idleRefresh, SyncWatcher.idleProbeInterval)), tickSeconds: SyncWatcher.idleTick, tick: {
                    if self.stopping() || changes.isDue { return true }
                    // (Told of a change since, the IDLE ends for it anyway.)
                    if let missedAt, changes.firstChange == nil, Deadline.now() - missedAt >= SyncWatcher.idleMissGrace {
                        renew = true
                        return true
                    }
                    // A poll under way takes its next slice at every tick; the rest is looked at every 2 s.
                    let localDue = Deadline.now() - localCheckedAt >= SyncWatcher.localCheckInterval
                    guard localDue || self.helper?.isPolling == true else { return false }
                    if localDue { localCheckedAt = Deadline.now() }
                    do {
                        let inboxMail = try self.localWork(using: nil, lastPoll: &lastPoll, lastOutbox: &lastOutbox,
                                                           lookForLocal: localDue, inbox: inbox.path)
                        if inboxMail && changes.firstChange == nil && missedAt == nil { missedAt = Deadline.now() }
                        if localDue { try self.tellLogGrowth() }
                        return false
                    } catch SyncError.connectionsBusy {
                        noRoom = true
                        return true
                    } catch {
                        localError = error
                        self.secondFailed = true
                        // The server left the second connection unanswered for --timeout: a DONE would wait as long for
                        // nothing (a server frozen whole held the poll's failure twice --timeout); the IDLE connection is
                        // dropped instead, the session re-opened as for any failure.
                        if case SyncError.server(let e) = error, e.isUnanswered {
                            conn.abandon("dropped: the server left the second connection unanswered")
                        }
                        return true
                    }
                }) { response in
                    changes.heard(response)
                    // Changes that keep coming are synced at most ``IdleChanges/longest`` after the first.
                    return !changes.isDue
                }
            } catch {
                // (The IDLE connection dropped for the second connection's failure: that one is the failure told.)
                if let localError { throw localError }
                throw SyncError.server(error)
            }
            if let localError { throw localError }
            if renew {
                idleRenewals += 1
                onIdleRenewed?(idleRenewals)
            }
            // No second connection to be had: the work is done here, out of IDLE.
            if noRoom {
                try localWork(using: engine, lastPoll: &lastPoll, lastOutbox: &lastOutbox)
                try tellLogGrowth()
            }
        }
    }

    /// The UIDs of the Inbox's messages, those the store holds and those given up as unfetchable, ascending; nil over
    /// ``IdleChanges/rememberedUIDs``.
    private func inboxUIDs(_ path: String, givenUp: [UInt32]) throws -> [UInt32]? {
        let limit = IdleChanges.rememberedUIDs
        guard givenUp.count <= limit,
              let stored = try engine.views.syncedUIDs(account: engine.account.name, folder: path, limit: limit - givenUp.count)
        else { return nil }
        return (stored + givenUp).sorted()
    }

    /// Tells `onLogGrew` when the log's head moved since it was last told, with the views caught up with it.
    private func tellLogGrowth() throws {
        guard let onLogGrew else { return }
        let head = try engine.store.head().sequence
        guard head != toldHead else { return }
        _ = try engine.store.latestViews()
        toldHead = head
        onLogGrew()
    }

    /// What is done while the Inbox connection stays in IDLE: actions and drafts that became due written back, the outbox's
    /// due retries delivered, the other folders polled; with `worker` (the watch's own engine, out of IDLE), or nil:
    /// a second engine whose connection is leased without waiting and given back after use. `lastPoll` and `lastOutbox`
    /// are on the monotonic clock. Without `lookForLocal`, only a poll under way goes on. Returns whether a poll that
    /// ended here brought new mail to the folder `inbox` (nil: not asked).
    ///
    /// On the second engine a poll is taken in slices (``pollSliceFolders`` folders or ``pollSliceSeconds``, whichever
    /// comes first), one a call, so the IDLE reads the Inbox's responses between them and ends for its sync as soon as
    /// they settle: the whole poll in one call had held up the Inbox's new mail until every folder was synced (16 s at
    /// 10,000 folders). The poll is reported, and `lastPoll` set, once its last slice is done. The watch's own engine
    /// (no room for a second connection) polls whole, as it is out of IDLE anyway.
    @discardableResult
    private func localWork(using worker: SyncEngine?, lastPoll: inout Double, lastOutbox: inout Double,
                           lookForLocal: Bool = true, inbox: String? = nil) throws -> Bool {
        let account = engine.account.name
        // Actions or drafts saved meanwhile (here or in another process) whose write-back is due.
        let actionsDue = try lookForLocal && (engine.store.latestViews().pendingActions(account: account).contains { $0.retryAt.map { RetryBackoff.hasCome($0) } ?? true }
            || !engine.draftWork(force: false).todo.isEmpty)
        let outboxDue = lookForLocal && Deadline.now() - lastOutbox >= SyncWatcher.outboxCheckInterval
        let pollDue = Deadline.now() - lastPoll >= pollInterval || (worker == nil && helper?.isPolling == true)
        guard actionsDue || outboxDue || pollDue else { return false }
        let helper = try worker ?? secondEngine()
        defer { if worker == nil { helper.disconnect() } }
        if actionsDue {
            var r = SyncReport(account: account)
            r.actions = try helper.writeBack()
            if r.actions.triedAny { self.helper?.serverChangedDuringPoll() }
            report(r)
        }
        if outboxDue {
            // Failed messages whose retry time has come; abandoned queued ones back to drafts.
            // One message's trouble (a server's refusal is recorded on it) never ends the watch.
            let delivered = try OutboxUseCase(store: engine.store).deliverDue(account: account, skipped: onOutboxSkipped)
            // (A message sent is filed in Sent: the STATUS of a poll's LIST may be out of date.)
            if !delivered.isEmpty { self.helper?.serverChangedDuringPoll() }
            lastOutbox = Deadline.now()
        }
        guard pollDue else { return false }
        let r: SyncReport
        if worker == nil {
            guard let sliced = try helper.pollSlice(folders: pollSliceFolders, seconds: pollSliceSeconds) else { return false }
            r = sliced
        } else {
            r = try helper.syncAll()
            // (What a poll in slices of the second engine had left is done.)
            self.helper?.abandonPoll()
        }
        report(r)
        lastPoll = Deadline.now()
        return r.folders.contains { $0.folder == inbox && $0.received > 0 }
    }

    /// The engine of the second connection (made once per watch session).
    private func secondEngine() throws -> SyncEngine {
        if let helper { return helper }
        let made = try SyncEngine(store: engine.store, account: engine.account, options: engine.options)
        made.pool = engine.pool
        made.folderRetry = folderRetry
        made.poolWaitSeconds = 0
        helper = made
        return made
    }

    /// Tells `onReport` about a sync that changed something, and the folders the server refused (or synced again) as
    /// ``folderRetry`` says.
    private func report(_ r: SyncReport) {
        if r.changed { onReport?(r) }
        for f in r.folders where !f.removed && folderRetry.synced(f.folder) { onFolderSynced?(f.folder) }
        for f in r.failedFolders {
            let refusal = folderRetry.refused(f.folder)
            if refusal.tell { onFolderRefused?(f, refusal.refusals, refusal.since, refusal.retryIn) }
        }
    }

    /// How often, during IDLE, the watcher looks for local work (a read of the small actions view).
    static let localCheckInterval = 2.0
    /// How often, during IDLE, the watcher looks whether to stop or whether the changes heard have settled (seconds): a
    /// settled change is synced at most this much after ``IdleChanges/quiet``.
    static let idleTick = 0.25
    /// The longest an IDLE lasts before it is ended and re-issued, whatever the refresh interval: 5 min (seconds). Its DONE
    /// must be answered within the endpoint's timeout (`--timeout`), else the connection is taken as dead and the session
    /// re-opened: a server process that hangs, or a flow dropped silently on the way (the kernel's keepalive, 2 min, finds
    /// only a peer that stopped acknowledging), had kept the watch waiting on a deaf IDLE until its refresh (20-25 min),
    /// new Inbox mail only brought by the next poll. Tests shorten it with `MAILSTORE_IDLE_PROBE_SECONDS` (0.5 to 300).
    static let idleProbeInterval: Double = ProcessInfo.processInfo.environment["MAILSTORE_IDLE_PROBE_SECONDS"]
        .flatMap(Double.init).map { min(300, max(0.5, $0)) } ?? 300
    /// How long the IDLE has to be told of new Inbox mail a poll found before it is taken as having missed it and is
    /// issued again (seconds): a server may tell its IDLE a moment after the mail is there to read.
    static let idleMissGrace = 5.0
    /// How often, during IDLE, the outbox's due retries are delivered.
    static let outboxCheckInterval = 60.0
    /// The most folders one slice of a poll syncs (``localWork(using:lastPoll:lastOutbox:lookForLocal:inbox:)``): a slice of
    /// folders passed on their LIST-STATUS takes milliseconds, and the IDLE waits a tick (``idleTick``) between slices.
    package var pollSliceFolders = 200
    /// The seconds after which a slice of a poll syncs no further folder (looked at between folders: a folder's sync is
    /// never cut, so a slice lasts this plus one folder's sync; the first also lists the folders and writes back).
    package var pollSliceSeconds = 1.0

    /// How long a session must last after its first sync for the reconnect backoff to start again from 1 s (seconds).
    static let steadySession = 60.0

    /// Whether retrying later may help: lost or refused connections and timeouts (a write-back keeps the action for a
    /// later try then; see ``reconnects(after:)`` for the watch's own sessions).
    static func isTransient(_ error: SyncError) -> Bool {
        switch error {
        case .server(let e): e.isRetryable
        case .connectionsBusy: true
        // Another process's token refresh took the time this one could wait (it ends; the token is then there).
        case .credential(.oauth(.refreshInProgress)): true
        default: false
        }
    }

    /// Whether the watch opens a new session (after the backoff) when one fails with `error`: for everything but
    /// authentication, certificate and configuration errors, as docs/cli.md says. A lost connection, a timeout, a
    /// protocol error (a malformed response during IDLE), a response over the client's limits or a refused command may
    /// not recur on a new connection, and the backoff bounds the tries of one that does (a NO, a protocol error and an
    /// IDLE flood had ended the watch for good, though their own messages said "reconnect to retry").
    /// Whether `error` is the file system being full (LMDB's `ENOSPC`, also as the cause of an event recorded but not
    /// folded; no room for an OAuth token file's next version).
    static func isDiskFull(_ error: any Error) -> Bool {
        switch error {
        case let e as LMDBError: e.isDiskFull
        case let e as RecordedButNotFolded: isDiskFull(e.underlying)
        // An OAuth refresh not made for want of room for its tokens (the sign-in kept).
        case SyncError.credential(let e): e.isDiskFull
        default: false
        }
    }

    static func reconnects(after error: SyncError) -> Bool {
        switch error {
        case .server(let e):
            switch e {
            case .transport(let t): t.isRetryable  // not a rejected certificate, nor a failed TLS handshake
            case .startTLSUnavailable, .insecureAuthentication, .mechanismUnavailable, .authenticationFailed: false
            case .commandFailed, .temporarilyUnavailable, .protocolError, .deadlinePassed, .responseLimitExceeded: true
            }
        case .connectionsBusy: true
        // The token server could not be reached, or another process's refresh took the time: not the user's to fix.
        case .credential(.oauth(let e)): e.isRetryable
        default: false
        }
    }
}
