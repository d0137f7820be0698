import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import SecureTransport
import TestSupport
import XCTest

/// Setting an account up against the real Dovecot and SMTP test server: the four-step connection test
/// (AC-MP-06, AC-MP-09) through `account test` and `account add --test`.
final class AccountSetupTests: SyncTestCase {
    var smtp: SMTPServer!
    var bundle: String!

    override func setUpWithError() throws {
        try super.setUpWithError()
        (smtp, bundle) = try smtpWithCABundle()
    }

    /// `account add NAME` arguments for the test servers, with the IMAP and SMTP password files given.
    func addArgs(_ name: String, imapPassword: String, smtpPassword: String) -> [String] {
        ["account", "add", name, "--email", user, "--host", imap.host, "--port", String(imap.tlsPort), "--ca-file", bundle,
         "--password-file", imapPassword, "--smtp-host", smtp.host, "--smtp-port", String(smtp.submissionPort),
         "--smtp-username", smtp.user, "--smtp-password-file", smtpPassword]
    }

    func wrongPasswordFile() throws -> String {
        let path = dir.file("wrong-pw")
        try Data("not-the-password".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        return path
    }

    func testAddWithTestRecordsOnlyAnAccountThatPasses() throws {
        let good = try mailstore(addArgs("good", imapPassword: passwordFile, smtpPassword: smtp.passwordFile) + ["--test"])
        for step in ["imap-connect", "imap-auth", "smtp-connect", "smtp-auth"] {
            XCTAssertTrue(good.stdout.contains("ok      \(step)"), good.stdout)
        }
        XCTAssertTrue(good.stdout.contains("Added account good"), good.stdout)
        let wrong = try wrongPasswordFile()
        let bad = try mailstore(addArgs("bad", imapPassword: wrong, smtpPassword: smtp.passwordFile) + ["--test"], expect: 5)
        XCTAssertTrue(bad.stdout.contains("FAILED  imap-auth") && bad.stdout.contains("Invalid email or app password"), bad.stdout)
        XCTAssertTrue(bad.stderr.contains("was not added"), bad.stderr)
        XCTAssertFalse(bad.stdout.contains("not-the-password") || bad.stderr.contains("not-the-password"))
        let list = try mailstore(["account", "list"]).stdout
        XCTAssertTrue(list.contains("good\t") && !list.contains("bad\t"), list)
    }

    /// An account with no SMTP server (receiving only) is added with `--test` when IMAP passes, with the warning; it
    /// had never been added so (SMTP "skipped" failed the test). One whose SMTP is configured and fails is not.
    func testAddWithTestRecordsAReceiveOnlyAccountWithTheWarning() throws {
        let args = ["account", "add", "recv", "--email", user, "--host", imap.host, "--port", String(imap.tlsPort),
                    "--ca-file", bundle, "--password-file", passwordFile, "--test"].compactMap { $0 }
        let r = try mailstore(args)
        XCTAssertTrue(r.stdout.contains("ok      imap-auth") && r.stdout.contains("skipped smtp-connect"), r.stdout)
        XCTAssertTrue(r.stderr.contains("receiving works, but sending won't"), r.stderr)
        XCTAssertTrue(r.stdout.contains("Added account recv"), r.stdout)
        let failing = try mailstore(addArgs("sendfails", imapPassword: passwordFile, smtpPassword: try wrongPasswordFile()) + ["--test"], expect: 5)
        XCTAssertTrue(failing.stderr.contains("was not added"), failing.stderr)
    }

    func testAccountTestReportsEveryStepAndWarnsWhenOnlySendingFails() throws {
        try mailstore(addArgs("recv", imapPassword: passwordFile, smtpPassword: try wrongPasswordFile()))
        let r = try mailstore(["account", "test", "recv"], expect: 5)
        XCTAssertTrue(r.stdout.contains("ok      imap-auth") && r.stdout.contains("FAILED  smtp-auth"), r.stdout)
        XCTAssertTrue(r.stdout.contains("Invalid email or app password"), r.stdout)
        XCTAssertTrue(r.stderr.contains("receiving works, but sending won't"), r.stderr)
        let json = try mailstore(["account", "test", "recv", "--json"], expect: 5)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let checks = try XCTUnwrap(object["checks"] as? [[String: Any]])
        XCTAssertEqual(checks.map { $0["step"] as? String }, ["imap-connect", "imap-auth", "smtp-connect", "smtp-auth"])
        XCTAssertEqual(checks.map { $0["status"] as? String }, ["ok", "ok", "ok", "failed"])
        XCTAssertNotNil(object["warning"] as? String)
        try mailstore(["account", "test", "nope"], expect: 4)
    }

    func testAnUnreachableServerFailsTheConnectStepAndSkipsAuth() throws {
        try mailstore(["account", "add", "down", "--email", user, "--host", "127.0.0.1", "--port", "9", "--password-file", passwordFile])
        let r = try mailstore(["account", "test", "down"], expect: 5)
        XCTAssertTrue(r.stdout.contains("FAILED  imap-connect") && r.stdout.contains("skipped imap-auth"), r.stdout)
        XCTAssertTrue(r.stdout.contains("skipped smtp-connect"), r.stdout)
    }
}

/// Many accounts at once (FR-MPROV-14, AC-MP-13): `sync` runs every account and reports a failing one
/// without stopping the others; `sync --watch` watches every account. Real Dovecot.
final class ManyAccountsTests: SyncTestCase {
    /// Adds account `name` of a mailbox of its own (a second account of one mailbox is refused), its password from
    /// `password` (nil: its own, right one); returns the mailbox's login and password file.
    @discardableResult
    func add(_ name: String, password: String? = nil) throws -> (user: String, password: String, passwordFile: String) {
        let u = try imap.newUser("many")
        try mailstore(["account", "add", name, "--email", u.user, "--host", imap.host, "--port", String(imap.tlsPort),
                       "--ca-file", imap.caFile, "--password-file", password ?? u.passwordFile])
        return u
    }

