import EventLog
import EventModel
import Foundation
import MailStore
import TestSupport
import XCTest

/// The user's own addresses (the account's, and an alias that sent mail in Sent): autocomplete offers them after
/// everyone else's (the user is a recipient of every message received and the sender of every one sent, so by
/// frequency alone "t" offered Tom, the user, before Tina); a reply to all leaves them out, aliases included.
final class OwnAddressTests: XCTestCase {
    /// A new store in `dir` with the account "home" of tom@example.com (never connected to).
    private func homeStore(_ dir: TemporaryDirectory, email: String = "tom@example.com") throws -> MailStore {
        let store = try MailStore.create(at: dir.file("store"))
        _ = try store.addAccount(AccountSettings(name: "home", email: email, host: "imap.example.com",
                                                 port: 993, security: "tls", credential: .environment("MAILSTORE_UNUSED")))
        return store
    }

    /// Imports `dir`'s `md` Maildir into "home", checking it brought `count` messages.
    private func importHome(_ store: MailStore, _ dir: TemporaryDirectory, count: Int, folder: String = "md") throws {
        var options = Importer.Options()
        options.account = "home"
        options.underServerAccount = true  // as a sync files it
        XCTAssertEqual(try Importer(store: store, options: options).importMaildir(dir.file(folder)).imported, count)
    }

    /// The email id of the message whose Message-ID is `messageID`.
    private func emailID(_ store: MailStore, _ messageID: String) throws -> String {
        var found: String?
        try store.log.scan(filter: ScanFilter(types: [.emailReceived])) { ev in
            if case .emailReceived(let p) = try ev.decode(), p.messageID == messageID { found = p.emailID }
            return true
        }
        return try XCTUnwrap(found)
    }
    func testTheUsersOwnAddressComesAfterEveryoneElse() throws {
        let dir = TemporaryDirectory("own-address")
        let store = try homeStore(dir, email: "Tom@Example.com")
        func write(_ path: String, from: String, to: String, id: Int) throws {
            let url = URL(fileURLWithPath: dir.file(path))
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let text = "From: \(from)\r\nTo: \(to)\r\nSubject: s\(id)\r\nDate: Mon, 15 Jan 2024 09:\(10 + id):00 +0000\r\n"
                + "Message-ID: <m\(id)@example.com>\r\n\r\nBody \(id).\r\n"
            try Data(text.utf8).write(to: url)
        }
        for i in 0..<6 { try write("md/cur/17000000\(i).\(i).host:2,S", from: "Tina <tina@example.org>", to: "Tom <tom@example.com>", id: i) }
        try write("md/cur/1700000010.10.host:2,S", from: "Theo <theo@example.net>", to: "tom@example.com", id: 10)
        for i in 20..<23 { try write("md/.Sent/cur/17000000\(i).\(i).host:2,S", from: "Tom <tom@example.com>", to: "Tina <tina@example.org>", id: i) }
        // An alias the user sends from (not the account's address): own too, as its mail is in Sent.
        for i in 30..<33 { try write("md/.Sent/cur/17000000\(i).\(i).host:2,S", from: "Tom <tb@alias.example>", to: "Theo <theo@example.net>", id: i) }
        try importHome(store, dir, count: 13)
        XCTAssertEqual(try store.completeContacts(account: "home", prefix: "tb").map(\.address), ["tb@alias.example"])

        // The views rank Tom first (10 messages, 3 from him); the store offers him last.
        let t = try store.completeContacts(account: "home", prefix: "t")
        XCTAssertEqual(t.map(\.address), ["tina@example.org", "theo@example.net", "tom@example.com", "tb@alias.example"])
        XCTAssertEqual(try store.completeContacts(account: "home", prefix: "t", limit: 2).map(\.address),
                       ["tina@example.org", "theo@example.net"])
        XCTAssertEqual(try store.completeContacts(account: "home", prefix: "t", limit: 1).map(\.address), ["tina@example.org"])
        XCTAssertEqual(try store.completeContacts(account: "home", prefix: "to").map(\.address), ["tom@example.com", "tb@alias.example"],
                       "still offered, for mail to oneself")
        XCTAssertEqual(try store.completeContacts(account: "home", prefix: "t", limit: 0), [])

        // Mail from the alias that arrives later (the user copying themselves) is the user's own: primary.own.
        try write("md2/cur/1700000040.40.host:2,S", from: "Tom <tb@alias.example>", to: "tb@alias.example", id: 40)
        try importHome(store, dir, count: 1, folder: "md2")
        let id = try emailID(store, "m40@example.com")
        var rule: String?
        try store.log.scan(filter: ScanFilter(types: [.emailCategorized])) { ev in
            if case .emailCategorized(let c) = try ev.decode(), c.emailID == id { rule = c.rule }
            return true
        }
        XCTAssertEqual(rule, "primary.own: tb@alias.example")
    }

