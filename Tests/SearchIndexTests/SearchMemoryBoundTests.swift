import EventLog
import EventModel
import Foundation
import MailStore
@testable import SearchIndex
import XCTest

/// What the index's reader holds is bounded by bytes, not only by counts: a batch is cut once its events and
/// documents hold `SearchIndex.batchBytes` (messages naming 1,000 recipients each: ~50 KB an event), and a document
/// takes its body text from a window of each part (`SearchDocument.maxBodyBytes`, `maxHTMLBytes`), never from a
/// 60 MB body decoded whole.
final class SearchMemoryBoundTests: SearchIndexTestCase {
    /// A message naming `recipients` distinct addresses in To.
    private func crowded(_ i: Int, recipients: Int) -> (folder: String, name: String, text: String) {
        let to = (0..<recipients).map { "Person \(i)-\($0) <p\(i)x\($0)@crowd\(i % 7).example>" }.joined(separator: ",\n ")
        return ("INBOX", "crowd\(i):2,S", """
            From: sender\(i)@example.com
            To: \(to)
            Subject: crowded \(i)
            Date: Mon, 1 Jan 2024 10:\(String(format: "%02d", i % 60)):00 +0000
            Message-ID: <crowd\(i)@example.com>

            a message to many, number \(i)
            """)
    }

    /// Batches cut at a budget of `budget` bytes held (`SearchIndex.batchByteLimit`, in production `SearchIndex.batchBytes`):
    /// 16 messages naming 1,000 recipients each (~210 KB counted a message) cross it as ~40 of them a batch cross 8 MiB.
    func testBatchesAreCutByWhatTheyHold() throws {
        let messages = 16
        let budget = 512 << 10
        // The index made before the mail comes, so that its catch-up folds it all with the budget set.
        let idx = try index()
        idx.batchByteLimit = budget
        try importMessages((0..<messages).map { crowded($0, recipients: 1_000) })
        let head = try store.log.head().sequence
        let feed = SearchBatchFeed(log: store.log, from: 1, through: head, batchBytes: budget)
        defer { feed.finish() }
        var batches = 0
        var last: UInt64 = 0
        while let b = try feed.next() {
            batches += 1
            last = b.last
            XCTAssertLessThan(b.events.count, SearchIndex.batchSize)
            // At most the budget and the one event that crossed it.
            let index = b.events.count - 1
            let crossing = b.events.last.map { SearchBatchReader.heldBytes(payload: $0.payload.count, document: b.documents[index]) } ?? 0
            XCTAssertLessThanOrEqual(b.heldBytes, budget + crossing)
            XCTAssertLessThan(crossing, budget)
            if b.last < head { XCTAssertGreaterThanOrEqual(b.heldBytes, budget) }
        }
        // ~3 emails a batch, where 500 events (all 32 of them) made one.
        XCTAssertGreaterThanOrEqual(batches, 4)
        XCTAssertEqual(last, head)

        // Cut short, the batches index it all.
        var commits = 0
        XCTAssertTrue(try idx.catchUp(log: store.log, progress: { _, _ in commits += 1 }))
        XCTAssertGreaterThanOrEqual(commits, 4, "the catch-up's transactions are cut as the batches are")
        XCTAssertEqual(try idx.documentCount(), messages)
        XCTAssertEqual(try ids("to:p7x999@crowd0.example", idx), ["crowd7@example.com"])
    }

    func testOrdinaryBatchesAreNotCut() throws {
        try importMessages(SearchIndexTests.messages)
        let reader = try SearchBatchReader(log: store.log)
        try store.log.scan(filter: ScanFilter(types: SearchIndex.foldedTypes)) { ev in
            try reader.add(ev)
            return true
        }
        XCTAssertFalse(reader.isFull)
        let batch = reader.take(through: try store.log.head().sequence)
        XCTAssertGreaterThan(batch.events.count, SearchIndexTests.messages.count - 1)
        XCTAssertLessThan(batch.heldBytes, 64 << 10)
        XCTAssertEqual(reader.count, 0)
        XCTAssertEqual(reader.heldBytes, 0)
    }

    /// A 12 MB body: its text indexed up to `maxBodyBytes`, from a window of it.
    func testABigBodyIsIndexedUpToTheBound() throws {
        let line = "filler words of a very long plain text body\r\n"
        let fill = SearchDocument.maxBodyBytes / line.utf8.count
        var body = "alphaword\r\n"
        body += String(repeating: line, count: fill - 10) + "betaword\r\n"
        body += String(repeating: line, count: 1_000) + "gammaword\r\n"
        body += String(repeating: line, count: 11_000_000 / line.utf8.count) + "deltaword\r\n"
        try importMessages([("INBOX", "big:2,S", """
            From: a@example.com
            To: b@example.com
            Subject: a big body
            Date: Mon, 1 Jan 2024 10:00:00 +0000
            Message-ID: <big@example.com>

            \(body)
            """)])
        let idx = try index()
        XCTAssertEqual(try ids("alphaword", idx), ["big@example.com"])
        XCTAssertEqual(try ids("betaword", idx), ["big@example.com"])
        XCTAssertEqual(try ids("gammaword", idx), [])
        XCTAssertEqual(try ids("deltaword", idx), [])

        let document = try self.document(messageID: "big@example.com")
        XCTAssertLessThanOrEqual(document.body.utf8.count, SearchDocument.maxBodyBytes)
        XCTAssertGreaterThan(document.body.utf8.count, SearchDocument.maxBodyBytes - line.utf8.count)
        XCTAssertTrue(document.body.hasPrefix("alphaword\n"))
    }

    /// An HTML part's text comes from its first `maxHTMLBytes`: words past them (here after 5 MiB of markup with no
    /// text) are not indexed; words before them are.
    func testAnHTMLPartsTextComesFromItsFirstBytes() throws {
        let markup = "<span style=\"color: #123456; font-family: Helvetica, Arial, sans-serif\"></span>\r\n"
        let html = "<html><body><p>earlyword</p>\r\n" + String(repeating: markup, count: (5 << 20) / markup.utf8.count)
            + "<p>lateword</p></body></html>\r\n"
        try importMessages([("INBOX", "html:2,S", """
            From: a@example.com
            To: b@example.com
            Subject: markup
            Date: Mon, 1 Jan 2024 10:00:00 +0000
            Message-ID: <html@example.com>
            MIME-Version: 1.0
            Content-Type: text/html; charset=utf-8

            \(html)
            """)])
        let idx = try index()
        XCTAssertEqual(try ids("earlyword", idx), ["html@example.com"])
        XCTAssertEqual(try ids("lateword", idx), [])
    }

    /// The document of the `EmailReceived` of `messageID`, as the index's reader builds it.
    private func document(messageID: String) throws -> SearchDocument {
        var found: SearchDocument?
        try store.log.scan(filter: ScanFilter(types: [.emailReceived])) { ev in
            guard case .emailReceived(let p) = try ev.decode(), p.messageID == messageID else { return true }
            found = SearchDocument(p, account: ev.envelope.account, raw: try store.log.blob(p.blob))
            return false
        }
        return try XCTUnwrap(found)
    }
}