    /// Puts one message in the Inbox of `u`.
    func deliver(_ id: String, _ subject: String, to u: (user: String, password: String, passwordFile: String)) throws {
        let c = try IMAPConnection.connect(ServerEndpoint(host: imap.host, port: imap.tlsPort, security: .tls, caFile: imap.caFile,
                                                          timeoutSeconds: 30))
        defer { c.logout() }
        try c.authenticate(username: u.user, credential: .password(u.password), mechanism: .plain)
        try fill("INBOX", [(id: id, subject: subject, parent: nil, flags: [])], via: c)
    }

    func copies(_ account: String) throws -> Int {
        try MailStore.open(at: dir.file("store"), readOnly: true).openViews().syncedCount(account: account, folder: "INBOX")
    }

    func testOneFailingAccountDoesNotStopTheOthers() throws {
        let wrong = dir.file("wrong-pw")
        try Data("not-the-password".utf8).write(to: URL(fileURLWithPath: wrong))
        chmod(wrong, 0o600)
        for (name, password) in [("a", nil), ("b", wrong), ("c", nil)] {
            try deliver("m1", "For everyone", to: try add(name, password: password))
        }
        let r = try mailstore(["sync"], expect: 5)
        XCTAssertTrue(r.stdout.contains("a: 1 new") && r.stdout.contains("c: 1 new"), r.stdout)
        XCTAssertTrue(r.stderr.contains("b: ") && r.stderr.contains("1 of 3 accounts failed: b"), r.stderr)
        XCTAssertEqual(try copies("a"), 1)
        XCTAssertEqual(try copies("c"), 1)
        XCTAssertEqual(try copies("b"), 0)
    }

    /// Accounts "a" and "c", each of a mailbox of its own, and `sync --watch` started on both.
    func watchTwo() throws -> (a: (user: String, password: String, passwordFile: String),
                               c: (user: String, password: String, passwordFile: String), watch: Process) {
        let a = try add("a")
        let c = try add("c")
        return (a, c, try startSync(["--watch", "--idle-refresh", "2"]))
    }

    func testWatchFollowsEveryAccount() throws {
        let (a, c, p) = try watchTwo()
        defer {
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
        }
        try deliver("w1", "While watching", to: a)
        try deliver("w1", "While watching", to: c)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, try copies("a") < 1 || copies("c") < 1 { usleep(200_000) }
        XCTAssertEqual(try copies("a"), 1, "account a got the message while watching")
        XCTAssertEqual(try copies("c"), 1, "account c got the message while watching")
    }

    /// An account removed (here by another process) while a watch follows it is no longer synced: its new mail is not
    /// fetched (nor notified); the other accounts are still watched. It had gone on syncing and posting banners.
    func testARemovedAccountIsNoLongerWatched() throws {
        let (a, c, p) = try watchTwo()
        defer {
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
        }
        try deliver("before", "Before", to: c)
        var deadline = Date().addingTimeInterval(60)
        while Date() < deadline, try copies("c") < 1 { usleep(200_000) }
        XCTAssertEqual(try copies("c"), 1)
        try mailstore(["account", "remove", "c"])
        usleep(4_000_000)
        try deliver("after", "After the removal", to: c)
        try deliver("after", "After the removal", to: a)
        deadline = Date().addingTimeInterval(60)
        while Date() < deadline, try copies("a") < 1 { usleep(200_000) }
        XCTAssertEqual(try copies("a"), 1, "a is still watched")
        usleep(4_000_000)
        XCTAssertEqual(try copies("c"), 1, "nothing more fetched for the removed account")
        XCTAssertTrue(p.isRunning, "the watch goes on for a")
    }
}
