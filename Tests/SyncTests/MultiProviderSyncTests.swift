import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import SecureTransport
import TestSupport
import XCTest

/// One Dovecot made to look like several providers at once (users with the `plain` and `dotted` folder layouts of
/// Tools/test-server/dovecot: no SPECIAL-USE, provider folder names created here, `/` and `.` separators), accounts
/// whose provider is forced to gmail/outlook/yahoo/custom, synced together; and the connection pool and IDLE refresh
/// with the real server.
final class MultiProviderSyncTests: SyncTestCase {
    /// A user of the test server with its own folder layout.
    struct User {
        var name: String
        var password: String
        var passwordFile: String
    }

    private func newUser(_ prefix: String, layout: String?) throws -> User {
        let u = try imap.newUser(prefix, layout: layout)
        return User(name: u.user, password: u.password, passwordFile: u.passwordFile)
    }

    private func login(_ u: User) throws -> IMAPConnection {
        let c = try IMAPConnection.connect(ServerEndpoint(host: imap.host, port: imap.tlsPort, security: .tls, caFile: imap.caFile,
                                                          timeoutSeconds: 30))
        try c.authenticate(username: u.name, credential: .password(u.password), mechanism: .plain)
        return c
    }

    /// Creates `folders` and APPENDs `count` messages to INBOX and one to each folder in `withMail`.
    private func populate(_ u: User, folders: [String], inbox count: Int, withMail: [String] = []) throws {
        let c = try login(u)
        defer { c.logout() }
        for f in folders { try c.create(MailboxName(f)) }
        for i in 0..<count {
            _ = try c.append(to: .inbox, message: SyncTestCase.message("\(u.name)-\(i)", subject: "Inbox \(i)"), flags: i % 2 == 0 ? ["\\Seen"] : [])
        }
        for f in withMail {
            _ = try c.append(to: MailboxName(f), message: SyncTestCase.message("\(u.name)-\(f)", subject: "In \(f)"), flags: ["\\Seen"])
        }
    }

    /// Records an account whose provider is `provider` whatever its host (the loopback server), like an account of
    /// that provider reached through a local proxy.
    private func register(_ name: String, _ u: User, provider: String, passwordFile: String? = nil) throws {
        var payload = try AccountSettings(name: name, email: u.name, host: imap.host, port: imap.tlsPort, security: "tls",
                                          credential: .file(passwordFile ?? u.passwordFile), caFile: imap.caFile).validated()
        payload.provider = provider
        try store.commit([NewEvent(event: .accountAdded(payload), account: name, stream: .account(name), actor: .user)])
    }

