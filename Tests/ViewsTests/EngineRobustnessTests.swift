import EventLog
import EventModel
import Foundation
import LMDB
import MailStore
import Projections
import TestSupport
import Views
import XCTest

/// The views engine survives what it folds and what it finds on disk: a failing projector quarantines
/// one event and goes on; damaged files say to replay (never to restore a backup); a store whose views
/// folder cannot be written is read without writing anything.
final class EngineRobustnessTests: ViewsTestCase {
    var flaky: ViewCatalog {
        ViewCatalog([FlakyThreadsProjector.self] + ViewCatalog.all.filter { $0.name != .threads })
    }

    func page(_ views: ViewStore) throws -> [ThreadRow] {
        try views.read { try ThreadsReader($0).page(scope: "acct", folder: "INBOX", category: nil, after: nil, limit: 100).threads }
    }

    func testAFailingProjectorQuarantinesTheEventAndCatchUpGoesOn() throws {
        try folder("INBOX", role: .inbox)
        for i in 0..<5 { try receive("m\(i)", subject: i == 2 ? "boom" : "hello \(i)") }
        let views = try ViewStore.open(store: store.directory, log: store.log, catalog: flaky)
        let q = try views.quarantined()
        XCTAssertEqual(q.count, 1)
        XCTAssertEqual(q.first?.view, "threads")
        XCTAssertTrue(q.first?.error.contains("injected bug") ?? false)
        let subjects = Set(try page(views).map(\.subject))
        XCTAssertEqual(subjects, ["hello 0", "hello 1", "hello 3", "hello 4"], "the event's half-made changes are dropped, the rest folded")
        // The other views folded the event: it is only quarantined for the view that failed.
        XCTAssertEqual(try views.read { try UnreadReader($0).count(account: "acct", folder: "INBOX", category: "all") }, 5)
        // Later events still fold, and the views equal a rebuild by the same code.
        try receive("m9", subject: "later")
        try views.catchUp()
        XCTAssertTrue(try page(views).contains { $0.subject == "later" })
        XCTAssertEqual(try views.compareWithRebuild().differences, [])
        // A replay with the bug fixed (the standard catalog) folds it again.
        let fixed = try ViewStore.replay(store: store.directory, log: store.log)
        XCTAssertEqual(try fixed.quarantined(), [])
        XCTAssertTrue(try page(fixed).contains { $0.subject == "boom" })
    }

    func testManyFailuresInOneBatchAreEachQuarantined() throws {
        for i in 0..<300 { try receive("m\(i)", subject: i % 3 == 0 ? "boom" : "ok") }
        let views = try ViewStore.open(store: store.directory, log: store.log, catalog: flaky)
        XCTAssertEqual(try views.quarantined().count, 100)
        XCTAssertEqual(try views.checkpoints()["threads"], try store.log.head().sequence)
    }

    /// In a batch big enough for two cores the contacts view folds on the second: its failures are quarantined
    /// event by event too, and what it folds equals a fold on one core.
    func testAFailureOnTheSecondCoreIsQuarantinedAndTwoCoresEqualOne() throws {
        for i in 0..<2_400 {
            try receive("m\(i)", subject: i % 500 == 7 ? "boom" : "ok", from: "p\(i % 97)@example.com", name: "Person \(i % 89)")
        }
        // Threads fail too, on this thread, while the second one may still be folding contacts.
        let flakyContacts = ViewCatalog([FlakyThreadsProjector.self] + ViewCatalog.all.filter { $0.name != .contacts && $0.name != .threads }
                                        + [FlakyContactsProjector.self])
        let two = try ViewStore.scratch(in: dir.file("two"), log: store.log, catalog: flakyContacts, through: try store.log.head().sequence)
        let one = try ViewStore.scratch(in: dir.file("one"), log: store.log, catalog: flakyContacts, through: try store.log.head().sequence,
                                        twoCores: false)
        let quarantined = try two.quarantined()
        XCTAssertEqual(quarantined.filter { $0.view == "contacts" }.count, 5, "\(quarantined)")
        XCTAssertEqual(quarantined.filter { $0.view == "threads" }.count, 5, "\(quarantined)")
        XCTAssertTrue(quarantined.allSatisfy { $0.error.contains("injected bug") })
        XCTAssertEqual(quarantined, try one.quarantined())
        for table in ViewCatalog.tables(of: ContactsProjector.self) + ViewCatalog.tables(of: ThreadsProjector.self) {
            var a: [[UInt8]] = [], b: [[UInt8]] = []
            try two.entries(of: table) { k, v in a.append(k + [0xFF] + v) }
            try one.entries(of: table) { k, v in b.append(k + [0xFF] + v) }
            XCTAssertTrue(a == b, "\(table): \(a.count) vs \(b.count) entries")
            if table == "contacts.people" { XCTAssertEqual(a.count, 98, "97 senders and the recipient") }
        }
        XCTAssertEqual(try two.checkpoints()["contacts"], try store.log.head().sequence)
    }

