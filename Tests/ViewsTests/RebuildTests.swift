import CorpusGenerator
import EventLog
import EventModel
import Foundation
import LMDB
import MailStore
import TestSupport
import Views
import XCTest

final class RebuildTests: ViewsTestCase {
    /// Views folded incrementally, in random batch sizes as mail arrives, equal views rebuilt from scratch.
    func testIncrementalEqualsRebuiltOnAGeneratedCorpus() throws {
        _ = try generateCorpus(CorpusOptions(messages: 2500, outputDirectory: dir.file("md"), seed: 11))
        var options = Importer.Options()
        var rng = SystemRandomNumberGenerator()
        // Import in random chunk sizes, catching the views up after each import step.
        options.batchMessages = Int.random(in: 7...300, using: &rng)
        let importer = try Importer(store: store, options: options)
        var views = try store.openViews()
        var done = 0
        _ = try importer.importMaildir(dir.file("md")) { n, _ in
            if n - done >= Int.random(in: 50...700, using: &rng) {
                try? views.catchUp()
                done = n
            }
        }
        views = try store.openViews()
        try event(.emailCategorized(EmailCategorized(emailID: "nonexistent", category: .social)))
        let (seq, diffs) = try views.compareWithRebuild()
        XCTAssertEqual(seq, try store.log.head().sequence - 1)
        XCTAssertEqual(diffs, [], "incremental views differ from a rebuild")
        XCTAssertGreaterThan(try FetchThreadsUseCase(views: views).fetchThreads(accountId: "local", folderId: "INBOX").threads.count, 0)
    }

    /// The comparison walks both sides: a key only in the live view, a key missing from it and a changed
    /// value are each reported, and nothing else.
    func testAComparisonReportsEachKindOfDifference() throws {
        for i in 0..<30 { try receive("m\(i)") }
        let views = try views()
        XCTAssertEqual(try views.compareWithRebuild().differences, [])
        let emails = try views.environment.openDatabase("threads.emails")
        var keys: [[UInt8]] = []
        try views.entries(of: "threads.emails") { k, _ in keys.append(k) }
        XCTAssertGreaterThan(keys.count, 3)
        try views.environment.write { txn in
            _ = try txn.put(emails, key: keys[0] + [0xFF], value: [1, 2, 3])
            _ = try txn.delete(emails, key: keys[1])
            let old = try txn.getBytes(emails, key: keys[2]) ?? []
            _ = try txn.put(emails, key: keys[2], value: old + [0])
        }
        let all = try views.compareWithRebuild().differences.map(\.description)
        let details = all.filter { $0.hasPrefix("threads: threads.emails: key ") }
        XCTAssertEqual(details.count, 3, "\(all)")
        XCTAssertEqual(details.filter { $0.hasSuffix("only in the live view") }.count, 1)
        XCTAssertEqual(details.filter { $0.hasSuffix("missing from the live view") }.count, 1)
        XCTAssertEqual(details.filter { $0.hasSuffix("has a different value") }.count, 1)
        // The history, written with the views, no longer has their latest values: the same three keys.
        let history = all.filter { $0.hasPrefix("threads: history:threads.emails: key ") }
        XCTAssertEqual(history.count, 3, "\(all)")
        XCTAssertEqual(all.count, 6, "\(all)")
    }

