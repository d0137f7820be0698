import EventLog
import EventModel
import Foundation
import MailStore
import TestSupport
import XCTest

/// The sync engine against a hostile IMAP server (Tools/test-server/hostile-imap.py).
///
/// The server is a fake over TLS on loopback, with the test Dovecot's certificate: a real server never
/// lists one folder 9,000 times or states RFC822.SIZE 0 for 2 MiB bodies, so only a fake can show the
/// engine stays bounded when one does.
final class HostileSyncTests: SyncTestCase {
    private var hostile: Process?
    /// What the hostile server prints after its port (some modes print what they did).
    private var hostileOut: Pipe?

    override func tearDown() {
        if let hostile, hostile.isRunning { hostile.terminate() }
        hostile?.waitUntilExit()
        super.tearDown()
    }

    /// Starts the hostile server in `mode` and adds the test account pointing at it.
    private func startHostile(_ mode: String) throws {
        let (p, port) = try LoopbackScript.start(["Tools/test-server/hostile-imap.py", mode, dovecot.dir + "/tls/server.pem",
                                                  dovecot.dir + "/tls/server.key"])
        hostile = p
        hostileOut = p.standardOutput as? Pipe
        try store.addAccount(AccountSettings(name: accountName, email: user, host: "127.0.0.1", port: port, security: "tls",
                                             credential: .file(passwordFile), caFile: dovecot.caFile))
    }

