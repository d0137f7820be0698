import Foundation
import MailStore
import TestSupport
import XCTest

/// Autocomplete offers the user's own addresses after everyone else's: the user is a recipient of every message
/// received and the sender of every one sent, so by frequency alone "t" offered Tom (the user) before Tina.
final class OwnAddressCompletionTests: XCTestCase {
    func testTheUsersOwnAddressComesAfterEveryoneElse() throws {
        let dir = TemporaryDirectory("own-address")
        let store = try MailStore.create(at: dir.file("store"))
        _ = try store.addAccount(AccountSettings(name: "home", email: "Tom@Example.com", host: "imap.example.com",
                                                 port: 993, security: "tls", credential: .environment("MAILSTORE_UNUSED")))
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
        var options = Importer.Options()
        options.account = "home"
        XCTAssertEqual(try Importer(store: store, options: options).importMaildir(dir.file("md")).imported, 13)
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
    }
}
