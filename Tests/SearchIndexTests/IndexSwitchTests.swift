import Foundation
@testable import SearchIndex
import TestSupport
import XCTest

/// A rebuild renaming its new file over the live index while other connections use it (`SearchIndex.switchLockName`).
final class IndexSwitchTests: SearchIndexTestCase {
    private func messages(_ n: Int) -> [(folder: String, name: String, text: String)] {
        (0..<n).map { i in
            ("INBOX", "m\(i):2,S", "Message-ID: <switch\(i)@example.org>\nFrom: a@example.org\nTo: b@example.org\n"
                + "Subject: switch \(i)\nDate: Mon, 1 Jun 2026 10:00:00 +0000\n\nbody word pelican\(i % 3) \(String(repeating: "filler ", count: 200))\n")
        }
    }

    /// A rebuild put in place during another connection's write transaction had left that transaction's rollback
    /// journal beside the new file, and the new file's first reader rolled the old file's pages into it ("database
    /// disk image is malformed"). The rename now waits for the transaction; the old connection is refused after it.
    func testARebuildWaitsForAWriteUnderWayAndTheOldConnectionIsRefusedAfter() throws {
        try importMessages(messages(40))
        let live = try index()
        let file = store.directory.viewsPath + "/search/" + SearchIndex.fileName
        // Another connection opened and not yet searched (FTS5's table not yet made on it).
        let opened = try SearchIndex(path: file)
        // A write under way on the live file: its rollback journal holds the pages it changed.
        try live.db.exec("BEGIN IMMEDIATE; DELETE FROM docs;")
        XCTAssertTrue(FileManager.default.fileExists(atPath: file + "-journal"))
        let folder = store.directory.viewsPath + "/search"
        let log = store.log
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<(String, Int), any Error>?>(nil)
        Thread.detachNewThread {
            let result = Result<(String, Int), any Error> {
                let rebuilt = try SearchIndex.rebuild(folder: folder, log: log)
                let check = try rebuilt.db.prepare("PRAGMA integrity_check")
                _ = try check.step()
                return (check.text(0), try rebuilt.documentCount())
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 1), .timedOut, "the rename waits for the write under way")
        try live.db.exec("ROLLBACK")
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        let (integrity, documents) = try XCTUnwrap(outcome.withLock { $0 }).get()
        XCTAssertEqual(integrity, "ok")
        XCTAssertEqual(documents, 40)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file + "-journal"))
        // The connection to the file renamed over reads and writes nothing more of it.
        XCTAssertThrowsError(try live.checkpoint()) { error in
            guard case SearchIndexError.replaced = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try hits("pelican1", live, expanded: true)) { error in
            guard case SearchIndexError.replaced = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try hits("pelican1", opened, expanded: false)) { error in
            guard case SearchIndexError.replaced = error else { return XCTFail("\(error)") }
        }
        try importMessages(Array(messages(45)[40...]))
        XCTAssertThrowsError(try live.catchUp(log: store.log)) { error in
            guard case SearchIndexError.replaced = error else { return XCTFail("\(error)") }
        }
        // Opened again, the new file folds on.
        let reopened = try index()
        XCTAssertEqual(try reopened.documentCount(), 45)
        XCTAssertEqual(try ids("pelican1", reopened).count, 15)
    }

    /// A crashed writer's rollback journal (its process gone, no transaction under way) belongs to the file replaced:
    /// the rename removes it, where the new file's first reader had rolled it in.
    func testARebuildRemovesACrashedWritersJournalOfTheOldFile() throws {
        try importMessages(messages(20))
        let folder = store.directory.viewsPath + "/search"
        let file = folder + "/" + SearchIndex.fileName
        // A journal as a writer killed mid-transaction leaves it (its pages spilled: a small cache), of the file of 20.
        let old = try index()
        try old.db.exec("PRAGMA cache_size=1; BEGIN IMMEDIATE; DELETE FROM docs; DELETE FROM doc_text;")
        let journal = try Data(contentsOf: URL(fileURLWithPath: file + "-journal"))
        try old.db.exec("ROLLBACK")
        // Meanwhile the mail grew, and a rebuild runs with that journal left at the path (its writer gone).
        try importMessages(Array(messages(60)[20...]))
        try journal.write(to: URL(fileURLWithPath: file + "-journal"))
        let rebuilt = try SearchIndex.rebuild(folder: folder, log: store.log)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file + "-journal"))
        let check = try rebuilt.db.prepare("PRAGMA integrity_check")
        _ = try check.step()
        XCTAssertEqual(check.text(0), "ok")
        check.reset()
        XCTAssertEqual(try rebuilt.documentCount(), 60)
        XCTAssertEqual(try ids("pelican2", rebuilt).count, 20)
    }

    /// Transactions that overlap one another (each process's search starting while another's runs) never leave the file
    /// free of a transaction, and had kept a rebuild's rename out for as long as they went on: the rename's gate now
    /// makes new ones wait while those under way end.
    func testOverlappingTransactionsDoNotKeepARebuildOut() throws {
        try importMessages(messages(20))
        let folder = store.directory.viewsPath + "/search"
        let file = folder + "/" + SearchIndex.fileName
        _ = try index()
        let stop = Date().addingTimeInterval(10)
        let ended = DispatchGroup()
        for offset in [0.0, 0.03] {
            let connection = try SearchIndex(path: file)
            ended.enter()
            Thread.detachNewThread {
                defer { ended.leave() }
                Thread.sleep(forTimeInterval: offset)
                // Each holds a transaction 60 ms of every 65: one of the two always has one.
                while Date() < stop {
                    do {
                        try connection.db.exec("BEGIN; SELECT count(*) FROM meta;")
                        Thread.sleep(forTimeInterval: 0.06)
                        try connection.db.exec("COMMIT")
                    } catch {
                        return  // the file was renamed over
                    }
                    Thread.sleep(forTimeInterval: 0.005)
                }
            }
        }
        Thread.sleep(forTimeInterval: 0.3)
        let started = Date()
        let rebuilt = try SearchIndex.rebuild(folder: folder, log: store.log)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "the rename waited for the transactions under way only")
        XCTAssertEqual(ended.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(try rebuilt.documentCount(), 20)
    }

    /// An index opened while a rebuild waits to put its file in place (new transactions held at the gate) is busy, not
    /// damaged: the open tries again. It had told the user the index "cannot be used" and set out to rebuild it.
    func testAnOpenWhileARenameWaitsIsNotTakenForADamagedIndex() throws {
        try importMessages(messages(5))
        _ = try index()
        let folder = store.directory.viewsPath + "/search"
        let holding = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? SearchIndex.whileNoTransaction(folder: folder, notice: { _ in }) {
                holding.signal()
                Thread.sleep(forTimeInterval: 3)
            }
            released.signal()
        }
        holding.wait()
        var notices: [String] = []
        let opened = try SearchIndex.openCurrent(folder: folder, notice: { notices.append($0) })
        XCTAssertEqual(released.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(notices, [])
        XCTAssertEqual(try XCTUnwrap(opened).documentCount(), 5)
    }
}
