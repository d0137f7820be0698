import EventModel
import Foundation
import MailStore
@testable import SearchIndex
import SearchQuery
import Views
import XCTest

/// A search whose filters (`folder:`, `account:`, `id:`, `thread:`, the account searched in) admit few copies reads those by rowid and tests each for its
/// text, instead of stepping every match of the text for the few its filters admit; what it finds is what it found.
final class FilterRowsTests: SearchIndexTestCase {
    /// A message in `folder`, replying to `parent` when given.
    func message(_ i: Int, folder: String, parent: Int? = nil) -> (folder: String, name: String, text: String) {
        let reply = parent.map { "In-Reply-To: <f-\($0)@x>\nReferences: <f-\($0)@x>\n" } ?? ""
        let body = i % 7 == 3 ? "nothing here" : "rollout \(i) ready"
        return (folder: folder, name: "f\(i)",
                text: "From: P\(i % 4) <p\(i % 4)@example.com>\nTo: me@example.com\nMessage-ID: <f-\(i)@x>\n\(reply)"
                    + "Date: \(1 + i / 24) Mar 2024 \(String(format: "%02d", i % 24)):00:00 +0000\nSubject: s\(i)\n\n\(body)\n")
    }

    /// Message-IDs and folders `text` finds, newest first or oldest first, the copies read by rowid where the filters
    /// admit few (`restricts`) or not.
    func found(_ idx: SearchIndex, _ text: String, account: String? = nil, oldestFirst: Bool, restricts: Bool,
               views: ViewsSnapshotProvider) throws -> [String] {
        idx.restrictsByFilters = restricts
        defer { idx.restrictsByFilters = true }
        var out: [String] = []
        try idx.search(try SearchQuery.parse(text), account: account, oldestFirst: oldestFirst, threadEmails: views.threadEmails) { h in
            out.append("\(h.messageID ?? "?") \(h.folder)\(h.account == "local" ? "" : " " + h.account)")
            return true
        }
        return out
    }

    /// The threads of a page of `text` and their matching copies, as `found`.
    func threads(_ idx: SearchIndex, _ text: String, restricts: Bool, views: ViewsSnapshotProvider) throws -> [String] {
        idx.restrictsByFilters = restricts
        defer { idx.restrictsByFilters = true }
        return try idx.searchThreads(try SearchQuery.parse(text), offset: 0, limit: 25, threadOf: views.threadOf,
                                     threadEmails: views.threadEmails).map { "\($0.threadID): \($0.emailIDs.sorted())" }
    }