    func testReplayBuildsANewGenerationAndSwitches() throws {
        for i in 0..<40 { try receive("m\(i)") }
        let before = try views().path
        let after = try ViewStore.replay(store: store.directory, log: store.log)
        XCTAssertNotEqual(after.path, before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: before), "the old generation is removed after the switch")
        XCTAssertEqual(try FetchThreadsUseCase(views: after).fetchThreads(accountId: "acct", folderId: "INBOX").threads.count, 25)
        let only = try ViewStore.replay(store: store.directory, log: store.log, views: ["unread"])
        XCTAssertEqual(try FetchThreadsUseCase(views: only).fetchBadgeCount(accountId: "acct"), 40)
        XCTAssertTrue(try only.compareWithRebuild().differences.isEmpty)
    }

    /// A replay of one view copies the others: their history stays right when the log went on past them (more than a
    /// history window), and when no generation was built before. (The build had folded the copied views' tail with the
    /// rebuild's writes held behind, and its window closes wrote no version for the keys held: "has no version".)
    /// Windows of 500 events (`MAILSTORE_HISTORY_WINDOW`, as `ViewHistoryTests` sets it), so that the log goes on past
    /// them with a few hundred events rather than `ViewHistory.windowEvents`' thousands.
    func testReplayingOneViewKeepsTheOthersHistoryRight() throws {
        let window = 500
        setenv("MAILSTORE_HISTORY_WINDOW", "\(window)", 1)
        defer { unsetenv("MAILSTORE_HISTORY_WINDOW") }
        func mail(_ range: Range<Int>) -> [NewEvent] {
            range.map { i in
                NewEvent(event: .emailReceived(EmailReceived(
                    emailID: "h\(i)", folder: "INBOX", messageID: "h\(i)@example.com", subject: "Subject \(i % 50)",
                    from: [EmailAddress(name: "P\(i % 300)", email: "p\(i % 300)@example.com")],
                    date: Timestamp(microseconds: 1_700_000_000_000_000 + Int64(i) * 1_000_000), dateSource: .header,
                    size: 100, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!)),
                         account: "acct", stream: .email("h\(i)"), actor: .sync)
            }
        }
        try store.log.append(mail(0..<200))
        // No generation yet: the replay of one view builds them all.
        let first = try ViewStore.replay(store: store.directory, log: store.log, views: ["contacts"])
        XCTAssertEqual(first.historyWindowEvents, UInt64(window))
        XCTAssertEqual(try first.compareWithRebuild().differences, [])
        try first.catchUp()
        // The log goes on past more than a window's events; the other views are copied behind it.
        try store.log.append(mail(200..<900))  // more than a window (500 events)
        let again = try ViewStore.replay(store: store.directory, log: store.log, views: ["contacts"])
        XCTAssertEqual(Set(try again.checkpoints().values), [try store.log.head().sequence])
        XCTAssertEqual(try again.compareWithRebuild().differences, [])
    }

    /// A replayed generation serves from a compacted copy: no free pages left by the bulk fold's batches.
    func testAReplayedGenerationIsCompacted() throws {
        let events = (0..<15_000).map { i in
            NewEvent(event: .emailReceived(EmailReceived(
                emailID: "c\(i)", folder: "INBOX", messageID: "c\(i)@example.com", references: i % 3 == 0 ? ["c\(i / 2)@example.com"] : [],
                subject: "Subject \(i % 500)", from: [EmailAddress(name: "P\(i % 700)", email: "p\(i % 700)@example.com")],
                date: Timestamp(microseconds: 1_700_000_000_000_000 + Int64(i) * 1_000_000), dateSource: .header,
                snippet: String(repeating: "text \(i) ", count: 20), size: 100, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!)),
                     account: "acct", stream: .email("c\(i)"), actor: .sync)
        }
        try store.log.append(events)
        let live = try ViewStore.replay(store: store.directory, log: store.log)
        let copy = dir.file("compacted-again")
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        try live.environment.copy(to: copy)
        let again = try XCTUnwrap(Environment.fileSize(Environment.dataFile(copy)))
        XCTAssertGreaterThan(again, 1 << 20)
        // Written in key order into a new file: at most the few pages its own first commits freed are left free.
        XCTAssertLessThanOrEqual(again, live.environment.usedBytes)
        XCTAssertLessThanOrEqual(live.environment.usedBytes - again, 32 * live.environment.pageSize,
                                 "compacting the served generation again finds almost nothing to drop")
        XCTAssertTrue(try live.compareWithRebuild().differences.isEmpty)
        XCTAssertEqual(try FetchThreadsUseCase(views: live).fetchBadgeCount(accountId: "acct"), 15_000)
    }

    func testAHalfBuiltGenerationIsDiscardedAndTheOldOneServes() throws {
        for i in 0..<10 { try receive("m\(i)") }
        let live = try views()
        // A replay killed midway leaves a .building folder behind.
        let stale = store.directory.viewsPath + "/gen-99.building"
        try FileManager.default.createDirectory(atPath: stale, withIntermediateDirectories: true)
        try Data("junk".utf8).write(to: URL(fileURLWithPath: stale + "/data.mdb"))
        // And one killed while it copied its generation compacted.
        let staleCopy = store.directory.viewsPath + "/gen-99.compact"
        try FileManager.default.createDirectory(atPath: staleCopy, withIntermediateDirectories: true)
        try Data("junk".utf8).write(to: URL(fileURLWithPath: staleCopy + "/data.mdb"))
        let reopened = try views()
        XCTAssertEqual(reopened.path, live.path, "the old generation keeps serving")
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale), "the half-built folder is removed")
        XCTAssertFalse(FileManager.default.fileExists(atPath: staleCopy), "the half-copied folder is removed")
        XCTAssertEqual(try FetchThreadsUseCase(views: reopened).fetchThreads(accountId: "acct", folderId: "INBOX").threads.count, 10)
    }

    func testChangedSchemaVersionIsRebuiltOnOpenAndTold() throws {
        for i in 0..<5 { try receive("m\(i)") }
        let live = try views()
        // Pretend the threads view was written by an older schema.
        let meta = try live.environment.openDatabase("views.meta")
        try live.environment.write { txn in
            var w = ByteWriter()
            w.write(UInt32(0))
            w.write(UInt64(3))
            try txn.put(meta, key: Array("threads".utf8), value: w.bytes)
        }
        var notices: [String] = []
        let reopened = try store.openViews(notice: { notices.append($0) })
        XCTAssertTrue(notices.contains { $0.contains("schema changed for threads") }, "\(notices)")
        XCTAssertTrue(try reopened.compareWithRebuild().differences.isEmpty)
        XCTAssertEqual(try FetchThreadsUseCase(views: reopened).fetchThreads(accountId: "acct", folderId: "INBOX").threads.count, 5)
    }

    func testATableASchemaNoLongerOpensGoesWithTheRebuild() throws {
        for i in 0..<5 { try receive("m\(i)") }
        let live = try views()
        // An older unread schema's table (unread.messages until schema 4), with rows, and the view stale.
        let retired = try live.environment.openDatabase("unread.retired", flags: .create)
        let meta = try live.environment.openDatabase("views.meta")
        try live.environment.write { txn in
            try txn.put(retired, key: Array("k".utf8), value: Array("v".utf8))
            var w = ByteWriter()
            w.write(UInt32(0))
            w.write(UInt64(3))
            try txn.put(meta, key: Array("unread".utf8), value: w.bytes)
        }
        let kept = try live.environment.openDatabase("threads.keep", flags: .create)
        try live.environment.write { txn in try txn.put(kept, key: Array("k".utf8), value: Array("v".utf8)) }
        var notices: [String] = []
        let reopened = try store.openViews(notice: { notices.append($0) })
        XCTAssertTrue(notices.contains { $0.contains("schema changed for unread") }, "\(notices)")
        XCTAssertNotEqual(reopened.path, live.path)
        let names = try reopened.environment.read { txn in try txn.databaseNames() }
        XCTAssertFalse(names.contains("unread.retired"), "the retired table is gone: \(names)")
        XCTAssertTrue(names.contains("unread.infos"))
        XCTAssertTrue(names.contains("threads.keep"), "another view's tables are copied as they are")
        XCTAssertTrue(try reopened.compareWithRebuild().differences.isEmpty)
    }

    func testCorruptOrMissingViewFilesAreRebuiltOnOpen() throws {
        for i in 0..<5 { try receive("m\(i)") }
        let path = try views().path
        try Data(repeating: 0xAB, count: 64 << 10).write(to: URL(fileURLWithPath: path + "/data.mdb"))
        var notices: [String] = []
        let rebuilt = try store.openViews(notice: { notices.append($0) })
        XCTAssertFalse(notices.isEmpty, "the user is told")
        XCTAssertEqual(try FetchThreadsUseCase(views: rebuilt).fetchThreads(accountId: "acct", folderId: "INBOX").threads.count, 5)
        try FileManager.default.removeItem(atPath: rebuilt.path)
        notices = []
        let again = try store.openViews(notice: { notices.append($0) })
        XCTAssertTrue(notices.contains { $0.contains("missing") })
        XCTAssertEqual(try FetchThreadsUseCase(views: again).fetchThreads(accountId: "acct", folderId: "INBOX").threads.count, 5)
        // The log was never touched.
        XCTAssertTrue(try store.log.verify().isClean)
    }

    func testScratchBuildShowsThePastWithoutTouchingLiveViews() throws {
        for i in 0..<3 { try receive("old\(i)") }
        let cut = try store.log.head().sequence
        for i in 0..<4 { try receive("new\(i)") }
        let live = try views()
        let scratchDir = dir.file("asof")
        let past = try ViewStore.scratch(in: scratchDir, log: store.log, through: cut)
        XCTAssertEqual(try FetchThreadsUseCase(views: past).fetchThreads(accountId: "acct", folderId: "INBOX").threads.count, 3)
        XCTAssertEqual(try FetchThreadsUseCase(views: live).fetchThreads(accountId: "acct", folderId: "INBOX").threads.count, 7)
        XCTAssertEqual(try live.checkpoints()["threads"], try store.log.head().sequence)
    }
}