    /// Whether a message of `folder` carries \Flagged on the server within 30 s.
    func waitForFlagged(_ folder: String, via c: IMAPConnection) throws -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            _ = try c.select(MailboxName(folder), readOnly: true)
            if try !c.uidSearch([.flagged]).isEmpty { return true }
            usleep(200_000)
        }
        return false
    }

    /// Runs `mailstore ARGS` (a sync, which must succeed) with the store closed here, then opens it and its views again.
    private func syncClosed(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        views = nil
        store = nil
        _ = try mailstore(args, expect: 0, file: file, line: line)
        store = try MailStore.open(at: dir.file("store"))
        views = try store.openViews()
    }

    private func roles(_ account: String) throws -> [String: FolderRole] {
        try views.catchUp()
        return Dictionary(try views.folders(account: account).map { ($0.path, $0.role) }, uniquingKeysWith: { a, _ in a })
    }

    // MARK: - A personal namespace with a prefix

    /// Courier's personal namespace is `INBOX.` (its NAMESPACE says so): the provider's folder names and excluded
    /// folders are known below it. Yahoo's `INBOX.Bulk` had stayed an ordinary folder (no Spam badge, notifications
    /// not silenced) and iCloud's `INBOX.Notes` was synced as mail.
    func testProviderNamesAreKnownBelowTheNamespacePrefixOnCourier() throws {
        let yahoo = try newUser("yahoo", layout: nil)
        let icloud = try newUser("icloud", layout: nil)
        try populate(yahoo, folders: ["INBOX.Bulk"], inbox: 1, withMail: ["INBOX.Bulk"])
        try populate(icloud, folders: ["INBOX.Notes"], inbox: 1, withMail: ["INBOX.Notes"])
        try register("yahoo", yahoo, provider: "yahoo")
        try register("icloud", icloud, provider: "icloud")
        try syncClosed(["sync"])
        XCTAssertEqual(try roles("yahoo")["INBOX.Bulk"], .junk)
        XCTAssertNil(try roles("icloud")["INBOX.Notes"], "iCloud's Notes is not mail")
        XCTAssertEqual(try views.syncedCount(account: "icloud", folder: "INBOX"), 1)
    }

    /// Dovecot with the personal namespace `Mail/` lists the namespace's root `Mail` as a folder (layout `prefixed`:
    /// INBOX's own maildir under another name; `prefixed-own`: a mailbox of its own, empty here). It is the container
    /// of the user's folders, as Thunderbird and mbsync show it: not synced while it holds no mail or only INBOX's; synced
    /// under its name once it holds mail of its own. It had been synced always: every Inbox message a second time in
    /// `Mail`, or an empty `Mail` beside the user's folders.
    func testTheNamespacesRootIsSyncedOnlyWhenItHoldsMailOfItsOwn() throws {
        let aliased = try newUser("prefixed", layout: "prefixed")
        let own = try newUser("prefixedown", layout: "prefixed-own")
        try populate(aliased, folders: ["Mail/Sent", "Mail/Projects"], inbox: 3, withMail: ["Mail/Projects"])
        try populate(own, folders: ["Mail", "Mail/Sent"], inbox: 2)
        try register("aliased", aliased, provider: "custom")
        try register("own", own, provider: "custom")
        try syncClosed(["sync"])
        let aliasedRoles = try roles("aliased")
        XCTAssertNil(aliasedRoles["Mail"], "INBOX under another name is no folder of its own: \(aliasedRoles)")
        XCTAssertEqual(aliasedRoles["Mail/Sent"], .sent)
        XCTAssertEqual(try views.syncedCount(account: "aliased", folder: "INBOX"), 3)
        XCTAssertEqual(try views.syncedCount(account: "aliased", folder: "Mail/Projects"), 1)
        XCTAssertEqual(try views.syncedCount(account: "aliased", folder: "Mail"), 0, "the Inbox's mail not synced twice")
        let ownRoles = try roles("own")
        XCTAssertNil(ownRoles["Mail"], "an empty root is a container: \(ownRoles)")
        XCTAssertEqual(ownRoles["Mail/Sent"], .sent)
        XCTAssertEqual(try views.syncedCount(account: "own", folder: "INBOX"), 2)
        // Mail of its own in the root: synced under its name (never left out).
        let c = try login(own)
        _ = try c.append(to: MailboxName("Mail"), message: SyncTestCase.message("\(own.name)-root", subject: "In the root"), flags: [])
        c.logout()
        try syncClosed(["sync", "--account", "own"])
        XCTAssertEqual(try roles("own")["Mail"], .custom)
        XCTAssertEqual(try views.syncedCount(account: "own", folder: "Mail"), 1)
        XCTAssertEqual(try views.syncedCount(account: "own", folder: "INBOX"), 2)
    }

    /// `sync --folder Mail` naming the namespace's root that the sync leaves out says what it is and why it is not synced,
    /// exit 0 as for a folder with nothing to sync (it had said the server has no such folder, exit 4, though it lists it);
    /// the JSON names it. A root holding mail of its own is synced by name as before.
    func testSyncOfTheNamespacesRootByNameSaysWhatItIsAndWhyNotSynced() throws {
        let aliased = try newUser("prefixed", layout: "prefixed")
        let own = try newUser("prefixedown", layout: "prefixed-own")
        try populate(aliased, folders: ["Mail/Sent"], inbox: 2)
        try populate(own, folders: ["Mail", "Mail/Sent"], inbox: 1)
        try register("aliased", aliased, provider: "custom")
        try register("own", own, provider: "custom")
        views = nil
        store = nil
        let same = try mailstore(["sync", "--account", "aliased", "--folder", "Mail"], expect: 0)
        XCTAssertTrue(same.stderr.contains("'Mail' is the namespace root and the same mailbox as INBOX here: its mail is synced as INBOX"),
                      same.stderr)
        XCTAssertFalse(same.stderr.contains("no syncable folder"), same.stderr)
        let empty = try mailstore(["sync", "--account", "own", "--folder", "Mail", "--folder", "Mail/Sent", "--json"], expect: 0)
        XCTAssertTrue(empty.stdout.contains(#""namespaceRootNotSynced":{"#), empty.stdout)
        XCTAssertTrue(empty.stdout.contains(#""sameAsInbox":false"#), empty.stdout)
        XCTAssertTrue(empty.stdout.contains(#""folder":"Mail\/Sent""#) || empty.stdout.contains(#""folder":"Mail/Sent""#), empty.stdout)
        let said = try mailstore(["sync", "--account", "own", "--folder", "Mail"], expect: 0)
        XCTAssertTrue(said.stderr.contains("'Mail' is the namespace root, the container of the other folders, and holds no mail"), said.stderr)
        // Another name not listed is still not found.
        let missing = try mailstore(["sync", "--account", "own", "--folder", "Nowhere"], expect: 4)
        XCTAssertTrue(missing.stderr.contains("no syncable folder"), missing.stderr)
        // Mail of its own in the root: `--folder Mail` syncs it under its name, with no note.
        let c = try login(own)
        _ = try c.append(to: MailboxName("Mail"), message: SyncTestCase.message("\(own.name)-root", subject: "In the root"), flags: [])
        c.logout()
        let synced = try mailstore(["sync", "--account", "own", "--folder", "Mail"], expect: 0)
        XCTAssertFalse(synced.stderr.contains("namespace root"), synced.stderr)
        store = try MailStore.open(at: dir.file("store"))
        views = try store.openViews()
        try views.catchUp()
        XCTAssertEqual(try views.syncedCount(account: "own", folder: "Mail"), 1)
        XCTAssertEqual(try views.syncedCount(account: "aliased", folder: "Mail"), 0)
        XCTAssertEqual(try views.syncedCount(account: "aliased", folder: "INBOX"), 0, "only the folder named is synced")
    }

    // MARK: - Several providers, one sync

    func testSeveralProvidersOnOneServerSyncTogetherAndAWrongPasswordFailsAlone() throws {
        let me = User(name: user, password: try String(contentsOfFile: passwordFile, encoding: .utf8), passwordFile: passwordFile)
        let gmail = try newUser("gmail", layout: "plain")
        let outlook = try newUser("outlook", layout: "plain")
        let yahoo = try newUser("yahoo", layout: "dotted")
        let heuristic = try newUser("plain", layout: "plain")
        try populate(gmail, folders: ["[Gmail]/Sent Mail", "[Gmail]/All Mail", "[Gmail]/Starred", "[Gmail]/Drafts", "[Gmail]/Trash",
                                      "[Gmail]/Spam", "Work"], inbox: 5, withMail: ["[Gmail]/Sent Mail", "[Gmail]/All Mail"])
        try populate(outlook, folders: ["Sent Items", "Deleted Items", "Junk Email", "Drafts", "Archive", "Conversation History"],
                     inbox: 4, withMail: ["Sent Items"])
        try populate(yahoo, folders: ["Sent", "Trash", "Bulk Mail", "Draft", "Archive", "Projects", "Projects.2026"], inbox: 3,
                     withMail: ["Sent", "Projects.2026"])
        try populate(heuristic, folders: ["Gesendet", "Papierkorb", "Spam", "Rechnungen"], inbox: 2, withMail: ["Gesendet"])
        try populate(me, folders: ["Rechnungen"], inbox: 6, withMail: ["Sent"])
        let wrong = dir.file("wrong.password")
        XCTAssertTrue(FileManager.default.createFile(atPath: wrong, contents: Data("not-the-password".utf8), attributes: [.posixPermissions: 0o600]))

        try register("gmail", gmail, provider: "gmail")
        try register("outlook", outlook, provider: "outlook")
        try register("yahoo", yahoo, provider: "yahoo")
        try register("heuristic", heuristic, provider: "custom")
        try register("custom", me, provider: "custom")
        try register("broken", gmail, provider: "gmail", passwordFile: wrong)
        views = nil
        store = nil

        let r = try mailstore(["sync"], expect: 5)
        XCTAssertTrue(r.stderr.contains("1 of 6 accounts failed: broken"), r.stderr)
        XCTAssertFalse(r.stderr.contains("not-the-password"))
        for name in ["gmail", "outlook", "yahoo", "heuristic", "custom"] {
            XCTAssertTrue(r.stdout.contains("\(name): "), "a summary for \(name): \(r.stdout)")
        }

        store = try MailStore.open(at: dir.file("store"))
        views = try store.openViews()
        XCTAssertEqual(try views.syncedCount(account: "gmail", folder: "INBOX"), 5)
        XCTAssertEqual(try views.syncedCount(account: "outlook", folder: "INBOX"), 4)
        XCTAssertEqual(try views.syncedCount(account: "yahoo", folder: "INBOX"), 3)
        XCTAssertEqual(try views.syncedCount(account: "heuristic", folder: "INBOX"), 2)
        XCTAssertEqual(try views.syncedCount(account: "custom", folder: "INBOX"), 6)
        XCTAssertEqual(try views.syncedCount(account: "broken", folder: "INBOX"), 0)
        XCTAssertEqual(try roles("broken"), [:], "nothing recorded for the account that failed")

        // Gmail: the provider's names (no SPECIAL-USE on this user); All Mail known by its name (the archive target)
        // but not synced (every message is in it).
        XCTAssertEqual(try roles("gmail"), ["INBOX": .inbox, "[Gmail]/Sent Mail": .sent, "[Gmail]/Starred": .flagged,
                                            "[Gmail]/Drafts": .drafts, "[Gmail]/Trash": .trash, "[Gmail]/Spam": .junk, "Work": .custom,
                                            "[Gmail]/All Mail": .all])
        XCTAssertEqual(try views.syncedCount(account: "gmail", folder: "[Gmail]/All Mail"), 0, "All Mail is not synced")
        XCTAssertEqual(try views.syncedCount(account: "gmail", folder: "[Gmail]/Sent Mail"), 1)
        // Outlook: its names; Conversation History excluded.
        XCTAssertEqual(try roles("outlook"), ["INBOX": .inbox, "Sent Items": .sent, "Deleted Items": .trash, "Junk Email": .junk,
                                              "Drafts": .drafts, "Archive": .archive])
        // Yahoo: its names, with the "." separator.
        XCTAssertEqual(try roles("yahoo"), ["INBOX": .inbox, "Sent": .sent, "Trash": .trash, "Bulk Mail": .junk, "Draft": .drafts,
                                            "Archive": .archive, "Projects": .custom, "Projects.2026": .custom])
        XCTAssertEqual(try views.folders(account: "yahoo").first { $0.path == "Projects.2026" }?.displayName, "2026")
        XCTAssertEqual(try views.syncedCount(account: "yahoo", folder: "Projects.2026"), 1)
        // A custom server without SPECIAL-USE: the name heuristics.
        XCTAssertEqual(try roles("heuristic"), ["INBOX": .inbox, "Gesendet": .sent, "Papierkorb": .trash, "Spam": .junk,
                                                "Rechnungen": .custom])
        // A custom server with SPECIAL-USE.
        XCTAssertEqual(try roles("custom"), ["INBOX": .inbox, "Sent": .sent, "Drafts": .drafts, "Trash": .trash, "Junk": .junk,
                                             "Archive": .archive, "Rechnungen": .custom])
        XCTAssertEqual(try views.syncedCount(account: "custom", folder: "Sent"), 1)

        views = nil
        store = nil
        let verify = try mailstore(["verify", "--views"])
        XCTAssertFalse(verify.stdout.contains("mismatch"), verify.stdout)
        // A second sync changes nothing and fails the same way.
        let again = try mailstore(["sync", "--json"], expect: 5)
        XCTAssertEqual(again.stdout.split(separator: "\n").count, 5, again.stdout)
        XCTAssertFalse(again.stdout.contains("\"received\":1"), again.stdout)
    }

    /// E-32, AC-MP-13: the watch re-issues IDLE at the provider's interval (Yahoo's 4 minutes, before its 5-minute
    /// cut-off), `--idle-refresh` overriding it; the pool's per-account limit and idle time come from the registry.
    func testTheWatchAndThePoolTakeEachProvidersSettings() throws {
        let me = User(name: user, password: "", passwordFile: passwordFile)
        let expected: [(String, Double)] = [("gmail", 25 * 60), ("outlook", 25 * 60), ("yahoo", 4 * 60), ("icloud", 20 * 60), ("custom", 20 * 60)]
        for (provider, _) in expected { try register(provider, me, provider: provider) }
        for (provider, seconds) in expected {
            let engine = try SyncEngine(store: store, account: try XCTUnwrap(try views.account(named: provider)?.settings))
            XCTAssertEqual(SyncWatcher(engine: engine).idleRefresh, seconds, provider)
            XCTAssertEqual(SyncWatcher(engine: engine, idleRefresh: 15).idleRefresh, 15, provider)
            XCTAssertEqual(engine.poolLimits.maxConnections, 5, provider)
            XCTAssertEqual(engine.poolLimits.idleCloseSeconds, min(15 * 60, seconds), provider)
        }
        XCTAssertEqual(SyncEngine.connections.globalLimit, 30)
        XCTAssertEqual(SyncEngine.connections.queueTimeoutSeconds, 30)
    }

    /// A Gmail account whose All Mail carries no `\All` attribute (this user has no SPECIAL-USE): the provider's
    /// name map makes `[Gmail]/All Mail` the All Mail folder, and archive moves the Inbox copy there (it had been
    /// refused: "No All Mail folder (\All) is known for this Gmail account").
    func testGmailArchivesToAllMailFoundByNameWithoutSpecialUse() throws {
        let gmail = try newUser("nameall", layout: "plain")
        try populate(gmail, folders: ["[Gmail]/All Mail", "[Gmail]/Sent Mail"], inbox: 2)
        try register("gmail", gmail, provider: "gmail")
        _ = try SyncEngine(store: store, account: try XCTUnwrap(try views.account(named: "gmail")?.settings)).run()
        XCTAssertEqual(try roles("gmail")["[Gmail]/All Mail"], .all)
        let copy = try XCTUnwrap(try views.copies(account: "gmail", messageID: "\(gmail.name)-0@example.com").first)
        let thread = try XCTUnwrap(try views.emailRecord(id: copy.emailID)).threadID
        let action = try ManageThreadActionsUseCase(store: store).archiveThreads(ids: [thread])
        XCTAssertEqual(try views.action(id: action.description)?.destination, "[Gmail]/All Mail")
        XCTAssertEqual(try store.pushActions(for: action.description)?.applied, 1)
        let c = try login(gmail)
        defer { c.logout() }
        _ = try c.select(.inbox, readOnly: true)
        XCTAssertEqual(try c.uidSearch([.header("Message-ID", "\(gmail.name)-0@example.com")]), [], "out of the Inbox")
        _ = try c.select(MailboxName("[Gmail]/All Mail"), readOnly: true)
        XCTAssertEqual(try c.uidSearch([.header("Message-ID", "\(gmail.name)-0@example.com")]).count, 1, "in All Mail")
    }

    // MARK: - The pool with a real server

    /// Two accounts synced at once on two threads with a pool of 2: both hold a connection at the same time
    /// (each waits in its progress callback until the other is fetching too), neither limit is passed.
    func testTwoAccountsSyncConcurrentlyWithinThePoolsLimits() throws {
        let other = try newUser("second", layout: "plain")
        try populate(User(name: user, password: try String(contentsOfFile: passwordFile, encoding: .utf8), passwordFile: passwordFile),
                     folders: [], inbox: 12)
        try populate(other, folders: ["Sent Items"], inbox: 9)
        try addAccount()
        try register("second", other, provider: "outlook")
        let pool = ConnectionPool<IMAPConnection>(globalLimit: 2, queueTimeoutSeconds: 30)
        let both = DispatchGroup()
        both.enter()
        both.enter()
        let reports = try syncAtOnce(["test", "second"], pool: pool) { _ in
            both.leave()
            _ = both.wait(timeout: .now() + 20)
        }
        XCTAssertEqual(reports["test"]?.received, 12)
        XCTAssertEqual(reports["second"]?.received, 9)
        XCTAssertEqual(pool.peakInUse(), 2, "both accounts held a connection at once")
        XCTAssertEqual(pool.count().inUse, 0)
        XCTAssertEqual(pool.count().idle, 2, "released connections stay idle for reuse")
        XCTAssertEqual(pool.closeIdle(), 2)
    }

    /// A pool of 1 for two accounts: the second sync waits (queued, not failed) until the first gives its connection
    /// back; with a queue timeout shorter than the first sync it fails with the pool's error instead.
    func testASyncWaitsForTheGlobalLimitAndTimesOutClearly() throws {
        let other = try newUser("queued", layout: "plain")
        try populate(User(name: user, password: try String(contentsOfFile: passwordFile, encoding: .utf8), passwordFile: passwordFile),
                     folders: [], inbox: 5)
        try populate(other, folders: [], inbox: 4)
        try addAccount()
        try register("queued", other, provider: "yahoo")
        let pool = ConnectionPool<IMAPConnection>(globalLimit: 1, queueTimeoutSeconds: 30)
        let reports = try syncAtOnce(["test", "queued"], pool: pool) { _ in usleep(200_000) }
        XCTAssertEqual(reports["test"]?.received, 5)
        XCTAssertEqual(reports["queued"]?.received, 4)
        XCTAssertEqual(pool.peakInUse(), 1)
        pool.closeIdle()

        let impatient = ConnectionPool<IMAPConnection>(globalLimit: 1, queueTimeoutSeconds: 0.5)
        let holder = try SyncEngine(store: store, account: try XCTUnwrap(try views.account(named: "test")?.settings))
        holder.pool = impatient
        _ = try holder.syncAll()
        let waiter = try SyncEngine(store: store, account: try XCTUnwrap(try views.account(named: "queued")?.settings))
        waiter.pool = impatient
        XCTAssertThrowsError(try waiter.syncAll()) { error in
            guard case SyncError.connectionsBusy(let t) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(t.globalLimit, 1)
            XCTAssertTrue("\(error)".contains("try again"), "\(error)")
            XCTAssertEqual(ErrorCategory(of: error), .server)
        }
        holder.disconnect()
        _ = try waiter.syncAll()
        waiter.disconnect()
        impatient.closeIdle()
    }

    /// Runs one engine per account on its own thread, all with `pool`; `progress` is called on each engine's
    /// first progress report.
    private func syncAtOnce(_ names: [String], pool: ConnectionPool<IMAPConnection>,
                            progress: @escaping @Sendable (String) -> Void) throws -> [String: SyncReport] {
        let results = Locked<[String: Result<SyncReport, any Error>]>([:])
        let group = DispatchGroup()
        for name in names {
            let account = try XCTUnwrap(try views.account(named: name)?.settings)
            let engine = try SyncEngine(store: store, account: account)
            engine.pool = pool
            let started = Locked(false)
            engine.progress = { _, _, _ in
                if started.withLock({ s in defer { s = true }; return !s }) { progress(name) }
            }
            group.enter()
            let box = UncheckedBox(engine)
            Thread {
                defer { group.leave() }
                let r = Result { try box.value.run() }
                results.withLock { $0[name] = r }
            }.start()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 120), .success)
        return try results.withLock { $0 }.mapValues { try $0.get() }
    }

    // MARK: - IDLE refresh

    /// `sync --watch --idle-refresh 20`: IDLE is re-issued after 20 s, not before; a star queued meanwhile (on a
    /// message in Archive, so the Inbox under IDLE sees no change) and a draft saved meanwhile reach the server
    /// within seconds without the IDLE being left (no DONE before the refresh).
    func testWatchKeepsIdleForTheRefreshIntervalAndStillPushesActionsPromptly() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "r0", subject: "Inbox", parent: nil, flags: [])], via: c)
        try fill("Archive", [(id: "r1", subject: "Star me during IDLE", parent: nil, flags: [])], via: c)
        try addAccount()
        try sync()
        let emailID = try XCTUnwrap(try views.syncedCopies(account: accountName, folder: "Archive").values.first).emailID
        let thread = try XCTUnwrap(try views.emailRecord(id: emailID)).threadID
        views = nil
        store = nil
        let traceFile = dir.file("trace")
        XCTAssertTrue(FileManager.default.createFile(atPath: traceFile, contents: nil))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuiltProducts.executable("mailstore"))
        p.arguments = ["sync", "--watch", "--quiet", "--account", accountName, "--idle-refresh", "20", "--trace"]
        p.environment = environment
        p.standardOutput = FileHandle.nullDevice
        p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: traceFile))
        try p.run()
        defer {
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
        }
        func lines() -> [String] {
            (try? String(contentsOfFile: traceFile, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        }
        // Commands the client sent: "C: TAG IDLE", "C: DONE".
        func count(_ command: String) -> Int {
            lines().count { line in
                let words = line.split(separator: " ")
                return words.first == "C:" && (command == "DONE" ? words.count == 2 && words[1] == "DONE" : words.count == 3 && words[2] == command)
            }
        }
        var deadline = Date().addingTimeInterval(60)
        while count("IDLE") == 0 && Date() < deadline { usleep(100_000) }
        let idleStart = Date()
        XCTAssertEqual(count("IDLE"), 1, "in IDLE")
        try mailstore(["star", thread])
        let flagged = try waitForFlagged("Archive", via: c)
        let pushedAfter = Date().timeIntervalSince(idleStart)
        XCTAssertTrue(flagged, "the star was written back during IDLE")
        XCTAssertLessThan(pushedAfter, 9, "pushed within seconds, not at the refresh")
        try mailstore(["draft", "new", "--account", accountName, "--to", "bob@example.com", "--subject", "Saved while watching", "--body", "b"])
        var drafted = false
        deadline = Date().addingTimeInterval(30)
        while !drafted && Date() < deadline {
            drafted = try c.select(MailboxName("Drafts"), readOnly: true).exists == 1
            if !drafted { usleep(200_000) }
        }
        let draftedAfter = Date().timeIntervalSince(idleStart)
        XCTAssertTrue(drafted, "the draft reached Drafts during IDLE")
        XCTAssertLessThan(draftedAfter, 18, "pushed within seconds, not at the refresh")
        XCTAssertEqual(count("DONE"), 0, "both were pushed without leaving IDLE (after \(pushedAfter) and \(draftedAfter) s)")
        deadline = Date().addingTimeInterval(40)
        while count("DONE") == 0 && Date() < deadline { usleep(100_000) }
        let refreshedAfter = Date().timeIntervalSince(idleStart)
        XCTAssertEqual(count("DONE"), 1, "IDLE was ended for the refresh")
        XCTAssertGreaterThanOrEqual(refreshedAfter, 19, "not before the 20 s refresh")
        deadline = Date().addingTimeInterval(20)
        while count("IDLE") < 2 && Date() < deadline { usleep(100_000) }
        XCTAssertEqual(count("IDLE"), 2, "and re-issued: \(lines().filter { $0.hasPrefix("C: ") })")
    }
}

