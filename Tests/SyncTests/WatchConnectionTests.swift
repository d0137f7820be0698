import Foundation
import MailStore
import TestSupport
import XCTest

/// `sync --watch` through Tools/test-server/tcp-freeze-proxy in front of the test Dovecot: an IDLE connection that goes
/// silent (the server's process stuck, a NAT's dropped flow: the kernel still acknowledges) is found dead and replaced,
/// and a dropped connection is said plainly ("...(the IDLE connection); reconnecting in 1 s", then "connected again").
final class WatchConnectionTests: SyncTestCase {
    private var proxy: Process?

    override func tearDown() {
        stopPythonProxy(proxy)
        proxy = nil
        super.tearDown()
    }

    /// Starts the proxy in front of Dovecot's IMAPS port and returns its port.
    private func startProxy() throws -> Int {
        let started = try startPythonProxy("tcp-freeze-proxy", ["--target-host", imap.host, "--target-port", "\(imap.tlsPort)",
                                                                 "--frozen-file", dir.file("proxy.frozen")], what: "freeze proxy")
        proxy = started.process
        return started.port
    }

    /// The account through the proxy, then a watch of it (stderr to `watch.err`) with `env`; the Inbox holds one message.
    private func startWatch(env: [String: String] = [:]) throws -> Process {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "c0", subject: "Before", parent: nil, flags: [])], via: c)
        views = nil
        store = nil
        let port = try startProxy()
        try mailstore(["account", "add", accountName, "--email", user!, "--host", imap.host, "--port", "\(port)",
                       "--security", "tls", "--password-file", passwordFile!, "--ca-file", imap.caFile])
        XCTAssertTrue(FileManager.default.createFile(atPath: dir.file("watch.err"), contents: nil))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuiltProducts.executable("mailstore"))
        // No poll for the test's length: only the IDLE connection brings new Inbox mail.
        p.arguments = ["sync", "--quiet", "--watch", "--account", accountName, "--poll-interval", "3600", "--timeout", "3"]
        p.environment = environment.merging(env) { _, b in b }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("watch.err")))
        try p.run()
        XCTAssertTrue(try waitForInbox(1), "the watch's first sync")
        return p
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

    /// Waits up to 30 s for the watch's stderr to hold `text`; its stderr.
    private func waitForStderr(_ text: String) -> String {
        let deadline = Date().addingTimeInterval(30)
        var err = ""
        while Date() < deadline {
            err = (try? String(contentsOfFile: dir.file("watch.err"), encoding: .utf8)) ?? ""
            if err.contains(text) { break }
            usleep(200_000)
        }
        return err
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
        let p = try startWatch(env: ["MAILSTORE_IDLE_PROBE_SECONDS": "4"])
        defer {
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
        }
        let proxy = try XCTUnwrap(proxy)
        kill(proxy.processIdentifier, SIGUSR1)
        var frozen: String?
        for _ in 0..<300 where frozen == nil {
            frozen = try? String(contentsOfFile: dir.file("proxy.frozen"), encoding: .utf8)
            if frozen == nil { usleep(100_000) }
        }
        XCTAssertEqual(frozen, "1\n", "the watch's first connection, its IDLE, frozen")
        try deliver("c1")
        XCTAssertTrue(try waitForInbox(2), "the message delivered after the IDLE connection froze reached the store")
    }

    /// The IDLE connection dropped: one warning that says what failed and on which connection, without telling the user
    /// to reconnect (the watch does), then a line once it is connected again.
    func testADroppedIdleConnectionIsSaidPlainlyAndItsRecoveryToo() throws {
        let p = try startWatch()
        defer {
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
        }
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
}
