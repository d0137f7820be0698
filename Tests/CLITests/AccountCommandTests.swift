import Foundation
import MailStore
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
        let nobody = try mailstore("account", "add", "a", "--email", "nobody", "--host", "h", "--security", "tls", "--password-env", "X",
                                   expect: 64)
        XCTAssertTrue(nobody.stderr.contains("LOCAL@DOMAIN"), nobody.stderr)
        try mailstore("account", "add", "a", "--email", "me@example.com", "--host", "h", "--security", "tls", expect: 64)
        try mailstore("account", "add", "a", "--email", "me@example.com", "--host", "h", "--security", "tls",
                      "--password-env", "X", "--password-command", "true", expect: 64)
        try mailstore("account", "add", "a", "--email", "me@example.com", "--host", "h", "--security", "tls", "--password-env", "X")
        let dup = try mailstore("account", "add", "a", "--email", "me@example.com", "--host", "h", "--security", "tls",
                                "--password-env", "X", expect: 6)
        XCTAssertTrue(dup.stderr.contains("exists already"), dup.stderr)
        try mailstore("account", "remove", "nope", expect: 4)
    }

    /// Control and format characters (bidi controls, zero-width characters) in a host name or an address are
    /// refused with the character named, like any other character no host name holds.
    func testControlAndFormatCharactersInHostsAndAddressesAreRefused() throws {
        try mailstore("init")
        let pw = try passwordFile()
        for host in ["h\u{202E}.example", "h\u{200B}.example", "h.example\u{1B}[2J", "h\u{2066}.example"] {
            let r = try mailstore("account", "add", "a", "--email", "me@example.com", "--host", host, "--password-file", pw, expect: 6)
            XCTAssertTrue(r.stderr.contains("control or format character"), r.stderr)
            let smtp = try mailstore("account", "add", "a", "--email", "me@example.com", "--host", "h.example", "--smtp-host", host,
                                     "--password-file", pw, expect: 6)
            XCTAssertTrue(smtp.stderr.contains("--smtp-host"), smtp.stderr)
        }
        for email in ["a\u{202E}@example.com", "a\u{200D}b@example.com", "a\u{7}@example.com", "a b@example.com",
                      "a@exam\u{202E}ple.com"] {
            let r = try mailstore("account", "add", "a", "--email", email, "--host", "h.example", "--password-file", pw, expect: 64)
            XCTAssertTrue(r.stderr.contains("U+"), r.stderr)
        }
        XCTAssertEqual(try mailstore("account", "list").stdout, "No accounts. Add one with `mailstore account add`.\n")
    }

    /// AC-MP-01, E-22: a known provider needs no server settings; ProtonMail and unknown domains say what to do.
    /// A password file is read no further than a secret can be (64 KiB): a bigger one is refused when the
    /// secret is needed, with why, and nothing is sent.
    func testAPasswordFileOverTheBoundIsRefused() throws {
        try mailstore("init")
        let big = dir.file("big-pw")
        try Data(repeating: UInt8(ascii: "a"), count: (64 << 10) + 1).write(to: URL(fileURLWithPath: big))
        chmod(big, 0o600)
        try mailstore("account", "add", "a", "--email", "me@example.com", "--host", "127.0.0.1", "--port", "9",
                      "--security", "tls", "--password-file", big)
        let r = try mailstore("sync", expect: 6)
        XCTAssertTrue(r.stderr.contains("is over 65536 bytes: not a password file"), r.stderr)
    }

    func testRegistryFillsServersFromTheEmailDomain() throws {
        try mailstore("init")
        let pw = try passwordFile()
        let yahoo = try mailstore("account", "add", "work", "--email", "bob@yahoo.com", "--password-file", pw)
        XCTAssertTrue(yahoo.stdout.contains("tls imap.mail.yahoo.com:993, provider yahoo, auth plain, SMTP tls smtp.mail.yahoo.com:465"),
                      yahoo.stdout)
        let icloud = try mailstore("account", "add", "home", "--email", "bob@me.com", "--password-file", pw)
        XCTAssertTrue(icloud.stdout.contains("imap.mail.me.com:993, provider icloud, auth plain, SMTP starttls smtp.mail.me.com:587"),
                      icloud.stdout)
        let gmail = try mailstore("account", "add", "g", "--email", "bob@googlemail.com", "--password-command", "echo t")
        XCTAssertTrue(gmail.stdout.contains("imap.gmail.com:993, provider gmail, auth xoauth2"), gmail.stdout)
        let proton = try mailstore("account", "add", "p", "--email", "bob@protonmail.com", "--password-file", pw, expect: 6)
        XCTAssertTrue(proton.stderr.contains("ProtonMail requires their Bridge app"), proton.stderr)
        // Discovery finds nothing here (no autoconfig server, the resolver's port closed).
        setenv("MAILSTORE_AUTOCONFIG_URL", "http://127.0.0.1:9/", 1)
        setenv("MAILSTORE_DNS_SERVER", "127.0.0.1:9", 1)
        defer {
            unsetenv("MAILSTORE_AUTOCONFIG_URL")
            unsetenv("MAILSTORE_DNS_SERVER")
        }
        let unknown = try mailstore("account", "add", "u", "--email", "bob@example.org", "--password-file", pw, expect: 6)
        XCTAssertTrue(unknown.stderr.contains("--host"), unknown.stderr)
        // Manual setup defaults to 993/TLS and 587/STARTTLS (AC-MP-09).
        let manual = try mailstore("account", "add", "m", "--email", "bob@example.org", "--host", "imap.example.org",
                                   "--smtp-host", "smtp.example.org", "--password-file", pw)
        XCTAssertTrue(manual.stdout.contains("tls imap.example.org:993") && manual.stdout.contains("SMTP starttls smtp.example.org:587"),
                      manual.stdout)
    }

    /// `--display-name`: recorded with the account, shown by `account list` (text and JSON) and `history`;
    /// a name on more than one line is refused.
    func testDisplayNameIsRecordedAndListed() throws {
        try mailstore("init")
        let pw = try passwordFile()
        try mailstore("account", "add", "named", "--email", "bob@example.org", "--host", "imap.example.org",
                      "--display-name", "Bob Exämple", "--password-file", pw)
        try mailstore("account", "add", "plain", "--email", "carol@example.org", "--host", "imap.example.org", "--password-file", pw)
        let list = try mailstore("account", "list").stdout
        XCTAssertTrue(list.contains("named\tBob Exämple <bob@example.org>\t"), list)
        XCTAssertTrue(list.contains("plain\tcarol@example.org\t"), list)
        let json = try mailstore("account", "list", "--json").stdout.split(separator: "\n")
        let named = try XCTUnwrap(try json.compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .first { $0["name"] as? String == "named" })
        XCTAssertEqual(named["displayName"] as? String, "Bob Exämple")
        XCTAssertTrue(try mailstore("history", "--account", "named").stdout.contains("named \"Bob Exämple\" <bob@example.org>"))
        let bad = try mailstore("account", "add", "bad", "--email", "bob@example.org", "--host", "imap.example.org",
                                "--display-name", "Bob\r\nBcc: eve@example.org", "--password-file", pw, expect: 6)
        XCTAssertTrue(bad.stderr.contains("--display-name"), bad.stderr)
        try mailstore("account", "add", "blank", "--email", "bob@example.org", "--host", "imap.example.org",
                      "--display-name", "  ", "--password-file", pw, expect: 6)
    }

    /// `--provider`: a server reached under another host name is taken for the provider declared (recorded, listed,
    /// its default mechanism); without it the host decides; an unknown id is refused.
    func testAProviderDeclaredForAnotherHostIsRecorded() throws {
        try mailstore("init")
        let pw = try passwordFile()
        try mailstore("account", "add", "tunnel", "--email", "me@gmail.com", "--host", "127.0.0.1", "--port", "10993",
                      "--provider", "gmail", "--password-file", pw)
        try mailstore("account", "add", "plainhost", "--email", "me2@gmail.com", "--host", "127.0.0.1", "--port", "10994",
                      "--password-file", pw)
        try mailstore("account", "add", "declared", "--email", "me3@example.org", "--host", "imap.gmail.com",
                      "--provider", "custom", "--auth", "plain", "--password-file", pw)
        let list = try mailstore("account", "list").stdout
        XCTAssertTrue(list.contains("tunnel\tme@gmail.com\ttls://127.0.0.1:10993\tgmail\txoauth2"), list)
        XCTAssertTrue(list.contains("plainhost\tme2@gmail.com\ttls://127.0.0.1:10994\tcustom\tplain"), list)
        XCTAssertTrue(list.contains("declared\tme3@example.org\ttls://imap.gmail.com:993\tcustom\tplain"), list)
        let bad = try mailstore("account", "add", "bad", "--email", "me4@example.org", "--host", "127.0.0.1",
                                "--provider", "hotmail", "--password-file", pw, expect: 64)
        XCTAssertTrue(bad.stderr.contains("--provider is gmail, outlook, yahoo, icloud, custom"), bad.stderr)
    }

    func testSyncWithoutAccountsSaysWhatToDo() throws {
        try mailstore("init")
        let r = try mailstore("sync", expect: 4)
        XCTAssertTrue(r.stderr.contains("mailstore account add"), r.stderr)
        try mailstore("sync", "--account", "nope", expect: 4)
    }

    /// A --password-command (and --smtp-password-command) whose program is a relative path is recorded by its
    /// absolute path, as the directory the account was added from has it (quoted when that holds a space), so the
    /// secret is read from any directory; a program on PATH stays as written; a relative one holding shell syntax
    /// is refused with what to do.
    func testARelativePasswordCommandIsRecordedByItsAbsolutePath() throws {
        try mailstore("init")
        let work = dir.file("my dir")
        try FileManager.default.createDirectory(atPath: work + "/bin", withIntermediateDirectories: true)
        for (script, prefix) in [("getpw.sh", "pw"), ("bin/smtppw", "smtp")] {
            try Data("#!/bin/sh\necho \"\(prefix)-$1\"\n".utf8).write(to: URL(fileURLWithPath: work + "/" + script))
            chmod(work + "/" + script, 0o755)
        }
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        /// `mailstore ARGS` run from `work`.
        func fromWork(_ args: [String]) throws -> ChildProcess.Result {
            try ChildProcess.run("/bin/sh", ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", work, BuiltProducts.executable("mailstore")] + args,
                                 environment: env)
        }
        let added = try fromWork(["account", "add", "rel", "--email", "me@example.com", "--host", "imap.example.com",
                                  "--password-command", "./getpw.sh alice", "--smtp-host", "smtp.example.com",
                                  "--smtp-password-command", "bin/smtppw bob"])
        XCTAssertEqual(added.status, 0, added.stderr)
        let line = try mailstore("account", "list", "--json").stdout
        let account = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(account["credentialSource"] as? String, "command:'\(work)/getpw.sh' alice")
        XCTAssertEqual(account["smtpCredentialSource"] as? String, "command:'\(work)/bin/smtppw' bob")
        // Read from this process's directory, not the one the account was added from.
        XCTAssertNotEqual(FileManager.default.currentDirectoryPath, work)
        XCTAssertEqual(try CredentialSource(stored: account["credentialSource"] as? String ?? "")?.secret(), "pw-alice")
        XCTAssertEqual(try CredentialSource(stored: account["smtpCredentialSource"] as? String ?? "")?.secret(), "smtp-bob")
        // A program on PATH, from /, ~ or a variable stays as written.
        for (name, command) in [("p1", "echo token"), ("p2", "/bin/echo token"), ("p3", "~/bin/pw"), ("p4", "$HOME/bin/pw x")] {
            XCTAssertEqual(try fromWork(["account", "add", name, "--email", "\(name)@example.com", "--host", "imap.example.com",
                                         "--password-command", command]).status, 0)
        }
        let list = try mailstore("account", "list").stdout
        for command in ["command:echo token", "command:/bin/echo token", "command:~/bin/pw", "command:$HOME/bin/pw x"] {
            XCTAssertTrue(list.contains("secret from \(command)\n"), "\(command): \(list)")
        }
        let quoted = try fromWork(["account", "add", "q", "--email", "q@example.com", "--host", "imap.example.com",
                                   "--password-command", "\"./get pw.sh\""])
        XCTAssertEqual(quoted.status, 6, quoted.stderr)
        XCTAssertTrue(quoted.stderr.contains("--password-command starts with \"\"./get\"") && quoted.stderr.contains("give the program's absolute path"),
                      quoted.stderr)
    }
}