    func testAReplyToAllLeavesOutTheUsersAliases() throws {
        let dir = TemporaryDirectory("own-reply")
        let store = try homeStore(dir)
        func write(_ path: String, _ text: String) throws {
            let url = URL(fileURLWithPath: dir.file(path))
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8).write(to: url)
        }
        // The user has written as tb@alias.example (in Sent); Tina writes to that alias, Theo and the account in Cc.
        try write("md/.Sent/cur/1700000001.1.host:2,S", "From: Tom <tb@alias.example>\nTo: theo@example.net\nSubject: a\n"
                  + "Date: Mon, 15 Jan 2024 09:00:00 +0000\nMessage-ID: <s1@example.com>\n\nhi\n")
        try write("md/cur/1700000002.2.host:2,S", "From: Tina <tina@example.org>\nTo: Tom <TB@alias.example>\n"
                  + "Cc: theo@example.net, tom@example.com\nSubject: plans\nDate: Tue, 16 Jan 2024 09:00:00 +0000\n"
                  + "Message-ID: <p1@example.com>\n\nLunch?\n")
        // The user answered Tina from the alias: the thread's newest mail is the user's.
        try write("md/.Sent/cur/1700000003.3.host:2,S", "From: Tom <tb@alias.example>\nTo: tina@example.org\nSubject: Re: plans\n"
                  + "Date: Wed, 17 Jan 2024 09:00:00 +0000\nMessage-ID: <s2@example.com>\nIn-Reply-To: <p1@example.com>\n\nok\n")
        try importHome(store, dir, count: 3)
        let parent = try emailID(store, "p1@example.com")
        let (draft, problems) = try DraftsUseCase(store: store).create(account: "home",
                                                                 DraftInput(body: "Yes", replyTo: parent, replyAll: true))
        XCTAssertEqual(draft.to.map(\.email), ["tina@example.org"])
        XCTAssertEqual(draft.cc.map(\.email), ["theo@example.net"], "neither the account nor the alias")
        XCTAssertTrue(problems.contains { $0.hasPrefix("tb@alias.example left out of the reply") }, "\(problems)")

        // Put in a category, the thread teaches a rule for Tina, not for the user's alias that wrote its newest mail.
        let thread = try XCTUnwrap(try store.latestViews().threadPage(scope: "home", folder: "INBOX", category: nil, after: nil,
                                                                      limit: 10).threads.first)
        XCTAssertEqual(thread.messageCount, 2)
        let correction = try CategorizeEmailUseCase(store: store).categorizeThread(id: thread.id, as: .promotions)
        XCTAssertEqual(correction.learnedSender, "tina@example.org")
    }

    /// A delegate whose mail is also in Sent (copies of what they sent on the user's behalf) but who writes to the user
    /// is not taken for the user: a reply goes to them, and autocomplete ranks them as anyone.
    func testSomeoneWhoseMailIsAlsoInSentIsNotTheUser() throws {
        let dir = TemporaryDirectory("own-delegate")
        let store = try homeStore(dir)
        func write(_ path: String, from: String, to: String, id: String, day: Int) throws {
            let url = URL(fileURLWithPath: dir.file(path))
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let text = "From: \(from)\r\nTo: \(to)\r\nSubject: s \(id)\r\nDate: \(day) Jan 2024 09:00:00 +0000\r\n"
                + "Message-ID: <\(id)@example.com>\r\n\r\nBody.\r\n"
            try Data(text.utf8).write(to: url)
        }
        try write("md/.Sent/cur/1700000001.1.host:2,S", from: "Dana <dana@example.com>", to: "x@example.org", id: "d0", day: 2)
        for i in 1...3 {
            try write("md/cur/170000000\(i + 1).\(i + 1).host:2,S", from: "Dana <dana@example.com>", to: "tom@example.com", id: "d\(i)", day: 2 + i)
        }
        try importHome(store, dir, count: 4)
        let parent = try emailID(store, "d3@example.com")
        let (draft, problems) = try DraftsUseCase(store: store).create(account: "home",
                                                                        DraftInput(body: "Sure", replyTo: parent))
        XCTAssertEqual(draft.to.map(\.email), ["dana@example.com"])
        XCTAssertFalse(problems.contains { $0.contains("left out") }, "\(problems)")
        let d = try XCTUnwrap(try store.completeContacts(account: "home", prefix: "d").first)
        XCTAssertEqual(d.address, "dana@example.com")
        XCTAssertEqual(d.wroteAs, 1)
        XCTAssertFalse(d.isUsersOwn)
    }
}
