import CorpusGenerator
import EventLog
import EventModel
import Foundation
import MailStore
import NativeCodecs
import Projections
import TestSupport
import Views
import XCTest

/// Snapshots of the views: taken by folds at their interval, used by time travel (which must equal a fold
/// from the log's start), skipped when damaged or not what they claim, and pruned to their bounds.
final class ViewSnapshotsTests: SnapshotViewsTestCase {
    var snapshots: ViewSnapshots {
        ViewSnapshots(viewsRoot: store.directory.viewsPath, catalog: .standard, log: store.log)
    }

    /// 450 messages with replies, flags and moves, the live views caught up every 30 events (and each
    /// snapshot they start waited for).
    func fill() throws {
        for i in 0..<450 {
            try receive("m\(i)", messageID: "m\(i)@x", inReplyTo: i % 3 == 0 && i > 0 ? ["m\(i - 1)@x"] : [], from: "p\(i % 17)@example.com")
            if i % 7 == 0 { try event(.flagsChanged(FlagsChanged(emailID: "m\(i)", folder: "INBOX", flags: ["\\Seen"])), stream: .email("m\(i)")) }
            // Snapshots are taken on a thread of their own: each is waited for, so every due one is taken.
            if i % 30 == 0 { try views().waitForSnapshot() }
        }
        try views().waitForSnapshot()
    }

    func testFoldsTakeSnapshotsAndTimeTravelFromThemEqualsAFoldFromZero() throws {
        try fill()
        let taken = snapshots.list().mine
        XCTAssertGreaterThanOrEqual(taken.count, 4, "a snapshot every 100 events at least")
        XCTAssertLessThanOrEqual(taken.count, 8)
        let head = try store.log.head().sequence
        for point in [taken[1].sequence, taken[1].sequence + 37, head - 5, head] {
            let fast = try ViewStore.scratch(in: dir.file("fast-\(point)"), log: store.log, through: point, snapshots: snapshots)
            let slow = try ViewStore.scratch(in: dir.file("slow-\(point)"), log: store.log, through: point)
            XCTAssertEqual(try fast.checkpoints().values.min(), point)
            try assertEqualViews(fast, slow, "as of \(point)")
        }
        // The CLI's path: the store as of a point reads what the fold from zero gives.
        let past = try store.asOf(String(taken[2].sequence + 11))
        XCTAssertEqual(past.snapshotSequence, taken[2].sequence + 11)
    }

    /// Time travel for some views folds only those (from the snapshot: the others stay where it left them) and
    /// refuses to read any other, rather than show it at another point.
    func testTimeTravelForSomeViewsFoldsOnlyThemAndRefusesToReadTheOthers() throws {
        try fill()
        let taken = snapshots.list().mine
        XCTAssertGreaterThanOrEqual(taken.count, 3)
        let point = taken[1].sequence + 37
        let some = try ViewStore.scratch(in: dir.file("some"), log: store.log, through: point, snapshots: snapshots,
                                         only: ["threads", "folders"])
        let every = try ViewStore.scratch(in: dir.file("every"), log: store.log, through: point)
        XCTAssertEqual(try some.checkpoints(), ["threads": point, "folders": point])
        let counts = try assertEqualViews(some, every, "as of \(point)", types: [ThreadsProjector.self, FoldersProjector.self])
        for view in ["threads", "folders"] { XCTAssertGreaterThan(counts[view] ?? 0, 0, "\(view) is empty: the test shows nothing") }
        XCTAssertGreaterThan(try some.threadEmails(id: try XCTUnwrap(every.emailRecord(id: "m1")?.threadID)).count, 0)
        XCTAssertThrowsError(try some.unreadCount(account: "local", folder: "INBOX", category: "all")) { error in
            guard case .unknownTable? = error as? ViewError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try ViewStore.scratch(in: dir.file("nope"), log: store.log, through: point, only: ["nope"])) { error in
            XCTAssertEqual(error as? ViewError, .unknownView("nope"))
        }
    }

