import Foundation
import TestSupport
import XCTest

/// An account's name and mailbox are its identity: a name once used for another mailbox, a name holding imported mail,
/// a name differing from another only by case, width or Unicode form, and a second account of the same mailbox are
/// refused (the store files sync state, drafts and pending actions by the name: a new mailbox under an old name had the
/// old account's star applied to its own messages); a removed account's mail takes no action.
final class AccountIdentityTests: CLITestCase {
    /// `account add NAME --email LOGIN --host HOST` (a server never reached; the password in a 0600 file).
    @discardableResult
    func add(_ name: String, _ login: String, host: String = "imap.example.com", expect status: Int32 = 0,
             file: StaticString = #filePath, line: UInt = #line) throws -> ChildProcess.Result {
        let pw = dir.file("pw")
        if !FileManager.default.fileExists(atPath: pw) {
            try Data("secret".utf8).write(to: URL(fileURLWithPath: pw))
            chmod(pw, 0o600)
        }
        return try mailstore(["account", "add", name, "--email", login, "--host", host, "--security", "tls", "--password-file", pw],
                             expect: status, file: file, line: line)
    }

    func testANameOnceAnotherMailboxsIsRefusedAndTheSameMailboxGoesOn() throws {
        try mailstore("init")
        // A name removed before anything was filed under it (a mistyped host) is free.
        try add("work", "carol@example.com", host: "imap.exmaple.com")
        try mailstore("account", "remove", "work")
        try add("work", "carol@example.com")
        // Mail filed under it (imported here, as a sync files it), then removed: the name is the mailbox's.
        let mbox = dir.file("in.mbox")
        try Data(DiskFullTests.mbox(count: 2).utf8).write(to: URL(fileURLWithPath: mbox))
        try fileAsSynced(mbox: mbox, account: "work")
        try mailstore("account", "remove", "work")
        let other = try add("work", "dan@example.com", expect: 6)
        XCTAssertTrue(other.stderr.contains("was the account of carol@example.com on imap.example.com")
                      && other.stderr.contains("choose another name"), other.stderr)
        let otherHost = try add("work", "carol@example.com", host: "imap.elsewhere.example", expect: 6)
        XCTAssertTrue(otherHost.stderr.contains("was the account of carol@example.com"), otherHost.stderr)
        // The same mailbox again (the host and login in another case): it goes on where it was.
        try add("work", "Carol@example.com", host: "IMAP.example.com")
        try mailstore("account", "remove", "work")
        try add("work2", "dan@example.com")
    }

    func testASecondAccountOfTheSameMailboxIsRefused() throws {
        try mailstore("init")
        try add("alice", "alice@example.com")
        let twin = try add("alice2", "ALICE@example.com", expect: 6)
        XCTAssertTrue(twin.stderr.contains("the account \"alice\" reads this mailbox already"), twin.stderr)
        try add("alice-other", "alice@example.com", host: "imap.other.example")
    }

    func testNamesTooLikeAnotherOrNotComposedAreRefused() throws {
        try mailstore("init")
        try add("alice", "alice@example.com")
        for like in ["Alice", "ALICE", "\u{FF21}\u{FF2C}\u{FF29}\u{FF23}\u{FF25}"] {  // the last one full-width
            let r = try add(like, "bob@example.com", expect: 6)
            XCTAssertTrue(r.stderr.contains("too like the account name \"alice\""), "\(like): \(r.stderr)")
        }
        try add("caf\u{E9}", "c1@example.com")
        let nfd = try add("cafe\u{301}", "c2@example.com", expect: 6)
        XCTAssertTrue(nfd.stderr.contains("composed form (NFC)"), nfd.stderr)
        // Bytes, not characters: 62 lambdas are 124 bytes; one letter with 2,000 combining accents, 4,001 bytes.
        let long = try add(String(repeating: "\u{3BB}", count: 62), "l@example.com", expect: 6)
        XCTAssertTrue(long.stderr.contains("1-64 bytes") && long.stderr.contains("124 bytes"), long.stderr)
        // (Refused before parsing since 2026-12-07, as any argument with a character of over 256 scalars.)
        let marks = try add("a" + String(repeating: "\u{301}", count: 2_000), "m@example.com", expect: 64)
        XCTAssertLessThan(marks.stderr.utf8.count, 1_000, "the name is not shown whole: \(marks.stderr.prefix(300))")
        XCTAssertTrue(marks.stderr.contains("2000 combining marks"), marks.stderr)
        let fewer = try add("a" + String(repeating: "\u{301}", count: 200), "m@example.com", expect: 6)
        XCTAssertLessThan(fewer.stderr.utf8.count, 1_000, "the name is shown cut: \(fewer.stderr.prefix(300))")
        for odd in [".", "..", "_x", "\u{301}a"] {
            let r = try add(odd, "o@example.com", expect: 6)
            XCTAssertTrue(r.stderr.contains("starting with a letter or digit"), "\(odd): \(r.stderr)")
        }
        try add("\u{3BB}-work", "lw@example.com")
    }