    /// Ends the hostile server and returns the lines it printed after its port.
    private func hostileLines() throws -> [String] {
        let p = try XCTUnwrap(hostile)
        if p.isRunning { p.terminate() }
        p.waitUntilExit()
        let data = try XCTUnwrap(hostileOut).fileHandleForReading.readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @discardableResult
    private func syncHostile(batchBytes: Int = 16 << 20, timeout: Double = 30, folders: [String]? = nil,
                             at clock: Timestamp? = nil) throws -> SyncReport {
        guard let account = try views.account(named: accountName)?.settings else { throw SyncError.noAccount(accountName) }
        let engine = try SyncEngine(store: store, account: account,
                                    options: SyncOptions(folders: folders, batchBytes: batchBytes, timeoutSeconds: timeout))
        if let clock { engine.clock = { clock } }
        return try engine.run()
    }

    /// A watch of the hostile server's account (no poll of the other folders).
    private func startWatch(idleRefresh: Double) throws -> WatchRun {
        let engine = try SyncEngine(store: store, account: try XCTUnwrap(try views.account(named: accountName)?.settings),
                                    options: SyncOptions(timeoutSeconds: 10))
        return WatchRun(SyncWatcher(engine: engine, idleRefresh: idleRefresh, pollInterval: 1000))
    }

    /// The folders of the `EmailReceived` events, in log order.
    private func receivedFolders() throws -> [String] {
        try events(.emailReceived).compactMap { e -> String? in
            guard case .emailReceived(let p) = e else { return nil }
            return p.folder
        }
    }

    /// Runs `mailstore ARGS` with the test's store closed (reopened after), and the events it appended.
    private func cli(_ args: [String]) throws -> (result: ChildProcess.Result, appended: UInt64, seconds: Double) {
        let before = try store.head().sequence
        views = nil
        store = nil
        let started = Date()
        let r = try mailstore(args)
        let seconds = Date().timeIntervalSince(started)
        store = try MailStore.open(at: dir.file("store"))
        views = try store.openViews()
        return (r, try store.head().sequence - before, seconds)
    }

    private func events(_ type: EventType) throws -> [DomainEvent] {
        var found: [DomainEvent] = []
        try store.log.scan(filter: ScanFilter(types: [type])) { ev in
            found.append(try ev.decode())
            return true
        }
        return found
    }

    func testNineThousandCopiesOfOneFolderGiveOneFolderDiscovered() throws {
        try startHostile("list-dupes")
        try syncHostile()
        try syncHostile()
        let folders = try events(.folderDiscovered).compactMap { e -> String? in
            guard case .folderDiscovered(let p) = e else { return nil }
            return p.folder
        }
        XCTAssertEqual(folders.sorted(), ["INBOX", "Spam"], "one FolderDiscovered per folder, over two syncs")
    }

    func testBodiesLargerThanTheStatedSizeAreCommittedByTheBytesReceived() throws {
        try startHostile("size-zero")
        // The server says RFC822.SIZE 0, so the plan puts all three 2 MiB messages in one batch; the bytes
        // received (1 MiB per batch here) hand each over on its own.
        let report = try syncHostile(batchBytes: 1 << 20)
        XCTAssertEqual(report.folders.map(\.received), [3])
        let checkpoints = try events(.folderSyncCheckpointed).count
        XCTAssertEqual(checkpoints, 1 + 3, "the folder's first checkpoint, then one commit per 2 MiB received")
        XCTAssertEqual(try events(.emailReceived).count, 3)
    }

    /// A watch on `account` of the hostile server, until `done` says so or 60 s pass: the retries and the folders told
    /// refused counted; true when `done` was met.
    private func watchHostile(refused: Locked<[String]>, until done: () throws -> Bool) throws -> (WatchRun, Bool) {
        let engine = try SyncEngine(store: store, account: try XCTUnwrap(try views.account(named: accountName)?.settings),
                                    options: SyncOptions(timeoutSeconds: 10))
        let watcher = SyncWatcher(engine: engine, idleRefresh: 2, pollInterval: 1000)
        watcher.onFolderRefused = { failure, _, _, _ in refused.withLock { $0.append(failure.folder + ": " + failure.error) } }
        let watch = WatchRun(watcher)
        let deadline = Date().addingTimeInterval(60)
        var met = false
        while !met && Date() < deadline && watch.failure.withLock({ $0 }) == nil {
            Thread.sleep(forTimeInterval: 0.2)
            met = try done()
        }
        return (watch, met)
    }

    /// One `NO [SERVERBUG]` to one EXAMINE (here the Inbox's, the watch's first): the folder is skipped and told, and
    /// the watch goes on and gets the mail. The NO had ended the watch for good (not "retryable").
    func testAWatchSurvivesAOneOffNoToAnExamineAndGetsTheMail() throws {
        try startHostile("examine-no-once")
        let refused = Locked<[String]>([])
        let (watch, got) = try watchHostile(refused: refused) {
            try self.views.syncedCount(account: self.accountName, folder: "INBOX") == 2
        }
        XCTAssertTrue(watch.stop(), "the watch stopped")
        XCTAssertNil(watch.failure.withLock { $0 }, "the watch went on")
        XCTAssertTrue(got, "both messages synced after the refusal")
        let told = refused.withLock { $0 }
        XCTAssertEqual(told.count, 1, "the refusal told once: \(told)")
        XCTAssertTrue(told.first?.hasPrefix("INBOX: IMAP EXAMINE failed (NO): Internal error occurred") == true, "\(told)")
    }

    /// One malformed untagged FETCH during IDLE (a protocol error: the connection dropped) makes the watch reconnect after
    /// its backoff and get the mail that came meanwhile. It had ended the watch for good, though its message said
    /// "reconnect to retry".
    func testAWatchReconnectsAfterAProtocolErrorDuringIdleAndGetsTheMail() throws {
        try startHostile("garbage-once")
        let (watch, got) = try watchHostile(refused: Locked([])) {
            try self.views.syncedCount(account: self.accountName, folder: "INBOX") == 2
        }
        XCTAssertTrue(watch.stop(), "the watch stopped")
        XCTAssertNil(watch.failure.withLock { $0 }, "the watch went on")
        XCTAssertTrue(got, "the second message synced after the reconnect")
        XCTAssertEqual(watch.retries.withLock { $0 }, 1, "one reconnect")
    }

    /// A server that sends garbage at every IDLE, right after every session's first sync: the reconnect waits keep
    /// doubling (a session that synced had reset them to 1 s: a reconnect and a full sync every second, for ever).
    func testAServerFailingAtEverySessionGoesThroughTheBackoff() throws {
        try startHostile("garbage-always")
        let watch = try startWatch(idleRefresh: 2)
        let deadline = Date().addingTimeInterval(30)
        while watch.retries.withLock({ $0 }) < 4 && Date() < deadline && watch.failure.withLock({ $0 }) == nil {
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTAssertTrue(watch.stop(), "the watch stopped")
        XCTAssertNil(watch.failure.withLock { $0 }, "the watch went on")
        XCTAssertEqual(Array(watch.waits.withLock { $0 }.prefix(4)), [1, 2, 4, 8], "doubling")
    }

    /// Among 600 messages, UID 300's literal is announced as 5,000 bytes, 100 are sent, then nothing (Dovecot's "cached
    /// message size mismatch"). The batch's other messages are stored, UID 300 is given up after failing alone twice
    /// (named in the report and a warning), and the next sync neither fetches it again nor waits on it. It had stored
    /// 0 of 600 and failed (exit 5) at every sync, for ever.
    func testALiteralShorterThanStatedLosesOnlyItsOwnMessage() throws {
        try startHostile("short-literal")
        let first = try syncHostile(timeout: 2)
        let inbox = try XCTUnwrap(first.folders.first { $0.folder == "INBOX" })
        XCTAssertEqual(inbox.received, 599, "every message but the lying one")
        XCTAssertEqual(inbox.skippedUnfetchable, [300])
        XCTAssertEqual(try events(.emailReceived).count, 599)
        XCTAssertEqual(try views.syncState(account: accountName, folder: "INBOX")?.unfetchable, [300])
        XCTAssertEqual(try views.syncState(account: accountName, folder: "INBOX")?.isComplete, true)
        let again = try cli(["sync", "--timeout", "2"])
        XCTAssertEqual(again.appended, 0, "nothing new: \(again.result.stdout)")
        XCTAssertLessThan(again.seconds, 2, "not waiting on the message given up")
        XCTAssertTrue(again.result.stderr.contains("INBOX: 1 message the server failed to deliver whole"), again.result.stderr)
        XCTAssertTrue(again.result.stderr.contains("(UID 300)"), again.result.stderr)
        XCTAssertEqual(try events(.emailReceived).count, 599)
    }

    /// UID 300 is sent short the three times the first sync asks for it (given up), then whole (as after a repair of the
    /// server's index). A plain sync leaves it given up; `sync --retry-unfetchable` fetches it, says so, and a new
    /// checkpoint records none given up (the old ones stay as they were). Nothing but a UIDVALIDITY change had tried it.
    func testRetryUnfetchableFetchesAMessageGivenUpOnceTheServerDeliversIt() throws {
        try startHostile("short-literal-thrice")
        try syncHostile(timeout: 2)
        XCTAssertEqual(try views.syncState(account: accountName, folder: "INBOX")?.unfetchable, [300])
        let plain = try cli(["sync", "--timeout", "2"])
        XCTAssertEqual(plain.appended, 0, "not tried without being asked: \(plain.result.stderr)")
        XCTAssertTrue(plain.result.stderr.contains("mailstore sync --retry-unfetchable"), plain.result.stderr)
        let checkpointsBefore = try events(.folderSyncCheckpointed)
        let retry = try cli(["sync", "--retry-unfetchable", "--timeout", "2"])
        XCTAssertTrue(retry.result.stdout.contains("1 new"), retry.result.stdout)
        XCTAssertTrue(retry.result.stderr.contains("INBOX: 1 message given up before tried again: 1 fetched, 0 given up again"),
                      retry.result.stderr)
        XCTAssertEqual(try events(.emailReceived).count, 600)
        XCTAssertEqual(try views.syncedCount(account: accountName, folder: "INBOX"), 600)
        XCTAssertEqual(try views.syncState(account: accountName, folder: "INBOX")?.unfetchable, [])
        XCTAssertEqual(Array(try events(.folderSyncCheckpointed).prefix(checkpointsBefore.count)), checkpointsBefore,
                       "the checkpoints that gave it up are left as they were")
        let after = try cli(["sync", "--timeout", "2"])
        XCTAssertEqual(after.appended, 0, after.result.stderr)
        XCTAssertFalse(after.result.stderr.contains("failed to deliver whole"), after.result.stderr)
        views = nil
        store = nil
        let watch = try mailstore(["sync", "--watch", "--retry-unfetchable"], expect: 64)
        XCTAssertTrue(watch.stderr.contains("--retry-unfetchable goes with a sync without --watch"), watch.stderr)
    }

    /// UID 300 is sent short the three times the first sync asks for it (given up), then whole. An ordinary sync leaves
    /// it until a day has passed since it was given up (`UnfetchableMessage.retryDelay`), then fetches it by itself and
    /// the checkpoint records none given up. Only `sync --retry-unfetchable` (or a UIDVALIDITY change) had tried it.
    func testAMessageGivenUpIsFetchedByAnOrdinarySyncOnceItsRetryIsDue() throws {
        try startHostile("short-literal-thrice")
        let before = Timestamp.now
        try syncHostile(timeout: 2)
        let state = try XCTUnwrap(try views.syncState(account: accountName, folder: "INBOX"))
        let givenUp = try XCTUnwrap(state.givenUp.first)
        XCTAssertEqual(state.givenUp.count, 1)
        XCTAssertEqual(givenUp.uid, 300)
        XCTAssertEqual(givenUp.times, 1)
        XCTAssertGreaterThanOrEqual(givenUp.givenUpAt, before)
        let day: Int64 = 86_400_000_000
        let early = try syncHostile(timeout: 2, at: Timestamp(microseconds: givenUp.givenUpAt.microseconds + day - 60_000_000))
        XCTAssertEqual(early.folders.first { $0.folder == "INBOX" }?.retriedUnfetchable, [], "not due yet")
        XCTAssertEqual(try events(.emailReceived).count, 599)
        let due = try syncHostile(timeout: 2, at: Timestamp(microseconds: givenUp.givenUpAt.microseconds + day + 60_000_000))
        let inbox = try XCTUnwrap(due.folders.first { $0.folder == "INBOX" })
        XCTAssertEqual(inbox.retriedUnfetchable, [300])
        XCTAssertEqual(inbox.received, 1)
        XCTAssertEqual(inbox.skippedUnfetchable, [])
        XCTAssertEqual(try events(.emailReceived).count, 600)
        XCTAssertEqual(try views.syncState(account: accountName, folder: "INBOX")?.givenUp, [])
    }

    /// A message the server still cannot deliver when its retry is due is given up again, now, one time more: its next
    /// retry is two days later (then four, then weekly), so it costs its folder's sync read timeouts at most that often.
    func testAMessageStillUnfetchableWhenRetriedWaitsLongerForItsNextRetry() throws {
        try startHostile("short-literal")
        try syncHostile(timeout: 2)
        let first = try XCTUnwrap(try views.syncState(account: accountName, folder: "INBOX")?.givenUp.first)
        let day: Int64 = 86_400_000_000
        let retryAt = Timestamp(microseconds: first.givenUpAt.microseconds + day + 1)
        let retry = try syncHostile(timeout: 2, at: retryAt)
        let inbox = try XCTUnwrap(retry.folders.first { $0.folder == "INBOX" })
        XCTAssertEqual(inbox.retriedUnfetchable, [300])
        XCTAssertEqual(inbox.skippedUnfetchable, [300], "given up again")
        XCTAssertEqual(try views.syncState(account: accountName, folder: "INBOX")?.givenUp,
                       [UnfetchableMessage(uid: 300, givenUpAt: retryAt, times: 2)])
        let checkpoints = try events(.folderSyncCheckpointed).count
        let notYet = try syncHostile(timeout: 2, at: Timestamp(microseconds: retryAt.microseconds + 2 * day - 1))
        XCTAssertEqual(notYet.folders.first { $0.folder == "INBOX" }?.retriedUnfetchable, [], "two days, not one")
        XCTAssertEqual(try events(.folderSyncCheckpointed).count, checkpoints, "an unchanged folder appends nothing")
        XCTAssertEqual(try events(.emailReceived).count, 599)
    }

    /// A scheduled retry is an attempt from its start: a `mailstore sync` killed (SIGKILL) while UID 300's retry stalls
    /// leaves it given up once more, as of that sync (a second time: its next retry two days later). It had left it
    /// given up by none, so the next sync tried it again at once and gave it up as the first time (its backoff started
    /// again: a sync killed at each retry, a watch's on a timer say, retried it every time).
    func testARetryCutShortByAKillStillCountsAsAnAttempt() throws {
        try startHostile("short-literal")
        let out = try XCTUnwrap(hostileOut).fileHandleForReading
        let stalls = Locked(0)
        let reader = Thread {
            var text = ""
            while true {
                let data = out.availableData
                if data.isEmpty { return }
                text += String(decoding: data, as: UTF8.self)
                let n = text.components(separatedBy: "STALL 300").count - 1
                stalls.withLock { $0 = n }
            }
        }
        reader.start()
        try syncHostile(timeout: 2)
        let first = try XCTUnwrap(try views.syncState(account: accountName, folder: "INBOX")?.givenUp.first)
        XCTAssertEqual(first.times, 1)
        // Its last stall ended a read timeout (2 s) before the sync did: the reader has counted them all.
        XCTAssertTrue(Poll.until(seconds: 10) { stalls.withLock { $0 } > 0 })
        let stalledBefore = stalls.withLock { $0 }
        views = nil
        store = nil
        // A day and an hour ahead (libfaketime; the monotonic clock, the read timeout's, left alone): the retry is due.
        let ahead: Int64 = 25 * 3_600
        let sync = try startMailstore(["sync", "--timeout", "60"],
                                      env: ["LD_PRELOAD": "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
                                            "FAKETIME": "+\(ahead)", "DONT_FAKE_MONOTONIC": "1"])
        let stalled = Poll.until(seconds: 50) { stalls.withLock { $0 } > stalledBefore || !sync.isRunning }
        let running = sync.isRunning
        kill(sync.processIdentifier, SIGKILL)
        sync.waitUntilExit()
        XCTAssertTrue(stalled && running, "the sync stalled on UID 300's retry and was killed there")
        store = try MailStore.open(at: dir.file("store"))
        views = try store.openViews()
        let after = try XCTUnwrap(try views.syncState(account: accountName, folder: "INBOX")?.givenUp)
        XCTAssertEqual(after.map(\.uid), [300], "still given up")
        XCTAssertEqual(after.first?.times, 2, "the retry killed counts")
        XCTAssertGreaterThanOrEqual(after.first?.givenUpAt.microseconds ?? 0, first.givenUpAt.microseconds + ahead * 1_000_000)
        // The next sync, an hour after the one killed, does not try it again (not before two days).
        let next = try syncHostile(timeout: 2, at: Timestamp(microseconds: first.givenUpAt.microseconds + (ahead + 3_600) * 1_000_000))
        let inbox = try XCTUnwrap(next.folders.first { $0.folder == "INBOX" })
        XCTAssertEqual(inbox.retriedUnfetchable, [], "not tried again at once")
        XCTAssertEqual(inbox.skippedUnfetchable, [300])
        XCTAssertEqual(try views.syncState(account: accountName, folder: "INBOX")?.givenUp.first?.times, 2)
    }

    /// A server that gives INBOX a new UIDVALIDITY at every SELECT, the same 200 messages at the same UIDs: each sync
    /// after the first records the change and a checkpoint, not the 200 messages again (it had appended 203 events at
    /// every sync and every poll of a watch), and the third says once that the server does this.
    func testAUIDValidityNewAtEverySessionAppendsOnlyTheChange() throws {
        try startHostile("uidvalidity-every-select")
        try syncHostile()
        XCTAssertEqual(try events(.emailReceived).count, 200)
        let ids = Set(try views.syncedCopies(account: accountName, folder: "INBOX").values.map(\.emailID))
        let second = try syncHostile()
        let inbox = try XCTUnwrap(second.folders.first { $0.folder == "INBOX" })
        XCTAssertTrue(inbox.uidValidityChanged)
        XCTAssertEqual(inbox.rematched, 200)
        XCTAssertLessThanOrEqual(inbox.events, 3, "the change and its checkpoint, not one event per message")
        XCTAssertFalse(inbox.uidValidityFlapping, "one change is not yet a pattern")
        let third = try cli(["sync"])
        XCTAssertLessThanOrEqual(third.appended, 3)
        XCTAssertTrue(third.result.stderr.contains("INBOX: the server changes UIDVALIDITY at every session (a server bug)"),
                      third.result.stderr)
        XCTAssertEqual(try events(.emailReceived).count, 200, "no message recorded again")
        let copies = try views.syncedCopies(account: accountName, folder: "INBOX")
        XCTAssertEqual(Set(copies.values.map(\.emailID)), ids, "the same email ids")
        let validity = try XCTUnwrap(try views.syncState(account: accountName, folder: "INBOX")?.uidValidity)
        XCTAssertEqual(Set(copies.values.map(\.uidValidity)), [validity], "every copy under the folder's current UIDVALIDITY")
        let rebuild = try views.compareWithRebuild()
        XCTAssertTrue(rebuild.differences.isEmpty, "verify --views: \(rebuild.differences)")
    }

    /// A server whose UIDNEXT goes stale after the first session (6, while its ESEARCH lists all 10 messages, UIDs 1-10):
    /// the next syncs record no expunge and keep all 10. The search had been clamped below UIDNEXT, so UIDs 6-10 were
    /// recorded expunged (and fetched back by the next honest session).
    func testAStaleUIDNextRecordsNoExpungeOfMailTheServerStillLists() throws {
        try startHostile("stale-uidnext")
        try syncHostile()
        XCTAssertEqual(try events(.emailReceived).count, 10)
        for _ in 0..<2 {
            let report = try syncHostile()
            XCTAssertEqual(report.folders.first { $0.folder == "INBOX" }?.expunged, 0)
        }
        XCTAssertEqual(try events(.emailExpunged).count, 0, "nothing the server lists taken for expunged")
        XCTAssertEqual(try events(.emailReceived).count, 10, "nothing fetched again")
        XCTAssertEqual(try views.syncedCount(account: accountName, folder: "INBOX"), 10)
    }

    /// A server refusing every fetch of sizes alone (`NO [SERVERBUG]`, as over a message its index cannot read): the
    /// pass is planned without sizes, the mail is fetched, and an expunge found before the refused fetch is recorded.
    /// The refusal had skipped the folder (nothing fetched) and dropped the expunges and flag changes found before it,
    /// at every sync.
    func testAServerRefusingTheSizeFetchStillHasItsFolderSyncedAndItsExpungesRecorded() throws {
        try startHostile("size-no")
        let first = try syncHostile()
        XCTAssertEqual(first.failedFolders.map(\.folder), [])
        XCTAssertEqual(try events(.emailReceived).count, 5)
        let second = try syncHostile()
        XCTAssertEqual(second.folders.first { $0.folder == "INBOX" }?.expunged, 1)
        XCTAssertEqual(try events(.emailExpunged).count, 1)
        XCTAssertEqual(try events(.emailReceived).count, 6)
    }

    /// A server listing Zed, Broken, Trash, Archive, Sent, then INBOX: a full sync takes the Inbox first, then the role
    /// folders (Sent, Archive, Trash), then the others in LIST order; the mail is recorded and the folders reported in
    /// that order. Folders named with `--folder` keep the user's order. The folders had been synced in LIST order, the
    /// Inbox last.
    func testAFullSyncTakesTheInboxFirstThenTheRoleFoldersThenListOrder() throws {
        try startHostile("folders")
        let order = ["INBOX", "Sent", "Archive", "Trash", "Zed", "Broken"]
        let report = try syncHostile()
        XCTAssertEqual(report.folders.map(\.folder), order)
        XCTAssertEqual(try receivedFolders(), order)
        let named = try syncHostile(folders: ["Zed", "Trash", "INBOX"])
        XCTAssertEqual(named.folders.map(\.folder), ["Zed", "Trash", "INBOX"], "the user's order")
    }

    /// A protocol error in a folder (Broken, listed before INBOX) still fails the round, since the connection cannot be
    /// trusted, but the Inbox was synced first: its new mail is stored, and so is that of the folders synced before the
    /// error. The Inbox, synced after the folders listed before it, had never got its mail while Broken failed.
    func testTheInboxMailArrivesWhenALaterFolderFailsWithAProtocolError() throws {
        try startHostile("folders-garbage")
        XCTAssertThrowsError(try syncHostile()) { error in
            guard case SyncError.server(.protocolError) = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try receivedFolders(), ["INBOX", "Sent", "Archive", "Trash", "Zed"])
        XCTAssertEqual(try views.syncedCount(account: accountName, folder: "INBOX"), 1)
    }

    /// A watch of a server repeating a response during IDLE (modes exists-repeat, fetch-repeat), until `arrived` holds
    /// (at most 30 s), then `more` seconds of the flood: the watch stops in it, never failed nor reconnected. Returns how
    /// long after the server's change (its line starting `told`, with the time) `arrived` first held, and how many
    /// EXAMINEs of INBOX the server served.
    private func watchThroughAFlood(until arrived: () throws -> Bool, more: Double,
                                    told: String) throws -> (delay: Double, selects: Int) {
        let watch = try startWatch(idleRefresh: 60)
        let deadline = Date().addingTimeInterval(30)
        var got: Date?
        while got == nil && Date() < deadline && watch.failure.withLock({ $0 }) == nil {
            Thread.sleep(forTimeInterval: 0.05)
            if try arrived() { got = Date() }
        }
        // The changed response repeated for a while more: still no sync.
        Thread.sleep(forTimeInterval: more)
        XCTAssertTrue(watch.stop(within: 10), "the watch stopped in the flood")
        XCTAssertNil(watch.failure.withLock { $0 }, "the watch went on")
        XCTAssertEqual(watch.retries.withLock { $0 }, 0, "no reconnect")
        let lines = try hostileLines()
        let toldAt = try XCTUnwrap(lines.first { $0.hasPrefix(told) }.flatMap { Double($0.dropFirst(told.count)) }, "\(lines)")
        let syncedAt = try XCTUnwrap(got, "the change synced")
        return (syncedAt.timeIntervalSince1970 - toldAt, lines.filter { $0 == "SELECT INBOX" }.count)
    }

    /// A server repeating "* 1 EXISTS" every 50 ms during IDLE, nothing changed: the watch stays in its IDLE (each repeat
    /// had ended it and synced the Inbox again: two EXAMINEs each, ~30 a second, for ever). The second message, told by
    /// "* 2 EXISTS" 4 s into the IDLE (then repeated), is synced once the server has told no other change for 1 s
    /// (`IdleChanges.quiet`; at most 2 s after the first); the watch can be stopped however busy the server is.
    func testARepeatedUnchangedExistsCostsNoSyncAndANewMessageStillArrives() throws {
        try startHostile("exists-repeat")
        let run = try watchThroughAFlood(until: { try self.views.syncedCount(account: self.accountName, folder: "INBOX") == 2 },
                                         more: 3, told: "NEW ")
        // 1 s of quiet (2 s at most) after the EXISTS, the sync, a busy machine.
        XCTAssertLessThan(run.delay, 5, "the new message synced promptly")
        // The first sync's, the watch's sync and EXAMINE before its IDLE, the same after the new message: 5.
        XCTAssertLessThanOrEqual(run.selects, 7, "the Inbox synced again only for the new message: \(run.selects) EXAMINEs")
    }

    /// A server repeating "* 1 FETCH (FLAGS ())" every 50 ms during IDLE (every other time with "UID 1"), the flags the
    /// store holds: the watch stays in its IDLE (each repeat had been a change: an Inbox sync every 2 s, for ever). The
    /// message becoming \Seen 4 s into the IDLE, told by the same FETCH with (\Seen) and repeated, is synced promptly,
    /// once.
    func testARepeatedFetchOfTheFlagsTheStoreHoldsCostsNoSyncAndAFlagChangeStillArrives() throws {
        try startHostile("fetch-repeat")
        let run = try watchThroughAFlood(until: {
            try self.views.syncedCopies(account: self.accountName, folder: "INBOX")[1]?.flags == ["\\Seen"]
        }, more: 4, told: "SEEN ")
        XCTAssertLessThan(run.delay, 5, "the flag change synced promptly")
        // The first sync's, the watch's sync and EXAMINE before its IDLE, the same after the flag change: 5.
        XCTAssertLessThanOrEqual(run.selects, 7, "the Inbox synced again only for the flag change: \(run.selects) EXAMINEs")
    }

    func testATricklingServerCannotKeepSyncAliveBeyondItsDeadline() throws {
        try startHostile("trickle")
        views = nil
        store = nil
        // A byte every half second never lets a one-second read time out; the command has 10 × 1 s in all.
        let started = Date()
        let r = try mailstore(["sync", "--timeout", "1"], expect: 5)
        XCTAssertTrue(r.stderr.contains("LIST did not complete within its deadline"), r.stderr)
        // Generous: without the deadline the trickle would last over an hour.
        XCTAssertLessThan(Date().timeIntervalSince(started), 120)
    }
}