    /// A time-travel fold gives back the room it reserved for its batches: the folder's file is its data (a
    /// write map is its file's size), from a snapshot and from zero, and the views read as a fold from zero.
    func testTimeTravelViewsKeepNoRoomOnDisk() throws {
        try fill()
        let taken = snapshots.list().mine
        let point = taken[1].sequence + 37
        var built: [ViewStore] = []
        for (name, from) in [("from-snapshot", snapshots), ("from-zero", nil)] as [(String, ViewSnapshots?)] {
            let folder = dir.file(name)
            let views = try ViewStore.scratch(in: folder, log: store.log, through: point, snapshots: from)
            let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: folder + "/data.mdb")[.size] as? Int)
            XCTAssertEqual(size, views.environment.usedBytes, "\(name): the file holds the data and no room")
            XCTAssertEqual(try views.checkpoints().values.min(), point)
            built.append(views)
        }
        try assertEqualViews(built[0], built[1], "as of \(point)")
        // The next look folds on from them: the map grows again as it needs.
        let later = try store.asOf(String(point + 40))
        XCTAssertEqual(later.snapshotSequence, point + 40)
    }

    func testADamagedOrMislabelledSnapshotIsSkipped() throws {
        try fill()
        let taken = snapshots.list().mine
        XCTAssertGreaterThanOrEqual(taken.count, 3)
        XCTAssertEqual(try views().compareWithRebuild().differences, [], "healthy snapshots pass verify --views")
        let newest = taken[taken.count - 1], older = taken[taken.count - 2], oldest = taken[0]
        // The oldest: the newest's content under the oldest's name (it would show the future).
        try FileManager.default.removeItem(atPath: oldest.path)
        try FileManager.default.copyItem(atPath: newest.path, toPath: oldest.path)
        // The newest: not a zstd frame at all.
        try Data("not a snapshot".utf8).write(to: URL(fileURLWithPath: newest.path))
        for point in [oldest.sequence + 3, newest.sequence + 3, older.sequence] {
            let fast = try ViewStore.scratch(in: dir.file("fast-\(point)"), log: store.log, through: point, snapshots: snapshots)
            let slow = try ViewStore.scratch(in: dir.file("slow-\(point)"), log: store.log, through: point)
            try assertEqualViews(fast, slow, "as of \(point) past a damaged and a mislabelled snapshot")
            // Folding only some views goes through the same check: the mislabelled snapshot would show the future.
            let some = try ViewStore.scratch(in: dir.file("some-\(point)"), log: store.log, through: point, snapshots: snapshots,
                                             only: ["threads"])
            try assertEqualViews(some, slow, "threads alone as of \(point) past a damaged and a mislabelled snapshot",
                                 types: [ThreadsProjector.self])
        }
        // verify --views names both.
        let found = try views().compareWithRebuild().differences.filter { $0.view == "snapshots" }.map(\.table)
        XCTAssertEqual(Set(found), Set([oldest.path, newest.path].map { ($0 as NSString).lastPathComponent }), "\(found)")
    }

    func testPruningKeepsTheCountAndByteBoundsAndTheNewest() throws {
        let root = dir.file("prune")
        let s = ViewSnapshots(viewsRoot: root, catalog: .standard, logBytes: 0, environment: ["MAILSTORE_SNAPSHOT_BUDGET_MB": "1"])
        try FileManager.default.createDirectory(atPath: s.folder, withIntermediateDirectories: true)
        func name(_ seq: Int, _ sig: String) -> String { s.folder + "/" + String(format: "%020d", seq) + "-" + sig + ".zst" }
        for seq in stride(from: 100, through: 2_000, by: 100) {
            try Data(count: 90_000).write(to: URL(fileURLWithPath: name(seq, s.signature)))
        }
        try Data(count: 10).write(to: URL(fileURLWithPath: name(50, "0123456789abcdef")))
        // A dead taker's temporary copy goes; a live one's stays.
        let dead = s.folder + "/.copy-2147483000-7", live = s.folder + "/.packed-\(getpid())-7"
        try FileManager.default.createDirectory(atPath: dead, withIntermediateDirectories: true)
        try Data(count: 10).write(to: URL(fileURLWithPath: live))
        s.prune()
        XCTAssertFalse(FileManager.default.fileExists(atPath: dead))
        XCTAssertTrue(FileManager.default.fileExists(atPath: live))
        try FileManager.default.removeItem(atPath: live)
        let (mine, others) = s.list()
        XCTAssertEqual(others, [], "snapshots of another schema go")
        XCTAssertLessThanOrEqual(mine.count, 8)
        XCTAssertEqual(mine.last?.sequence, 2_000, "the newest stays")
        XCTAssertGreaterThanOrEqual(mine.first!.sequence, 100)
        // The survivors stay spread: no gap is more than three times another.
        let gaps = zip(mine.dropFirst(), mine).map { $0.sequence - $1.sequence }
        XCTAssertLessThanOrEqual(gaps.max()!, 3 * gaps.min()!, "\(mine.map(\.sequence))")
        // A budget of one byte: nothing fits, even the newest.
        let tight = ViewSnapshots(viewsRoot: root, catalog: .standard, logBytes: 0, environment: ["MAILSTORE_SNAPSHOT_BUDGET_MB": "0"])
        tight.prune()
        XCTAssertEqual(tight.list().mine, [])
    }

    func testABudgetOfZeroKeepsNoneAndRemovesThoseLeft() throws {
        try fill()
        XCTAssertFalse(snapshots.list().mine.isEmpty)
        setenv("MAILSTORE_SNAPSHOT_BUDGET_MB", "0", 1)
        for i in 0..<20 { try receive("late\(i)") }
        try views().waitForSnapshot()
        XCTAssertEqual(snapshots.list().mine, [])
    }

    func testZstdFileRoundTripsAndRefusesTruncatedOrOversizedInput() throws {
        var bytes = [UInt8](repeating: 0, count: 3 << 20)
        var rng = SplitMix64(seed: 5)
        for i in stride(from: 0, to: bytes.count, by: 3) { bytes[i] = UInt8(truncatingIfNeeded: rng.next()) }
        let src = dir.file("in"), packed = dir.file("in.zst")
        try Data(bytes).write(to: URL(fileURLWithPath: src))
        let n = try ZstdFile.compress(src, to: packed)
        XCTAssertLessThan(n, bytes.count)
        XCTAssertEqual(try ZstdFile.decompress(packed, to: dir.file("out"), limit: bytes.count), bytes.count)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir.file("out"))), Data(bytes))
        XCTAssertThrowsError(try ZstdFile.decompress(packed, to: dir.file("out2"), limit: bytes.count - 1))
        let whole = try Data(contentsOf: URL(fileURLWithPath: packed))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: dir.file("half.zst")))
        XCTAssertThrowsError(try ZstdFile.decompress(dir.file("half.zst"), to: dir.file("out3"), limit: bytes.count))
        XCTAssertThrowsError(try ZstdFile.compress(src, to: packed), "an existing output is not overwritten")
    }

    /// `compress` hands its transform whole 1 MiB pieces of the file in order (the last one shorter) and
    /// compresses what the transform made of them; the file itself stays as it was.
    func testZstdFileCompressesWhatItsTransformMakesOfEachPiece() throws {
        var rng = SplitMix64(seed: 9)
        let bytes = (0..<((3 << 20) + 5)).map { _ in UInt8(truncatingIfNeeded: rng.next()) | 1 }
        let src = dir.file("t-in"), packed = dir.file("t-in.zst")
        try Data(bytes).write(to: URL(fileURLWithPath: src))
        var sizes: [Int] = []
        try ZstdFile.compress(src, to: packed) { piece in
            sizes.append(piece.count)
            piece[0] = 0
        }
        XCTAssertEqual(sizes, [1 << 20, 1 << 20, 1 << 20, 5])
        XCTAssertEqual(try ZstdFile.decompress(packed, to: dir.file("t-out"), limit: bytes.count), bytes.count)
        var expected = bytes
        for at in stride(from: 0, to: bytes.count, by: 1 << 20) { expected[at] = 0 }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir.file("t-out"))), Data(expected))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: src)), Data(bytes))
    }
}