    func testTheFewCopiesAFilterAdmitsAreReadByRowidFindingWhatTheStatementFound() throws {
        var messages = (0..<40).map { message($0, folder: $0 % 10 == 0 ? "Small" : "INBOX") }
        messages += [message(40, folder: "INBOX"), message(41, folder: "Archive", parent: 40), message(42, folder: "Small", parent: 41)]
        try importMessages(messages)
        try importMessages((50..<54).map { message($0, folder: $0 % 2 == 0 ? "INBOX" : "Small") }, account: "other")
        let idx = try index()
        let imported = try store.log.head().sequence
        // A copy of Small moved out (its version in Small kept in `docs_past`), one expunged, one starred.
        let moved = try emailID("f-10@x"), gone = try emailID("f-20@x"), starred = try emailID("f-30@x")
        try append(.threadMoved(ThreadAction(threadIDs: ["t"], targets: [ActionTarget(emailID: moved, folder: "Small", flags: [])],
                                             destination: "Archive")))
        try append(.emailExpunged(EmailExpunged(emailID: gone, folder: "Small")))
        try append(.threadStarred(ThreadAction(threadIDs: ["t"], targets: [ActionTarget(emailID: starred, folder: "Small", flags: [])])))
        try idx.catchUp(log: store.log)
        let views = ViewsSnapshotProvider(try store.openViews())
        let thread = try XCTUnwrap(try views.views.emailRecord(id: try emailID("f-41@x"))?.threadID)

        let restricted = ["folder:Small ro*", "folder:small rollout", "folder:Nope ro*", "folder:Nope", "NOT ro* folder:Small",
                          "folder:Small NOT rollout", "id:f-11@x ro*", "id:f-11@x", "id:f-12@x rollout", "thread:\(thread) ro*",
                          "thread:\(thread) NOT ro*", "thread:\(thread) folder:Small r*", "ro* folder:Small folder:Archive",
                          "folder:Small is:starred", "folder:SMALL", "account:other ro*", "account:nope ro*", "account:other folder:small", "account:OTHER ro*"]
        let unrestricted = ["folder:Small OR ro*", "ro* -folder:Small", "NOT (folder:Small ro*)"]
        let head = try store.log.head().sequence
        for point in [nil] + Array(stride(from: 1, through: head, by: 3)) + [head] as [UInt64?] {
            idx.asOf = point
            for text in restricted + unrestricted {
                let what = "\(text) as of \(point.map(String.init) ?? "now")"
                for oldestFirst in [false, true] {
                    let before = idx.filterRestrictions
                    let read = try found(idx, text, oldestFirst: oldestFirst, restricts: true, views: views)
                    XCTAssertEqual(read, try found(idx, text, oldestFirst: oldestFirst, restricts: false, views: views), what)
                    XCTAssertEqual(idx.filterRestrictions > before, restricted.contains(text), "\(what): read by rowid")
                }
                XCTAssertEqual(try threads(idx, text, restricts: true, views: views), try threads(idx, text, restricts: false, views: views), what)
            }
            // The account searched in (`--account`) is a filter too.
            for (text, account) in [("ro*", "other"), ("NOT ro*", "other"), ("folder:Small r*", "other"), ("ro*", "nope")] {
                let before = idx.filterRestrictions
                XCTAssertEqual(try found(idx, text, account: account, oldestFirst: false, restricts: true, views: views),
                               try found(idx, text, account: account, oldestFirst: false, restricts: false, views: views), "\(text) in \(account)")
                XCTAssertGreaterThan(idx.filterRestrictions, before, "\(text) in \(account): read by rowid")
            }
        }
        idx.asOf = nil
        // What the queries find: a copy in Small, one moved out and one expunged, a thread.
        XCTAssertEqual(try found(idx, "folder:Small ro*", oldestFirst: false, restricts: true, views: views),
                       ["f-53@x Small other", "f-51@x Small other", "f-42@x Small", "f-30@x Small", "f-0@x Small"])
        XCTAssertEqual(try found(idx, "thread:\(thread) ro*", oldestFirst: true, restricts: true, views: views),
                       ["f-40@x INBOX", "f-41@x Archive", "f-42@x Small"])
        XCTAssertEqual(try found(idx, "account:other ro*", oldestFirst: false, restricts: true, views: views),
                       ["f-53@x Small other", "f-51@x Small other", "f-50@x INBOX other"])
        idx.asOf = imported
        XCTAssertEqual(try found(idx, "folder:Small", oldestFirst: true, restricts: true, views: views).count, 7,
                       "as of the import: the copies moved and expunged since were in Small")
        idx.asOf = nil

        // More copies than are read by rowid: the statement steps the matches, as before.
        idx.maxPastRowids = 2
        let before = idx.filterRestrictions
        XCTAssertEqual(try found(idx, "folder:Small ro*", oldestFirst: false, restricts: true, views: views),
                       ["f-53@x Small other", "f-51@x Small other", "f-42@x Small", "f-30@x Small", "f-0@x Small"])
        XCTAssertEqual(idx.filterRestrictions, before, "5 copies in Small now, more than 2")
        idx.maxPastRowids = QueryCompiler.maxPastRowids
        // A set of their matches costing more than stepping (`pointSetSeeks`): not restricted; none admitted: restricted.
        idx.pointSetSeeks = 0
        _ = try found(idx, "folder:Small ro*", oldestFirst: false, restricts: true, views: views)
        XCTAssertEqual(idx.filterRestrictions, before)
        XCTAssertEqual(try found(idx, "folder:Nope ro*", oldestFirst: false, restricts: true, views: views), [])
        XCTAssertEqual(idx.filterRestrictions, before + 1)
        idx.pointSetSeeks = SearchIndex.defaultPointSetSeeks
    }

    /// A statement that reads the rows its filters admit by rowid is driven by the rowids, not by an index on a
    /// filter's column (`folder:` of a big folder: every entry of its index in the statement's range stepped).
    func testAStatementOfRowsReadByRowidIsDrivenByTheRowids() throws {
        try importMessages((0..<6).map { message($0, folder: "INBOX") })
        let idx = try index()
        var compiler = QueryCompiler(threadEmails: { _ in ["e1", "e2"] })
        compiler.nowRowids = [1, 2, 3]
        for q in ["folder:INBOX", "folder:INBOX id:f-1@x thread:t rollout", "folder:INBOX NOT rollout", "account:local folder:INBOX ro*"] {
            let c = try compiler.compile(try SearchQuery.parse(q).expr, account: nil, oldestFirst: false, within: 0...Int64.max - 1)
            let plan = try idx.locked { () throws -> String in
                let s = try idx.db.prepare("EXPLAIN QUERY PLAN " + c.sql)
                try s.bind(c.binds)
                var rows: [String] = []
                while try s.step() { rows.append(s.text(3)) }
                return rows.joined(separator: "\n")
            }
            XCTAssertTrue(plan.contains("SEARCH d USING INTEGER PRIMARY KEY (rowid=?)"), "\(q):\n\(plan)")
            XCTAssertFalse(["docs_folder", "docs_account", "docs_message_id", "autoindex"].contains { plan.contains($0) }, "\(q):\n\(plan)")
        }
    }
}

/// The threads view's answers a search asks for, from one snapshot.
struct ViewsSnapshotProvider {
    let views: ViewStore
    init(_ views: ViewStore) { self.views = views }
    func threadEmails(_ id: String) throws -> [String] { try views.threadEmails(id: id).map(\.id) }
    func threadOf(_ email: String) throws -> String? { try views.emailRecord(id: email)?.threadID }
}
