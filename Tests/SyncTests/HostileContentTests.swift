import EventLog
import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import TestSupport
import XCTest

/// Mail that used to brick a store: ids, references, addresses and folder names longer than an LMDB key,
/// imported and synced from the real Dovecot, then every view command still works.
final class HostileContentTests: SyncTestCase {
    /// A message whose Message-ID, In-Reply-To, References (10,000 of them), From and To are longer than
    /// LMDB's 511-byte key limit.
    static func hostileMessage(_ n: Int) -> [UInt8] {
        let long = String(repeating: "x", count: 600)
        let refs = (0..<10_000).map { "<r\($0)@example.com>" }.joined(separator: "\r\n ")
        let text = """
        Message-ID: <\(n)-\(long)@example.com>\r
        In-Reply-To: <parent-\(long)@example.com>\r
        References: \(refs)\r
         <parent-\(long)@example.com>\r
        From: "\(String(repeating: "N", count: 700))" <\(long)@example.com>\r
        To: <\(long)@example.org>\r
        Subject: \(String(repeating: "S", count: 3000))\r
        Date: Mon, 2 Sep 2024 10:00:00 +0000\r
        \r
        body \(n)\r

        """
        return Array(text.utf8)
    }

    func testMailWithOverlongIdsAndNamesSyncsAndEveryViewCommandWorks() throws {
        let c = try server()
        defer { c.logout() }
        // As long a folder name as Dovecot takes (it refuses names over its own limit).
        var folder = "F" + String(repeating: "y", count: 240)
        do { try c.create(MailboxName(folder)) } catch { folder = "F" + String(repeating: "y", count: 90); try c.create(MailboxName(folder)) }
        for i in 0..<3 {
            _ = try c.append(to: MailboxName("INBOX"), message: HostileContentTests.hostileMessage(i))
            _ = try c.append(to: MailboxName(folder), message: HostileContentTests.hostileMessage(10 + i))
        }
        try addAccount()
        try mailstore(["sync", "--account", accountName])
        try mailstore(["project", "--view", "threads", "--account", accountName])
        try mailstore(["project", "--view", "threads", "--account", accountName, "--folder", folder])
        try mailstore(["project", "--view", "dedup", "--account", accountName])
        try mailstore(["project", "--view", "unread", "--account", accountName])
        try mailstore(["account", "list"])
        try mailstore(["replay"])
        try mailstore(["verify", "--views"])
        // An over-long --account or --folder argument is an unknown one, not a crash.
        let long = String(repeating: "a", count: 700)
        let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), ["project", "--view", "threads", "--account", long, "--folder", long],
                                     environment: environment)
        XCTAssertTrue([0, 4].contains(r.status), "exit \(r.status): \(r.stderr)")
        // Importing the same mail from an mbox under a long account name works too.
        var mbox: [UInt8] = []
        for i in 20..<23 { mbox += Array("From x@y Mon Sep  2 10:00:00 2024\n".utf8) + HostileContentTests.hostileMessage(i) + [10] }
        let file = dir.file("hostile.mbox")
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data(mbox)))
        try mailstore(["import", "--mbox", file, "--account", long, "--folder", long, "--quiet"])
        try mailstore(["project", "--view", "threads", "--account", long, "--folder", long])
        try mailstore(["verify", "--views"])
    }

    /// A sender's `X-GM-THRID` header, even at the top beside `X-Gmail-Labels` as a Takeout export writes it, does not
    /// thread a synced message: only Gmail's server gives a synced copy its thread id. The reply stays with its
    /// parent; the stranger's message with the same header is a thread of its own.
    func testASendersGmailThreadHeaderThreadsNothing() throws {
        let c = try server()
        defer { c.logout() }
        func message(_ id: String, _ subject: String, parent: String?) -> [UInt8] {
            var h = "X-GM-THRID: 1\r\nX-Gmail-Labels: Inbox\r\nFrom: a@example.com\r\nSubject: \(subject)\r\nMessage-ID: <\(id)@x>\r\n"
            if let parent { h += "In-Reply-To: <\(parent)@x>\r\nReferences: <\(parent)@x>\r\n" }
            return Array((h + "Date: Mon, 2 Sep 2024 10:00:00 +0000\r\n\r\nbody\r\n").utf8)
        }
        _ = try c.append(to: MailboxName("INBOX"), message: Array("From: a@example.com\r\nSubject: root\r\nMessage-ID: <root@x>\r\nDate: Mon, 2 Sep 2024 09:00:00 +0000\r\n\r\nroot\r\n".utf8))
        _ = try c.append(to: MailboxName("INBOX"), message: message("reply", "Re: root", parent: "root"))
        _ = try c.append(to: MailboxName("INBOX"), message: message("stranger", "win", parent: nil))
        try addAccount()
        try sync()
        let copies = try views.syncedCopies(account: accountName, folder: "INBOX").values.compactMap { try store.email(id: $0.emailID)?.payload }
        XCTAssertEqual(copies.count, 3)
        XCTAssertEqual(copies.compactMap(\.gmailThreadID), [])
        XCTAssertEqual(try threads("INBOX"), [["root@x", "reply@x"], ["stranger@x"]])
    }

    /// Spam dated 2099 (a Date header far ahead of the server's internal date) is listed by its arrival, not first in
    /// the inbox until 2099: synced from the real Dovecot, its event carries the internal date, `fallback`, and a
    /// `futureDate` warning, and the thread list puts the mail that came later above it.
    func testMailDatedInTheFutureIsListedByItsArrival() throws {
        let c = try server()
        defer { c.logout() }
        var spam = String(decoding: SyncTestCase.message("spam", subject: "Act now"), as: UTF8.self)
        spam = spam.replacingOccurrences(of: "Date: 01 Mar 2026 10:00:00 +0000", with: "Date: Thu, 01 Jan 2099 00:00:00 +0000")
        XCTAssertTrue(spam.contains("2099"))
        let arrived: Int64 = 1_767_225_600  // 2026-01-01T00:00:00Z
        _ = try c.append(to: MailboxName("INBOX"), message: Array(spam.utf8), date: InternalDate(epochSeconds: arrived))
        _ = try c.append(to: MailboxName("INBOX"), message: SyncTestCase.message("real", subject: "Lunch?", day: 2))
        try addAccount()
        try sync()
        var dates: [String: (Timestamp, String, [String])] = [:]
        try store.log.scan(filter: ScanFilter(types: [.emailReceived])) { ev in
            if case .emailReceived(let p) = try ev.decode() { dates[p.messageID ?? ""] = (p.date, "\(p.dateSource)", p.warnings) }
            return true
        }
        let s = try XCTUnwrap(dates["spam@example.com"])
        XCTAssertEqual(s.0, Timestamp(microseconds: arrived * 1_000_000))
        XCTAssertEqual(s.1, "fallback")
        XCTAssertTrue(s.2.contains { $0.hasPrefix("futureDate:") }, "\(s.2)")
        XCTAssertEqual(dates["real@example.com"]?.1, "header")
        let page = try views.threadPage(scope: accountName, folder: "INBOX", category: nil, after: nil, limit: 10).threads
        XCTAssertEqual(page.map(\.subject), ["Lunch?", "Act now"])
    }
}