extension MultiProviderSyncTests {
    /// A watch whose pool has no room for a second connection (a global limit of 1) still writes a queued star back:
    /// it ends the IDLE and does the work on its own connection.
    func testAWatchWithNoRoomForASecondConnectionDoesTheWorkOutOfIdle() throws {
        let c = try server()
        defer { c.logout() }
        try fill("Archive", [(id: "n1", subject: "Star me with one connection", parent: nil, flags: [])], via: c)
        try addAccount()
        try sync()
        let emailID = try XCTUnwrap(try views.syncedCopies(account: accountName, folder: "Archive").values.first).emailID
        let thread = try XCTUnwrap(try views.emailRecord(id: emailID)).threadID
        let pool = ConnectionPool<IMAPConnection>(globalLimit: 1, queueTimeoutSeconds: 5)
        let engine = try SyncEngine(store: store, account: try XCTUnwrap(try views.account(named: accountName)?.settings))
        engine.pool = pool
        let watch = WatchRun(SyncWatcher(engine: engine, idleRefresh: 120, pollInterval: 1000))
        Thread.sleep(forTimeInterval: 3)
        try mailstore(["star", thread])
        let flagged = try waitForFlagged("Archive", via: c)
        XCTAssertTrue(watch.stop(), "the watch stopped")
        XCTAssertTrue(flagged, "the star was written back through the watch's own connection")
        XCTAssertNil(watch.failure.withLock { $0 })
        XCTAssertEqual(watch.retries.withLock { $0 }, 0, "no reconnect: the work was done out of IDLE, not after an error")
        XCTAssertEqual(pool.peakInUse(), 1, "never a second connection")
        engine.disconnect()
        pool.closeIdle()
    }
}

/// Hands a non-Sendable value to one other thread (the test does not touch it meanwhile).
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
