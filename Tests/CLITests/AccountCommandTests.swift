import Foundation
import TestSupport
import XCTest

/// `mailstore account add|list|remove`: settings checked, secrets never stored or shown.
final class AccountCommandTests: CLITestCase {
    private let secret = "s3cr3t-p@ss!#"

    private func passwordFile(mode: mode_t = 0o600) throws -> String {
        let path = dir.file("pw")
        try Data(secret.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, mode)
        return path
    }

    func testAddListRemoveKeepsTheSecretOut() throws {
        try mailstore("init")
        let pw = try passwordFile()
        let added = try mailstore("account", "add", "work", "--email", "me@example.com", "--host", "imap.example.com",
                                  "--security", "starttls", "--password-file", pw)
        XCTAssertTrue(added.stdout.contains("starttls imap.example.com:143"), added.stdout)
        try mailstore("account", "add", "gmail", "--email", "me@gmail.com", "--host", "imap.gmail.com", "--security", "tls",
                      "--password-command", "echo token")
        let list = try mailstore("account", "list")
        XCTAssertTrue(list.stdout.contains("work\tme@example.com\tstarttls://imap.example.com:143\tcustom\tplain"), list.stdout)
        XCTAssertTrue(list.stdout.contains("gmail\tme@gmail.com\ttls://imap.gmail.com:993\tgmail\txoauth2"), list.stdout)
        let view = try mailstore("project", "--view", "accounts")
        XCTAssertTrue(view.stdout.contains("work") && view.stdout.contains("starttls://imap.example.com:143"), view.stdout)
        let sync = try mailstore("project", "--view", "sync", "--account", "work")
        XCTAssertTrue(sync.stdout.contains("uidvalidity"), sync.stdout)
        let json = try mailstore("account", "list", "--json")
        XCTAssertEqual(json.stdout.split(separator: "\n").count, 2)
        let log = try mailstore("log", "--json")
        XCTAssertTrue(log.stdout.contains("AccountAdded"))
        for output in [added.stdout, list.stdout, json.stdout, log.stdout] {
            XCTAssertFalse(output.contains(secret), "the secret leaked into output")
        }
        let files = try ChildProcess.run("/bin/grep", ["-r", "-l", "-F", secret, store])
        XCTAssertEqual(files.stdout, "", "the secret is in a store file")
        try mailstore("account", "remove", "work")
        XCTAssertFalse(try mailstore("account", "list").stdout.contains("work\t"))
        // The name is free again.
        try mailstore("account", "add", "work", "--email", "me@example.com", "--host", "imap.example.com",
                      "--security", "tls", "--password-env", "WORK_PW")
    }

    func testBadSettingsAreRefusedWithTheReason() throws {
        try mailstore("init")
        let open = try passwordFile(mode: 0o644)
        let r = try mailstore("account", "add", "a", "--email", "me@example.com", "--host", "h.example.com", "--security", "tls",
                              "--password-file", open, expect: 6)
        XCTAssertTrue(r.stderr.contains("chmod 600"), r.stderr)
        let plain = try mailstore("account", "add", "a", "--email", "me@example.com", "--host", "h.example.com",
                                  "--security", "none", "--password-env", "X", expect: 6)
        XCTAssertTrue(plain.stderr.contains("tls or starttls"), plain.stderr)
        try mailstore("account", "add", "a", "--email", "nobody", "--host", "h", "--security", "tls", "--password-env", "X", expect: 6)
        try mailstore("account", "add", "a", "--email", "me@example.com", "--host", "h", "--security", "tls", expect: 64)
        try mailstore("account", "add", "a", "--email", "me@example.com", "--host", "h", "--security", "tls",
                      "--password-env", "X", "--password-command", "true", expect: 64)
        try mailstore("account", "add", "a", "--email", "me@example.com", "--host", "h", "--security", "tls", "--password-env", "X")
        let dup = try mailstore("account", "add", "a", "--email", "me@example.com", "--host", "h", "--security", "tls",
                                "--password-env", "X", expect: 6)
        XCTAssertTrue(dup.stderr.contains("exists already"), dup.stderr)
        try mailstore("account", "remove", "nope", expect: 4)
    }

    func testSyncWithoutAccountsSaysWhatToDo() throws {
        try mailstore("init")
        let r = try mailstore("sync", expect: 4)
        XCTAssertTrue(r.stderr.contains("mailstore account add"), r.stderr)
        try mailstore("sync", "--account", "nope", expect: 4)
    }
}
