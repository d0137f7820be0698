import EventLog
import Foundation
import LMDB
import MailStore
import Projections
import Views
import XCTest

/// The past views a time travel keeps (`PastViews`): the next look at the same point reads them as they are, a
/// later point folds on from them; anything not what it claims (damaged, another log, in use, another catalog,
/// snapshots off) costs a rebuild, never a wrong answer.
extension ViewSnapshotsTests {
    var threadsOnly: [String] { ["threads", "folders"] }

    /// The threads and folders views as of `point`, folded from the log's start (no snapshot, nothing kept).
    func fromZero(_ point: UInt64) throws -> ViewStore {
        try ViewStore.scratch(in: dir.file("zero-\(point)-\(UUID().uuidString.prefix(6))"), log: store.log, through: point,
                              only: ["threads", "folders"])
    }

    func pastFolder(_ views: [String]) throws -> String {
        PastViews(viewsRoot: store.directory.viewsPath, catalog: try ViewCatalog.standard.restricted(to: views)).folder
    }

    func testTimeTravelKeepsItsViewsForTheNextLookAndFoldsOnFromThem() throws {
        try fill()
        let taken = snapshots.list().mine
        XCTAssertGreaterThanOrEqual(taken.count, 3)
        let p = taken[1].sequence + 37
        XCTAssertLessThan(p + 20, taken[2].sequence, "the points must lie between two snapshots")

        var past: MailStore? = try store.asOf(String(p), views: threadsOnly)
        XCTAssertEqual(past?.asOfStartedFrom, taken[1].sequence, "the first look restores the snapshot before it")
        try assertEqualViews(try XCTUnwrap(past).views(), try fromZero(p), "as of \(p)", types: [ThreadsProjector.self, FoldersProjector.self])
        past = nil

        // The same point again (the next page): the kept views as they are, no fold.
        var folded: UInt64 = 0
        past = try store.asOf(String(p), views: threadsOnly) { done, _ in folded = done }
        XCTAssertEqual(past?.asOfStartedFrom, p)
        XCTAssertEqual(folded, 0)
        try assertEqualViews(try XCTUnwrap(past).views(), try fromZero(p), "as of \(p) again", types: [ThreadsProjector.self, FoldersProjector.self])
        past = nil

        // A later point folds on from them.
        past = try store.asOf(String(p + 20), views: threadsOnly)
        XCTAssertEqual(past?.asOfStartedFrom, p)
        try assertEqualViews(try XCTUnwrap(past).views(), try fromZero(p + 20), "as of \(p + 20)", types: [ThreadsProjector.self, FoldersProjector.self])
        past = nil

        // An earlier point cannot unfold them: built again from the snapshot before it.
        past = try store.asOf(String(p - 10), views: threadsOnly)
        XCTAssertEqual(past?.asOfStartedFrom, taken[1].sequence)
        try assertEqualViews(try XCTUnwrap(past).views(), try fromZero(p - 10), "as of \(p - 10)", types: [ThreadsProjector.self, FoldersProjector.self])
        past = nil

        // Past the next snapshot, the snapshot is nearer than the kept views: restored instead.
        past = try store.asOf(String(taken[2].sequence + 3), views: threadsOnly)
        XCTAssertEqual(past?.asOfStartedFrom, taken[2].sequence)
        past = nil
        XCTAssertTrue(FileManager.default.fileExists(atPath: try pastFolder(threadsOnly) + "/LOG"))
    }

