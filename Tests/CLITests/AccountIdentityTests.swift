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
        // Mail filed under it (imported here: a sync files it the same way), then removed: the name is the mailbox's.
        let mbox = dir.file("in.mbox")
        try Data(DiskFullTests.mbox(count: 2).utf8).write(to: URL(fileURLWithPath: mbox))
        try mailstore("import", "--mbox", mbox, "--folder", "INBOX", "--account", "work", "--quiet")
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
        let marks = try add("a" + String(repeating: "\u{301}", count: 2_000), "m@example.com", expect: 6)
        XCTAssertLessThan(marks.stderr.utf8.count, 1_000, "the name is shown cut: \(marks.stderr.prefix(300))")
        for odd in [".", "..", "_x", "\u{301}a"] {
            let r = try add(odd, "o@example.com", expect: 6)
            XCTAssertTrue(r.stderr.contains("starting with a letter or digit"), "\(odd): \(r.stderr)")
        }
        try add("\u{3BB}-work", "lw@example.com")
    }

    func testANameHoldingImportedMailIsRefusedAndARemovedAccountsMailTakesNoAction() throws {
        try mailstore("init")
        let mbox = dir.file("in.mbox")
        try Data(DiskFullTests.mbox(count: 3).utf8).write(to: URL(fileURLWithPath: mbox))
        try mailstore("import", "--mbox", mbox, "--folder", "INBOX", "--quiet")
        let local = try add("local", "me@example.com", expect: 6)
        XCTAssertTrue(local.stderr.contains("mail imported without a server is filed under \"local\""), local.stderr)

        // Mail filed under a configured account (imported into it here: a sync would file it the same way), then the
        // account removed: an action on it would never reach the server, so it is refused, not done locally.
        try add("work", "carol@example.com")
        try mailstore("import", "--mbox", mbox, "--folder", "INBOX", "--account", "work", "--quiet")
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