    /// An action over many copies folds the unread, actions and notifications views on the second core: the
    /// live views (caught up with the action alone in its batch) equal a fold on one core, and the counters moved
    /// with the copies.
    func testABigActionFoldsUnreadOnTheSecondCoreAndEqualsOneCore() throws {
        var targets: [ActionTarget] = []
        for i in 0..<400 {
            let id = try receive("m\(i)", flags: i % 4 == 0 ? ["\\Seen"] : [])
            targets.append(ActionTarget(emailID: id, folder: "INBOX", flags: i % 4 == 0 ? ["\\Seen"] : []))
        }
        let live = try views()
        XCTAssertEqual(try live.unreadCount(account: "acct", folder: "INBOX", category: "all"), 300)
        XCTAssertEqual(ViewStore.secondCoreViews(events: 1, decoded: [.threadArchived(ThreadAction(threadIDs: [], targets: targets, destination: "Archive"))]),
                       [ViewName.unread.rawValue, ViewName.actions.rawValue, ViewName.notifications.rawValue])
        try event(.threadArchived(ThreadAction(threadIDs: targets.map(\.emailID), targets: targets, destination: "Archive")), stream: "action-1")
        try live.catchUp()
        XCTAssertEqual(try live.unreadCount(account: "acct", folder: "INBOX", category: "all"), 0)
        XCTAssertEqual(try live.unreadCount(account: "acct", folder: "Archive", category: "all"), 300)
        let one = try ViewStore.scratch(in: dir.file("one"), log: store.log, through: try store.log.head().sequence, twoCores: false)
        for table in ViewCatalog.all.flatMap({ ViewCatalog.tables(of: $0) }) {
            var a: [[UInt8]] = [], b: [[UInt8]] = []
            try live.entries(of: table) { k, v in a.append(k + [0xFF] + v) }
            try one.entries(of: table) { k, v in b.append(k + [0xFF] + v) }
            XCTAssertTrue(a == b, "\(table): \(a.count) vs \(b.count) entries")
            if table == "actions.byEmail" { XCTAssertEqual(a.count, 400, "the action, folded on the second core, lists its copies") }
        }
    }

    /// In an action over many copies the threads view's changes are encoded on a thread of their own while the
    /// second core's views are written. When one of those views fails on the action, the batch is folded again
    /// with the first fold's changes (the threads view's encoded ones included) dropped: the failing view
    /// quarantines the action alone, and every view equals a fold on one core.
    func testABigActionFailingOnTheSecondCoreIsQuarantinedWithTheThreadsViewEncodedAside() throws {
        var targets: [ActionTarget] = []
        for i in 0..<300 {
            let id = try receive("m\(i)", flags: i % 3 == 0 ? ["\\Seen"] : [])
            targets.append(ActionTarget(emailID: id, folder: "INBOX", flags: i % 3 == 0 ? ["\\Seen"] : []))
        }
        let catalog = ViewCatalog(ViewCatalog.all.filter { $0.name != .unread } + [FlakyUnreadProjector.self])
        let live = try ViewStore.open(store: store.directory, log: store.log, catalog: catalog)
        try event(.threadArchived(ThreadAction(threadIDs: targets.map(\.emailID), targets: targets, destination: "boom")), stream: "action-1")
        try live.catchUp()
        let head = try store.log.head().sequence
        let quarantined = try live.quarantined()
        XCTAssertEqual(quarantined.map(\.view), ["unread"], "\(quarantined)")
        XCTAssertEqual(quarantined.first?.sequence, head)
        XCTAssertEqual(try live.checkpoints()["threads"], head)
        // The threads view folded the action: every thread is listed under the destination.
        let moved = try live.read { try ThreadsReader($0).page(scope: "acct", folder: "boom", category: nil, after: nil, limit: 500).threads }
        XCTAssertEqual(moved.count, 300)
        XCTAssertEqual(try page(live), [])
        let one = try ViewStore.scratch(in: dir.file("one"), log: store.log, catalog: catalog, through: head, twoCores: false)
        XCTAssertEqual(try one.quarantined(), quarantined)
        try assertEqualViews(live, one, "two cores, the threads view encoded aside, against one")
    }