    /// The twin of the refusal above: an import under a server account's name (configured now or once), or a name like
    /// a known one, is refused before anything is filed; mail of its own name goes in.
    func testAnImportUnderAServerAccountsNameIsRefused() throws {
        try mailstore("init")
        let mbox = dir.file("in.mbox")
        try Data(DiskFullTests.mbox(count: 2).utf8).write(to: URL(fileURLWithPath: mbox))
        try add("frank", "frank@example.com")
        let into = try mailstore("import", "--mbox", mbox, "--account", "frank", "--quiet", expect: 6)
        XCTAssertTrue(into.stderr.contains("\"frank\" is an IMAP account") && into.stderr.contains("frank-archive"), into.stderr)
        let like = try mailstore("import", "--mbox", mbox, "--account", "Frank", "--quiet", expect: 6)
        XCTAssertTrue(like.stderr.contains("too like the IMAP account name \"frank\""), like.stderr)
        try mailstore("account", "remove", "frank")
        try mailstore("import", "--mbox", mbox, "--account", "frank", "--quiet", expect: 6)
        XCTAssertEqual(try mailstore("log", "--type", "EmailReceived").stdout.filter { $0 == "\n" }.count, 0, "nothing filed")
        // A name of imported mail only goes on taking mail.
        try mailstore("import", "--mbox", mbox, "--account", "archive", "--quiet")
        try mailstore("import", "--mbox", mbox, "--account", "archive", "--quiet")
        let line = try mailstore("import", "--mbox", mbox, "--account", "a\u{2028}b", "--quiet", expect: 64)
        XCTAssertTrue(line.stderr.contains("cannot name an account"), line.stderr)
    }

    func testANameHoldingImportedMailIsRefusedAndARemovedAccountsMailTakesNoAction() throws {
        try mailstore("init")
        let mbox = dir.file("in.mbox")
        try Data(DiskFullTests.mbox(count: 3).utf8).write(to: URL(fileURLWithPath: mbox))
        try mailstore("import", "--mbox", mbox, "--folder", "INBOX", "--quiet")
        let local = try add("local", "me@example.com", expect: 6)
        XCTAssertTrue(local.stderr.contains("mail imported without a server is filed under \"local\""), local.stderr)

        // Mail filed under a configured account (imported into it here, as a sync files it), then the account removed:
        // an action on it would never reach the server, so it is refused, not done locally.
        try add("work", "carol@example.com")
        try fileAsSynced(mbox: mbox, account: "work")
        let out = try mailstore("project", "--view", "threads", "--account", "work", "--all", "--json").stdout
        let page = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let thread = try XCTUnwrap((page["threads"] as? [[String: Any]])?.first?["id"] as? String)
        try mailstore("account", "remove", "work")
        let star = try mailstore("star", thread, expect: 7)
        XCTAssertTrue(star.stderr.contains("the account \"work\" was removed"), star.stderr)
        let log = try mailstore("log", "--type", "ActionApplied").stdout
        XCTAssertFalse(log.contains("ActionApplied"), "nothing recorded as done: \(log)")
        // Imported mail of a name never configured still acts at once.
        let localOut = try mailstore("project", "--view", "threads", "--account", "local", "--all", "--json").stdout
        let localPage = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(localOut.utf8)) as? [String: Any])
        let localThread = try XCTUnwrap((localPage["threads"] as? [[String: Any]])?.first?["id"] as? String)
        try mailstore("star", localThread)
    }
}
