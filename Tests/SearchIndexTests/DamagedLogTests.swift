import EventLog
import EventModel
import Foundation
import LMDB
@testable import SearchIndex
import XCTest

/// A search index over a log with a damaged part: one message's blob altered, or an index whose checkpoint is
/// past the log's end. Neither may leave the index stuck or silently behind.
final class DamagedLogTests: SearchIndexTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try importMessages(SearchIndexTests.messages)
    }

    /// The `EmailReceived` of the copy with Message-ID `mid`: its email id, blob and sequence.
    private func received(_ mid: String) throws -> (emailID: String, blob: BlobHash, sequence: UInt64) {
        var found: (String, BlobHash, UInt64)?
        try store.log.scan(filter: ScanFilter(types: [.emailReceived])) { ev in
            if case .emailReceived(let p) = try ev.decode(), p.messageKey.contains(mid) { found = (p.emailID, p.blob, ev.envelope.sequence) }
            return true
        }
        return try XCTUnwrap(found, "no copy of \(mid)")
    }

    /// Replaces blob `hash`'s stored bytes with other content (stored raw): it no longer matches its SHA-256.
    private func alter(_ hash: BlobHash) throws {
        let env = store.log.environment
        let keys = try env.openDatabase("blob_keys"), data = try env.openDatabase("blob_data")
        try env.write { txn in
            let number = try XCTUnwrap(try txn.getBytes(keys, key: hash.bytes))
            _ = try txn.put(data, key: number, value: [0, 7] + Array("altered".utf8))
        }
        XCTAssertThrowsError(try store.log.blob(hash)) { XCTAssertTrue("\($0)".contains("does not match its SHA-256"), "\($0)") }
    }

    /// One message's blob altered: a rebuild, a catch-up and a comparison with a rebuild (`verify --views`) all go
    /// on, the message indexed by what its event carries (headers, snippet) and named in a notice; the others keep their
    /// text.
    func testADamagedBlobCostsItsMessagesBodyNotTheIndex() throws {
        let lunch = try received("m4@example.com")
        try alter(lunch.blob)
        let folder = store.directory.viewsPath + "/search"
        var notices: [String] = []
        let rebuilt = try SearchIndex.rebuild(folder: folder, log: store.log, notice: { notices.append($0) })
        XCTAssertEqual(notices.filter { $0.contains("indexed without its body") }.count, 1, "\(notices)")
        let note = try XCTUnwrap(notices.first { $0.contains("indexed without its body") })
        XCTAssertTrue(note.contains(lunch.emailID) && note.contains("event \(lunch.sequence)") && note.contains("backup")
                      && note.contains("mailstore verify"), note)
        XCTAssertEqual(try ids("subject:lunch", rebuilt), ["m4@example.com"], "its headers are indexed")
        // Not its body's parts (the event's snippet stands for its text, as for a message the store does not have).
        XCTAssertFalse(try ids("mimetype:text/plain", rebuilt).contains("m4@example.com"))
        XCTAssertEqual(try ids("noon", rebuilt), ["m4@example.com"], "its snippet is indexed")
        XCTAssertEqual(try ids("quarterly", rebuilt).count, 2, "the other messages keep their text")
        let compared = try rebuilt.compareWithRebuild(log: store.log, scratchFolder: dir.file("scratch"), sample: 10_000)
        XCTAssertEqual(compared.differences, [])

        // A live index catching up with the damaged message's arrival says so too, and counts it.
        try FileManager.default.removeItem(atPath: folder)
        let live = try SearchIndex(path: dir.file("live.sqlite"))
        notices = []
        try live.catchUp(log: store.log, notice: { notices.append($0) })
        XCTAssertEqual(live.locked { live.unreadBodies }, 1)
        XCTAssertEqual(notices.filter { $0.contains(lunch.emailID) }.count, 1, "\(notices)")
        XCTAssertEqual(try ids("subject:lunch", live), ["m4@example.com"])
    }

    /// An index whose checkpoint is past the log's end, its link still naming an event of the log (a damaged index),
    /// is rebuilt: it had skipped every new message up to its checkpoint, silently.
    func testAnIndexFoldedPastTheLogsEndIsRebuiltWhateverItsLink() throws {
        let folder = store.directory.viewsPath + "/search"
        let idx = try index()
        XCTAssertEqual(try ids("quarterly", idx).count, 2)
        try idx.db.exec("UPDATE meta SET value = 99999 WHERE key = 'checkpoint'")
        try importMessages(SearchIndexTestCase.kayak, account: "acc2")
        var notices: [String] = []
        let reopened = try SearchIndex.open(folder: folder, log: store.log, notice: { notices.append($0) })
        XCTAssertEqual(try ids("kayak", reopened), ["m9@example.com"])
        XCTAssertEqual(try ids("quarterly", reopened).count, 2)
        XCTAssertTrue(notices.contains { $0.contains("past the log's end") && $0.contains("rebuilding it from the log") }, "\(notices)")
    }
}