    func testDamagedViewFilesAreRebuiltOrSayReplayNeverBackup() throws {
        for i in 0..<20 { try receive("m\(i)") }
        let live = try views()
        let file = live.path + "/data.mdb"
        // Scribble over the pages after the two meta pages.
        let fh = try XCTUnwrap(FileHandle(forWritingAtPath: file))
        try fh.seek(toOffset: 8192)
        try fh.write(contentsOf: Data(repeating: 0xA5, count: 64 * 1024))
        try fh.close()
        var notices: [String] = []
        do {
            let healed = try ViewStore.open(store: store.directory, log: store.log, notice: { notices.append($0) })
            _ = try healed.read { try ThreadsReader($0).page(scope: "acct", folder: "INBOX", category: nil, after: nil, limit: 5) }
        } catch {
            let text = "\(error)"
            XCTAssertTrue(text.contains("mailstore replay"), text)
            XCTAssertFalse(text.contains("backup"), text)
            // And replay heals it.
            let rebuilt = try ViewStore.replay(store: store.directory, log: store.log)
            XCTAssertEqual(try page(rebuilt).count, 20)
        }
        XCTAssertFalse(notices.contains { $0.contains("backup") })
    }

    func testAHalfBuiltGenerationOfALiveBuilderIsLeftAlone() throws {
        for i in 0..<5 { try receive("m\(i)") }
        _ = try views()
        let root = store.directory.viewsPath
        let building = root + "/gen-50.building"
        try FileManager.default.createDirectory(atPath: building, withIntermediateDirectories: true)
        // A builder holds the build lock: opening must not remove its folder.
        let fd = open(root + "/BUILD", O_RDWR | O_CREAT, 0o600)
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        _ = try views()
        XCTAssertTrue(FileManager.default.fileExists(atPath: building), "a live builder's folder stays")
        flock(fd, LOCK_UN)
        close(fd)
        _ = try views()
        XCTAssertFalse(FileManager.default.fileExists(atPath: building), "once its builder is gone it is removed")
    }

    func testConcurrentReplaysInThreadsSerializeAndAllSucceed() throws {
        for i in 0..<200 { try receive("m\(i)") }
        _ = try views()
        let directory = store.directory, log = store.log
        let tasks = (0..<3).map { _ in
            BackgroundTask { _ = try ViewStore.replay(store: directory, log: log) }
        }
        for t in tasks { try t.wait(seconds: 120) }
        let gens = try FileManager.default.contentsOfDirectory(atPath: directory.viewsPath).filter { $0.hasPrefix("gen-") }
        XCTAssertEqual(gens.count, 1, "one generation left: \(gens)")
        XCTAssertEqual(try page(try views()).count, 100)
    }

    func testAReadOnlyStoreIsReadWithoutWritingAnything() throws {
        try folder("INBOX", role: .inbox)
        for i in 0..<10 { try receive("m\(i)") }
        _ = try views()
        try receive("m10") // the views are now behind the log
        let path = store.directory.path
        store = nil
        // A read-only bind mount of the store (root ignores file modes, so a mount it must be).
        guard let mount = ReadOnlyMount(path) else {
            // In CI (root on this machine kind) the mount works: there a failure to mount is a failure.
            if ProcessInfo.processInfo.environment["CI"] == "true" { return XCTFail("cannot make a read-only bind mount") }
            throw XCTSkip("cannot make a read-only bind mount here")
        }
        defer { withExtendedLifetime(mount) {} }
        let before = try ReadOnlyMount.listing(path)
        // The private copy goes in this user's scratch root in $TMPDIR; one a killed process left there (its lock file
        // held by no process) is removed by the next (each had stayed for good, a copy of the store's views).
        let root = try XCTUnwrap(ScratchFolder.temporaryRoot())
        let abandoned = root + "/views-killed\(getpid())"
        try FileManager.default.createDirectory(atPath: abandoned, withIntermediateDirectories: false)
        XCTAssertTrue(FileManager.default.createFile(atPath: abandoned + "/data.mdb", contents: Data("views".utf8)))
        XCTAssertTrue(FileManager.default.createFile(atPath: abandoned + ".lock", contents: nil))
        let others = Set(try FileManager.default.contentsOfDirectory(atPath: root)).subtracting([abandoned, abandoned + ".lock"].map { ($0 as NSString).lastPathComponent })
        let copies = { Set(try FileManager.default.contentsOfDirectory(atPath: root)).subtracting(others).filter { $0.hasPrefix("views-") } }
        do {
            let ro = try MailStore.open(at: path, readOnly: true)
            var notices: [String] = []
            let views = try ViewStore.open(store: ro.directory, log: ro.log, notice: { notices.append($0) })
            XCTAssertEqual(try page(views).count, 11, "the private copy is caught up with the log")
            XCTAssertTrue(notices.contains { $0.contains("read-only") }, "\(notices)")
            XCTAssertEqual(try ReadOnlyMount.listing(path), before, "nothing in the store changed")
            XCTAssertFalse(FileManager.default.fileExists(atPath: abandoned), "a killed process's private copy is removed")
            XCTAssertEqual(try copies().filter { !$0.hasSuffix(".lock") }.count, 1, "the private copy is in the scratch root")
        }
        XCTAssertEqual(try copies(), [], "the private copy and its lock file are removed once released")
    }
}
