import Foundation
import MailStore
import TestSupport
import XCTest

/// `sync --watch` through Tools/test-server/tcp-freeze-proxy in front of the test Dovecot: an IDLE connection that goes
/// silent (the server's process stuck, a NAT's dropped flow: the kernel still acknowledges) is found dead and replaced,
/// a dropped connection is said plainly ("...(the IDLE connection); reconnecting in 1 s", then "connected again"), and a
/// server frozen whole fails a poll within --timeout; through Tools/test-server/imap-fault-proxy `--deaf-idle`, an IDLE
/// the server stopped telling of new mail is issued again once a poll finds the mail.
final class WatchConnectionTests: SyncTestCase {
    private var proxy: Process?
    /// The watch ``startWatch(through:env:pollInterval:timeout:)`` started, killed at the test's end.
    private var watch: Process?

    override func tearDown() {
        if let watch {
            if watch.isRunning { kill(watch.processIdentifier, SIGKILL) }
            watch.waitUntilExit()
        }
        watch = nil
        stopPythonProxy(proxy)
        proxy = nil
        super.tearDown()
    }

    /// Which proxy a watch goes through.
    private enum Proxy {
        /// tcp-freeze-proxy: SIGUSR1 freezes the oldest quiet connection (`all`: every connection, and every later one).
        case freeze(all: Bool)
        /// imap-fault-proxy without faults, dropping the EXISTS and RECENT sent during IDLE (the IDLE commands counted in
        /// `proxy.idles`).
        case deafIdle
    }

    /// Starts `kind` in front of Dovecot's IMAPS port and returns its port.
    private func startProxy(_ kind: Proxy) throws -> Int {
        let started: (process: Process, port: Int)
        switch kind {
        case .freeze(let all):
            started = try startPythonProxy("tcp-freeze-proxy", ["--target-host", imap.host, "--target-port", "\(imap.tlsPort)",
                                                                "--frozen-file", dir.file("proxy.frozen")] + (all ? ["--freeze-all"] : []),
                                           what: "freeze proxy")
        case .deafIdle:
            started = try startPythonProxy("imap-fault-proxy", ["--dovecot", dovecot.dir, "--rate", "0", "--deaf-idle",
                                                                "--idle-file", dir.file("proxy.idles")], what: "fault proxy")
        }
        proxy = started.process
        return started.port
    }

