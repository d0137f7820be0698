import EventLog
import EventModel
import Foundation
import MailStore
@testable import SearchIndex
import SearchQuery
import TestSupport
import Views
import XCTest

/// A store filled from a maildir of hand-written messages, and its search index.
class SearchIndexTestCase: XCTestCase {
    var dir: TemporaryDirectory!
    var store: MailStore!
    /// A message none of the tests' other messages resembles ("kayak"), for mail that comes later.
    static let kayak: [(folder: String, name: String, text: String)] = [("INBOX", "9:2,", """
        From: Erin <erin@example.com>
        To: alice@example.com
        Subject: Kayak trip
        Date: Mon, 22 Apr 2024 12:00:00 +0000
        Message-ID: <m9@example.com>

        Paddles ready.
        """)]

    override func setUpWithError() throws {
        dir = TemporaryDirectory("search")
        store = try MailStore.create(at: dir.file("store"))
    }

    override func tearDown() {
        store = nil
        dir = nil
    }

    /// Writes `messages` (name -> RFC 5322 text) into maildir `md/<folder>/cur` and imports it.
    func importMessages(_ messages: [(folder: String, name: String, text: String)], account: String = "local") throws {
        let root = dir.file("md-\(UUID().uuidString.prefix(6))")
        for m in messages {
            let sub = m.folder == "INBOX" ? root : root + "/." + m.folder
            for d in ["cur", "new", "tmp"] { try FileManager.default.createDirectory(atPath: sub + "/" + d, withIntermediateDirectories: true) }
            let crlf = m.text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
            try Data(crlf.utf8).write(to: URL(fileURLWithPath: sub + "/cur/" + m.name))
        }
        var o = Importer.Options()
        o.account = account
        _ = try Importer(store: store, options: o).importMaildir(root)
    }

    /// Email ids matching `query`, newest first (or oldest): as a search runs it (the prefixes expanded, the
    /// sets made once), or as it ran before expansions (FTS5's prefixes, SQLite's subqueries).
    func hits(_ query: String, _ idx: SearchIndex, expanded: Bool, oldestFirst: Bool = false) throws -> [String] {
        let parsed = try SearchQuery.parse(query)
        var out: [String] = []
        let body = { (h: SearchHit) -> Bool in
            out.append(h.emailID)
            return true
        }
        if expanded {
            try idx.search(parsed, oldestFirst: oldestFirst, body)
        } else {
            try idx.search(parsed, account: nil, oldestFirst: oldestFirst, threadEmails: { _ in [] }, expansions: PrefixExpansions(),
                           sets: nil, body)
        }
        return out
    }

    func index() throws -> SearchIndex {
        try SearchIndex.open(folder: store.directory.viewsPath + "/search", log: store.log)
    }

    /// Message-IDs matching `query`, newest first.
    func ids(_ query: String, _ index: SearchIndex? = nil, account: String? = nil, oldestFirst: Bool = false) throws -> [String] {
        let idx = try index ?? self.index()
        let views = try store.openViews()
        var out: [String] = []
        try idx.search(try SearchQuery.parse(query), account: account, oldestFirst: oldestFirst,
                       threadEmails: { try views.threadEmails(id: $0).map(\.id) }) { h in
            out.append(h.messageID ?? "?")
            return true
        }
        return out
    }

    /// The email id of the copy with Message-ID `mid`.
    func emailID(_ mid: String) throws -> String {
        var found: String?
        try index().search(try SearchQuery.parse("id:\(mid)")) { h in
            found = h.emailID
            return false
        }
        return try XCTUnwrap(found, "no copy of \(mid)")
    }

    func append(_ e: DomainEvent, account: String = "local") throws {
        try store.log.append(NewEvent(event: e, account: account, stream: "test", actor: .sync))
    }

    /// The copies `text` finds in `idx` (newest first or oldest; the first `first`, or all), and the rows of the sets
    /// the search made: "held" for a set of the matches among the rows held at the point, "every" for sets of every
    /// match (in each window, each dropped after it).
    func searchCountingSets(_ idx: SearchIndex, _ text: String, oldestFirst: Bool = false,
                            first: Int? = nil) throws -> (hits: [String], rows: [String: Int]) {
        let q = try SearchQuery.parse(text)
        let sets = MatchSets()
        defer { idx.drop(sets) }
        var hits: [String] = []
        let made = idx.setRowsMade
        try idx.search(q, account: nil, oldestFirst: oldestFirst, threadEmails: { _ in [] },
                       expansions: try idx.locked { try idx.prefixExpansions(q.expr) }, sets: sets) { h in
            hits.append(h.emailID)
            return first.map { hits.count < $0 } ?? true
        }
        XCTAssertEqual(idx.locked { sets.tables.keys.filter { $0.contains("...") } }, [], "\(text): each window's sets dropped after it")
        // Sets of every match are made over a window each and dropped after it: their rows are counted as made.
        var rows: [String: Int] = idx.setRowsMade > made ? ["every": idx.setRowsMade - made] : [:]
        try idx.locked {
            for (key, table) in sets.tables where key.hasPrefix("point\u{0}") {
                let s = try idx.db.prepare("SELECT count(*) FROM temp.\(table)")
                try s.bind([])
                _ = try s.step()
                rows["held"] = Int(s.int(0))
                s.reset()
            }
        }
        return (hits, rows)
    }
}