    func testKeptPastViewsAreRebuiltWhenDamagedFromAnotherLogOrInUse() throws {
        try fill()
        let taken = snapshots.list().mine
        XCTAssertGreaterThanOrEqual(taken.count, 3)
        let p = taken[1].sequence + 37
        let folder = try pastFolder(threadsOnly)

        // In use by another time travel: the second folds in a scratch folder of its own, from the snapshot.
        var holder: MailStore? = try store.asOf(String(p), views: threadsOnly)
        var second: MailStore? = try store.asOf(String(p + 5), views: threadsOnly)
        XCTAssertEqual(second?.asOfStartedFrom, taken[1].sequence)
        try assertEqualViews(try XCTUnwrap(second).views(), try fromZero(p + 5), "as of \(p + 5) beside one in use",
                             types: [ThreadsProjector.self, FoldersProjector.self])
        second = nil
        holder = nil
        XCTAssertNil(holder)
        XCTAssertEqual(try store.asOf(String(p), views: threadsOnly).asOfStartedFrom, p, "given up with the store that held them")

        // Recorded for another log (its chain hash there differs): rebuilt.
        try "\(p) \(String(repeating: "0", count: 64))\n".write(toFile: folder + "/LOG", atomically: true, encoding: .utf8)
        XCTAssertEqual(try store.asOf(String(p), views: threadsOnly).asOfStartedFrom, taken[1].sequence)

        // A LOG naming another sequence than the views stand at (a fold killed midway): rebuilt.
        try "\(p - 1) \(try XCTUnwrap(store.log.chainHash(at: p - 1)).map { String(format: "%02x", $0) }.joined())\n"
            .write(toFile: folder + "/LOG", atomically: true, encoding: .utf8)
        XCTAssertEqual(try store.asOf(String(p), views: threadsOnly).asOfStartedFrom, taken[1].sequence)
        XCTAssertEqual(try store.asOf(String(p), views: threadsOnly).asOfStartedFrom, p)

        // A LOG far over its 128-byte bound (the right line padded with 1 MiB of spaces): not read, rebuilt.
        let hex = try XCTUnwrap(store.log.chainHash(at: p)).map { String(format: "%02x", $0) }.joined()
        try Data(("\(p) \(hex)" + String(repeating: " ", count: 1 << 20) + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/LOG"))
        XCTAssertEqual(try store.asOf(String(p), views: threadsOnly).asOfStartedFrom, taken[1].sequence)
        XCTAssertEqual(try store.asOf(String(p), views: threadsOnly).asOfStartedFrom, p)

        // A damaged file under a good LOG: rebuilt, and the answer is right.
        let data = Environment.dataFile(folder)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: data))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 8192))
        try handle.close()
        let past = try store.asOf(String(p), views: threadsOnly)
        XCTAssertEqual(past.asOfStartedFrom, taken[1].sequence)
        try assertEqualViews(try past.views(), try fromZero(p), "as of \(p) past damaged kept views", types: [ThreadsProjector.self, FoldersProjector.self])
    }

    func testOneSetOfPastViewsIsKeptNoneAfterAReplayAndNoneWithSnapshotsOff() throws {
        try fill()
        let p = try XCTUnwrap(snapshots.list().mine.first).sequence + 11
        _ = try store.asOf(String(p), views: threadsOnly)
        _ = try store.asOf(String(p), views: ["contacts"])
        let root = store.directory.viewsPath + "/past"
        let kept = try FileManager.default.contentsOfDirectory(atPath: root).filter { !$0.hasSuffix(".lock") }
        XCTAssertEqual(kept, [(try pastFolder(["contacts"]) as NSString).lastPathComponent], "the other catalog's set is removed")

        // A replay drops them: time travel starts afresh with the rebuilt views.
        try store.replay(view: .folders)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root).filter { !$0.hasSuffix(".lock") }, [])
        XCTAssertEqual(try store.asOf(String(p), views: threadsOnly).asOfStartedFrom, try XCTUnwrap(snapshots.list().mine.first).sequence)

        try FileManager.default.removeItem(atPath: root)
        setenv("MAILSTORE_SNAPSHOT_BUDGET_MB", "0", 1)
        let past = try store.asOf(String(p), views: threadsOnly)
        try assertEqualViews(try past.views(), try fromZero(p), "as of \(p) with snapshots off", types: [ThreadsProjector.self, FoldersProjector.self])
        XCTAssertFalse(FileManager.default.fileExists(atPath: root), "nothing kept with snapshots off")
    }
}