    /// The account through the proxy, then a watch of it (stderr to `watch.err`) with `env`, polling every `pollInterval`
    /// seconds (an hour: only the IDLE connection brings new Inbox mail); the Inbox holds one message.
    private func startWatch(through kind: Proxy = .freeze(all: false), env: [String: String] = [:], pollInterval: Int = 3600,
                            timeout: Int = 3) throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "c0", subject: "Before", parent: nil, flags: [])], via: c)
        views = nil
        store = nil
        let port = try startProxy(kind)
        try mailstore(["account", "add", accountName, "--email", user!, "--host", imap.host, "--port", "\(port)",
                       "--security", "tls", "--password-file", passwordFile!, "--ca-file", imap.caFile])
        XCTAssertTrue(FileManager.default.createFile(atPath: dir.file("watch.err"), contents: nil))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuiltProducts.executable("mailstore"))
        p.arguments = ["sync", "--quiet", "--watch", "--account", accountName, "--poll-interval", "\(pollInterval)",
                       "--timeout", "\(timeout)"]
        p.environment = environment.merging(env) { _, b in b }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("watch.err")))
        try p.run()
        watch = p
        XCTAssertTrue(try waitForInbox(1), "the watch's first sync")
    }

    /// Waits up to 60 s for the store's Inbox to hold `count` copies.
    private func waitForInbox(_ count: Int) throws -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let s = try MailStore.open(at: dir.file("store"), readOnly: true)
            if try s.openViews().syncedCount(account: accountName, folder: "INBOX") >= count { return true }
            usleep(200_000)
        }
        return false
    }

    /// Waits up to `seconds` for the watch's stderr to hold `text`; its stderr.
    private func waitForStderr(_ text: String, seconds: Double = 30) -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var err = ""
        while Date() < deadline {
            err = (try? String(contentsOfFile: dir.file("watch.err"), encoding: .utf8)) ?? ""
            if err.contains(text) { break }
            usleep(200_000)
        }
        return err
    }

    /// The IDLE commands the deaf-IDLE proxy saw, after waiting up to 30 s for at least `atLeast`.
    private func idles(atLeast: Int) -> Int {
        let deadline = Date().addingTimeInterval(30)
        var n = 0
        while Date() < deadline {
            n = (try? String(contentsOfFile: dir.file("proxy.idles"), encoding: .utf8))
                .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
            if n >= atLeast { break }
            usleep(200_000)
        }
        return n
    }

    /// Waits up to 30 s for the freeze proxy to say what it froze; what it said.
    private func frozen() -> String? {
        var frozen: String?
        for _ in 0..<300 where frozen == nil {
            frozen = try? String(contentsOfFile: dir.file("proxy.frozen"), encoding: .utf8)
            if frozen == nil { usleep(100_000) }
        }
        return frozen
    }

    private func deliver(_ id: String) throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: id, subject: "After", parent: nil, flags: [])], via: c)
    }

    /// The IDLE connection frozen (nothing forwarded either way, the flow kept up, as a stuck server process or a NAT
    /// that dropped it silently): the watch's IDLE probe (every 4 s here, by the test hook; 5 min by default) gets no
    /// answer to its DONE within --timeout, drops the connection, reconnects, and the message delivered meanwhile
    /// arrives. Without the probe it waited for the IDLE's refresh (20 min here) or the poll (an hour here).
    func testAFrozenIdleConnectionIsReplacedAndNewMailArrives() throws {
        try startWatch(env: ["MAILSTORE_IDLE_PROBE_SECONDS": "4"])
        let proxy = try XCTUnwrap(proxy)
        kill(proxy.processIdentifier, SIGUSR1)
        XCTAssertEqual(frozen(), "1\n", "the watch's first connection, its IDLE, frozen")
        try deliver("c1")
        XCTAssertTrue(try waitForInbox(2), "the message delivered after the IDLE connection froze reached the store")
    }

    /// The IDLE connection dropped: one warning that says what failed and on which connection, without telling the user
    /// to reconnect (the watch does), then a line once it is connected again.
    func testADroppedIdleConnectionIsSaidPlainlyAndItsRecoveryToo() throws {
        try startWatch()
        // In IDLE by now: the first sync and the Inbox's EXAMINE after it take well under this.
        Thread.sleep(forTimeInterval: 2)
        let proxy = try XCTUnwrap(proxy)
        kill(proxy.processIdentifier, SIGUSR2)
        let err = waitForStderr("connected again after")
        XCTAssertTrue(err.contains("mailstore: warning: \(accountName): IMAP: "), err)
        XCTAssertTrue(err.contains("(the IDLE connection); reconnecting in 1 s\n"), err)
        XCTAssertFalse(err.contains("reconnect to retry"), err)
        XCTAssertFalse(err.contains(".;"), err)
        XCTAssertTrue(err.contains("\(accountName): connected again after "), err)
        try deliver("c1")
        XCTAssertTrue(try waitForInbox(2), "the watch goes on after the drop")
    }

    /// A server that stopped telling the IDLE connection of new mail (the proxy drops the EXISTS and RECENT sent during
    /// IDLE): the poll (every 3 s here) brings each message, and the IDLE that was not told of it is ended and issued
    /// again within 5 s, said once on stderr for the watch. It had been left waiting for the 5-min check (the IDLE's
    /// refresh, 20 min, here), new Inbox mail only brought by the polls meanwhile.
    func testAnIdleThatMissedInboxMailAPollFoundIsIssuedAgainAndSaidOnce() throws {
        try startWatch(through: .deafIdle, pollInterval: 3)
        XCTAssertEqual(idles(atLeast: 1), 1, "the watch's IDLE")
        try deliver("c1")
        XCTAssertTrue(try waitForInbox(2), "the poll brought the message the IDLE was not told of")
        let warning = "mailstore: warning: \(accountName): a poll found new Inbox mail the IDLE was not told of (the IDLE connection); "
        let err = waitForStderr(warning)
        XCTAssertTrue(err.contains(warning), err)
        XCTAssertGreaterThanOrEqual(idles(atLeast: 2), 2, "the IDLE was issued again")
        try deliver("c2")
        XCTAssertTrue(try waitForInbox(3), "the next poll brought the next message")
        XCTAssertGreaterThanOrEqual(idles(atLeast: 3), 3, "the IDLE was issued again after that poll too")
        let after = (try? String(contentsOfFile: dir.file("watch.err"), encoding: .utf8)) ?? ""
        XCTAssertEqual(after.components(separatedBy: warning).count - 1, 1, "said once: \(after)")
    }

    /// The server frozen whole (every connection, and every later one, as a stopped server process whose kernel still
    /// takes connections) while the watch polls every second: the poll's wait ends at --timeout (8 s here) and the IDLE
    /// connection is dropped without waiting for its DONE, so the failure is told before twice --timeout after the
    /// freeze (about --timeout, plus the wait for the next poll, at most 1 s); it had been told after the poll's wait
    /// and then the DONE's, twice --timeout and more. (A poll on a connection left idle, whose probe the frozen server
    /// leaves unanswered, opens no new connection after it: ``ConnectionPoolTests``.)
    func testAServerFrozenWholeFailsAPollWithinTheTimeout() throws {
        let timeout = 8.0
        try startWatch(through: .freeze(all: true), pollInterval: 1, timeout: Int(timeout))
        // Polls going on by now (the first at 1 s into the IDLE).
        Thread.sleep(forTimeInterval: 3)
        let proxy = try XCTUnwrap(proxy)
        kill(proxy.processIdentifier, SIGUSR1)
        XCTAssertEqual(frozen(), "all\n", "every connection frozen")
        let frozenAt = Date()
        let told = "(the second connection, for polls and write-backs); reconnecting in 1 s"
        let err = waitForStderr(told, seconds: 4 * timeout)
        let elapsed = Date().timeIntervalSince(frozenAt)
        XCTAssertTrue(err.contains(told), err)
        XCTAssertLessThan(elapsed, 2 * timeout, "the poll's failure told before twice --timeout: \(err)")
    }
}
