import CorpusGenerator
import EventLog
import EventModel
import Foundation
import LMDB
import MailStore
import Projections
import TestSupport
@testable import Views
import XCTest

/// The views' history (`ViewHistory`): its keys keep the views' order, every point of the log read from it equals a
/// fold from the log's start (windows, the events after one, views folded again, failing views), `verify --views`
/// checks it, and views written without one are rebuilt with one.
final class ViewHistoryTests: ViewsTestCase {
    override func setUpWithError() throws {
        // Windows of 50 events, so a few hundred events make many windows and points between them.
        setenv("MAILSTORE_HISTORY_WINDOW", "50", 1)
        try super.setUpWithError()
    }

    override func tearDown() {
        unsetenv("MAILSTORE_HISTORY_WINDOW")
        super.tearDown()
    }

    /// `MAILSTORE_HISTORY_WINDOW` is bounded: a value past the most a window may hold is cut to it (a look at a past
    /// point folds up to a window's events), and one that is not a count of at least 1 leaves the default.
    func testTheWindowSizeFromTheEnvironmentIsBounded() throws {
        let cases: [(String, UInt64)] = [
            ("50", 50), ("99999999999999999", 1 << 20), ("18446744073709551616", ViewsStatus.historyWindowEvents),
            ("0", ViewsStatus.historyWindowEvents), ("-5", ViewsStatus.historyWindowEvents),
            ("lots", ViewsStatus.historyWindowEvents), ("", ViewsStatus.historyWindowEvents),
        ]
        for (i, (text, expected)) in cases.enumerated() {
            setenv("MAILSTORE_HISTORY_WINDOW", text, 1)
            let views = try ViewStore.scratch(in: dir.file("window-\(i)"), log: store.log, through: 0)
            XCTAssertEqual(views.historyWindowEvents, expected, "MAILSTORE_HISTORY_WINDOW=\(text)")
        }
    }

    /// 450 messages with replies, flags, moves and expunges, folded live in small batches (every 30 events) and one
    /// big one at the end.
    func fill(_ count: Int = 450) throws {
        try folder("INBOX", role: .inbox)
        try folder("Archive", role: .archive)
        for i in 0..<count {
            try receive("m\(i)", messageID: "m\(i)@x", inReplyTo: i % 3 == 0 && i > 0 ? ["m\(i - 1)@x"] : [], from: "p\(i % 17)@example.com")
            if i % 7 == 0 { try event(.flagsChanged(FlagsChanged(emailID: "m\(i)", folder: "INBOX", flags: ["\\Seen"])), stream: .email("m\(i)")) }
            if i % 11 == 5 { try receive("m\(i)", folder: "Archive", messageID: "m\(i)@x", from: "p\(i % 17)@example.com") }
            if i % 13 == 6 { try event(.emailExpunged(EmailExpunged(emailID: "m\(i - 1)", folder: "INBOX")), stream: .email("m\(i - 1)")) }
            if i % 30 == 0 { try store.latestViews().catchUp() }
            if i == count * 2 / 3 {
                // A batch of 200 events folded at once, spanning several windows' worth.
                for j in 0..<200 { try receive("bulk\(j)", messageID: "bulk\(j)@x", from: "q\(j % 5)@example.com") }
            }
        }
        try store.latestViews().catchUp()
    }

    /// The views at `point` folded from the log's start in a scratch folder (no history).
    func fromZero(_ point: UInt64, only: [String]? = nil) throws -> ViewStore {
        try ViewStore.scratch(in: dir.file("zero-\(point)-\(UUID().uuidString.prefix(6))"), log: store.log, through: point, only: only)
    }

    func windowEnds(_ views: ViewStore) throws -> [UInt64] {
        views.waitForPendingClose()
        var ends: [UInt64] = []
        let d = try XCTUnwrap(try views.environment.openDatabases([ViewHistory.windowsTable], flags: [])[ViewHistory.windowsTable])
        try views.environment.read { txn in
            try txn.withCursor(d) { c in
                var e = try c.first()
                while let entry = e {
                    ends.append(entry.key.reduce(0) { $0 << 8 | UInt64($1) })
                    e = try c.next()
                }
            }
        }
        return ends
    }

    // MARK: - Keys

    /// `stats`' longest window (the point `bench scale` looks at for the longest tail) is, of the windows holding the
    /// most events, the latest: the views are biggest there, so a look folds the most into them.
    func testTheLongestWindowIsTheLatestOfTheLongest() throws {
        try fill()
        let views = try store.latestViews()
        let ends = try windowEnds(views)
        let lengths = zip(ends, [0] + ends).map { $0 - $1 }
        let most = try XCTUnwrap(lengths.max())
        XCTAssertGreaterThan(lengths.filter { $0 == most }.count, 1, "the test needs windows of equal length: \(lengths)")
        let latest = ends[try XCTUnwrap(lengths.lastIndex(of: most))]
        let found = try XCTUnwrap(try views.historyWindows().longest)
        XCTAssertEqual(found.end, latest)
        XCTAssertEqual(found.events, most)
        XCTAssertEqual(try store.viewsStatus()?.historyLongestWindow?.end, latest)
    }

    func testHistoryKeysKeepTheViewsKeyOrderAndGroupEachKeysVersions() throws {
        var rng = SplitMix64(seed: 11)
        var keys: [[UInt8]] = [[], [0], [0, 0], [0, 1], [1], [1, 0], [1, 0, 0], [0xFF], [0xFF, 0], [0, 0xFF], [0, 0xFF, 0]]
        for _ in 0..<400 {
            let n = Int(rng.next() % 40)
            // Few distinct bytes, many zeros: prefixes and escapes everywhere.
            keys.append((0..<n).map { _ in [0, 0, 1, 0xFF, 7][Int(rng.next() % 5)] })
        }
        // Long keys, some of them cut: over ~250 bytes with many zeros.
        keys.append([UInt8](repeating: 0, count: 300))
        keys.append([UInt8](repeating: 0, count: 300) + [1])
        keys.append([UInt8](repeating: 7, count: 500))
        keys = Array(Set(keys.map { $0 })).sorted { $0.lexicographicallyPrecedes($1) }
        var encoded: [(stored: [UInt8], key: [UInt8], window: UInt32, cut: Bool)] = []
        for k in keys {
            for w: UInt32 in [1, 2, 255, 256, 70_000, .max] {
                var out: [UInt8] = []
                let cut = k.withUnsafeBytes { HistoryKey.encode($0, window: w, into: &out) }
                XCTAssertLessThanOrEqual(out.count, 511, "every stored key fits LMDB's limit")
                // Appended after other bytes, the body is the same and what was there stays.
                var after: [UInt8] = [9, 0, 9]
                k.withUnsafeBytes { _ = HistoryKey.appendBody(of: $0, to: &after) }
                XCTAssertEqual(after, [9, 0, 9] + out.dropLast(HistoryKey.windowBytes))
                encoded.append((out, k, w, cut))
            }
        }
        XCTAssertEqual(encoded.filter(\.cut).map(\.key).count / 6, 2, "exactly the two long keys with many zeros are cut")
        let sorted = encoded.sorted { $0.stored.lexicographicallyPrecedes($1.stored) }
        // Each key's versions lie together, oldest window first; uncut keys keep their order.
        var seen: [[UInt8]] = []
        for (i, e) in sorted.enumerated() {
            if seen.last != e.key {
                XCTAssertFalse(seen.contains(e.key), "the versions of a key lie together")
                seen.append(e.key)
            } else {
                XCTAssertLessThan(sorted[i - 1].window, e.window)
            }
            let (window, body) = e.stored.withUnsafeBytes { (HistoryKey.window(of: $0), HistoryKey.body(of: $0).map { Array($0) }) }
            XCTAssertEqual(window, e.window)
            if !e.cut {
                var back: [UInt8] = []
                XCTAssertTrue(body!.withUnsafeBytes { HistoryKey.decode(body: $0, into: &back) })
                XCTAssertEqual(back, e.key)
            }
        }
        let uncut = seen.filter { k in !encoded.contains { $0.key == k && $0.cut } }
        XCTAssertEqual(uncut, uncut.sorted { $0.lexicographicallyPrecedes($1) }, "keys keep LMDB's order")
        // A stored key that is not one is refused, not misread.
        XCTAssertNil([UInt8]([1, 2, 3]).withUnsafeBytes { HistoryKey.window(of: $0) })
        var out: [UInt8] = []
        XCTAssertFalse([UInt8]([5, 0, 7, 0, 0]).withUnsafeBytes { HistoryKey.decode(body: $0, into: &out) }, "a lone zero byte")
    }

    // MARK: - Points of the log

    func testEveryPointReadFromTheHistoryEqualsAFoldFromZero() throws {
        try fill()
        let live = try store.latestViews()
        let head = try store.log.head().sequence
        let ends = try windowEnds(live)
        XCTAssertGreaterThan(ends.count, 10, "windows of 50 events: \(ends)")
        XCTAssertEqual(ends, ends.sorted())
        for (a, b) in zip(ends, ends.dropFirst()) { XCTAssertLessThanOrEqual(b - a, 50, "no window holds more than 50 events") }
        var points: [UInt64] = [0, 1, 2, head - 1, head]
        for e in ends.prefix(3) + ends.suffix(3) { points += [e - 1, e, e + 1] }
        points += [ends[ends.count / 2] + 17, ends[ends.count / 3] + 33]
        for point in Set(points).sorted() where point <= head {
            let past = try live.past(at: point)
            XCTAssertLessThanOrEqual(point - past.startedFrom, 50, "at most one window's events folded after the history")
            XCTAssertEqual(try past.checkpoints().values.min(), point)
            try assertEqualViews(past, try fromZero(point), "as of \(point)")
        }
        // The CLI's path: the store as of a point reads what the fold from zero gives.
        let p = ends[4] + 9
        let past = try store.asOf(String(p))
        XCTAssertEqual(past.snapshotSequence, p)
        try assertEqualViews(try past.views(), try fromZero(p), "asOf(\(p))")
        XCTAssertThrowsError(try past.commit([NewEvent(event: .folderDiscovered(FolderDiscovered(folder: "X", displayName: "X", role: .custom)),
                                                       account: "acct", stream: .folder(account: "acct", path: "X"), actor: .sync)]))
        // verify --views checks the history too, and finds nothing wrong.
        XCTAssertEqual(try live.compareWithRebuild().differences, [])
    }

    /// A point in time with a fraction of a second is the end of that fraction's span, read to the microsecond: `log`'s
    /// `recordedAt` (cut to the millisecond) given back takes in the event recorded then. The formatter had read the
    /// milliseconds alone as an instant, so the event recorded in that millisecond's later microseconds was left out.
    func testAPointWithAFractionOfASecondTakesInTheEventsRecordedInIt() throws {
        try fill(60)
        let head = try store.log.head().sequence
        // An event whose recorded time is not on a millisecond, the last one recorded in its millisecond.
        var found: (UInt64, Timestamp)?
        for seq in stride(from: head, to: 1, by: -1) {
            guard let at = try store.log.event(at: seq)?.envelope.recordedAt, at.microseconds % 1_000 != 0,
                  try store.log.event(at: seq + 1)?.envelope.recordedAt.microseconds ?? .max >= (at.microseconds / 1_000 + 1) * 1_000
            else { continue }
            found = (seq, at)
            break
        }
        let (seq, at) = try XCTUnwrap(found)
        XCTAssertEqual(try store.asOf(at.iso8601).snapshotSequence, seq, "\(at.iso8601): log's own rendering")
        let us = at.microseconds % 1_000_000
        let secondText = String(at.iso8601.prefix(19))
        func point(_ fraction: String) -> String { secondText + "." + fraction + "Z" }
        XCTAssertEqual(try store.asOf(point(String(format: "%06lld", us))).snapshotSequence, seq, "to the microsecond")
        XCTAssertEqual(try store.asOf(point(String(format: "%06lld", us) + "999")).snapshotSequence, seq, "digits past the sixth are cut")
        XCTAssertLessThan(try store.asOf(point(String(format: "%06lld", us - 1))).snapshotSequence ?? .max, seq, "a microsecond before")
        // As `log` reads a second: a space for the T, no zone (UTC).
        let spaced = secondText.replacingOccurrences(of: "T", with: " ")
        XCTAssertEqual(try store.asOf(spaced + "." + String(format: "%06lld", us)).snapshotSequence, seq, "a space, no zone")
        XCTAssertEqual(try store.asOf(secondText + "." + String(format: "%06lld", us)).snapshotSequence, seq, "no zone")
        XCTAssertThrowsError(try store.asOf(String(secondText.prefix(16)) + ".5Z"), "a fraction of a minute")
        XCTAssertThrowsError(try store.asOf(secondText + ".Z"))
        XCTAssertThrowsError(try store.asOf(secondText + ".1234567890Z"))
    }

    /// Time travel for some views folds only those and refuses to read any other, rather than show it at another point.
    func testAPastPointOfSomeViewsFoldsOnlyThemAndRefusesTheOthers() throws {
        try fill(150)
        let live = try store.latestViews()
        let ends = try windowEnds(live)
        let point = ends[1] + 23
        let some = try live.past(at: point, only: ["threads", "folders"])
        XCTAssertEqual(try some.checkpoints(), ["threads": point, "folders": point])
        let counts = try assertEqualViews(some, try fromZero(point), "as of \(point)", types: [ThreadsProjector.self, FoldersProjector.self])
        for view in ["threads", "folders"] { XCTAssertGreaterThan(counts[view] ?? 0, 0, "\(view) is empty: the test shows nothing") }
        XCTAssertThrowsError(try some.unreadCount(account: "acct", folder: "INBOX", category: "all")) { error in
            guard case .unknownTable? = error as? ViewError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try live.past(at: point, only: ["nope"])) { XCTAssertEqual($0 as? ViewError, .unknownView("nope")) }
        XCTAssertThrowsError(try some.past(at: point)) { XCTAssertEqual($0 as? ViewError, .pastPoint) }
        XCTAssertThrowsError(try some.catchUp()) { XCTAssertEqual($0 as? ViewError, .pastPoint) }
    }

    /// A view folded again from empty (`replay --view V`, a schema change) writes its versions into the windows its
    /// events lie in: every point still equals a fold from zero, and the history still passes `verify --views`.
    func testAViewFoldedAgainKeepsTheWindowsAndEveryPointRight() throws {
        try fill(300)
        let before = try windowEnds(try store.latestViews())
        try store.replay(view: .threads)
        // More events after the rebuild, then every view again.
        for i in 0..<80 { try receive("late\(i)", messageID: "late\(i)@x", inReplyTo: ["m\(i)@x"]) }
        let live = try store.latestViews()
        let ends = try windowEnds(live)
        XCTAssertEqual(Array(ends.prefix(before.count)), before, "the windows stay where they were")
        XCTAssertGreaterThan(ends.count, before.count)
        for point in [before[2] + 7, before[before.count - 1] - 3, ends[ends.count - 1] + 1, try store.log.head().sequence] {
            try assertEqualViews(try live.past(at: point), try fromZero(point), "as of \(point) after threads was folded again")
        }
        XCTAssertEqual(try live.compareWithRebuild().differences, [])
        try store.replay()
        let replayed = try store.latestViews()
        let point = before[3] + 11
        try assertEqualViews(try replayed.past(at: point), try fromZero(point), "as of \(point) after a full replay")
    }

    /// A view failing on an event after the window's end: the past point quarantines it, as the fold from zero does,
    /// and its other changes are what that fold gives.
    func testAViewFailingAfterTheWindowsEndIsQuarantinedAsAFoldFromZeroDoes() throws {
        let flaky = ViewCatalog([FlakyThreadsProjector.self] + ViewCatalog.all.filter { $0.name != .threads })
        try folder("INBOX", role: .inbox)
        for i in 0..<120 { try receive("m\(i)", subject: i == 77 ? "boom" : "Hello \(i)") }
        let live = try ViewStore.open(store: store.directory, log: store.log, catalog: flaky)
        let boom = try XCTUnwrap(live.quarantined().first { $0.view == "threads" }?.sequence)
        let ends = try windowEnds(live)
        let window = try XCTUnwrap(ends.last { $0 < boom })
        XCTAssertLessThan(window, boom)
        let point = boom + 3
        let past = try live.past(at: point)
        XCTAssertEqual(past.startedFrom, window)
        XCTAssertEqual(try past.quarantined().filter { $0.view == "threads" }.map(\.sequence), [boom])
        let zero = try ViewStore.scratch(in: dir.file("flaky-zero"), log: store.log, catalog: flaky, through: point)
        try assertEqualViews(past, zero, "as of \(point) past a failing event")
        // Before the failure: nothing quarantined.
        XCTAssertEqual(try live.past(at: boom - 1).quarantined().filter { $0.view == "threads" }, [])
    }

    /// Scouts folding a look's tail ahead of it (`PastPrefetch`, to read its pages side by side when they are not
    /// cached) change nothing it reads: made to fold every tail whole, in parts of 4 events, never stopping at their
    /// probe, the views at each point equal a fold from zero, and so does a look past an event a view fails on
    /// (quarantined as before; the scout that met it just stops).
    func testScoutsFoldingTheTailAheadChangeNothingALookReads() throws {
        let eager = PastPrefetch.Scouting(minimumEvents: 1, partEvents: 4, coldFaults: 0)
        // One part for the whole tail: the parts' bounds must not overflow.
        let whole = PastPrefetch.Scouting(minimumEvents: 1, partEvents: .max, coldFaults: 0)
        try fill(150)
        let live = try store.latestViews()
        let head = try store.log.head().sequence
        let ends = try windowEnds(live)
        for scouting in [eager, whole] {
            var scouted: UInt64 = 0
            for point in [ends[1] + 23, ends[2] + 49, ends[ends.count / 2] + 10, head] where point <= head {
                let past = try live.past(at: point, scouting: scouting)
                try assertEqualViews(past, try fromZero(point), "as of \(point) with scouts, parts of \(scouting.partEvents)")
                scouted += past.scoutedEvents
                XCTAssertEqual(try live.past(at: point, scouting: .off).scoutedEvents, 0)
            }
            XCTAssertGreaterThan(scouted, 0, "the scouts folded nothing: the test shows nothing")
        }

        let flaky = ViewCatalog([FlakyThreadsProjector.self] + ViewCatalog.all.filter { $0.name != .threads })
        for i in 0..<120 { try receive("f\(i)", subject: i == 77 ? "boom" : "Hello \(i)") }
        let failing = try ViewStore.open(store: store.directory, log: store.log, catalog: flaky)
        let boom = try XCTUnwrap(failing.quarantined().first { $0.view == "threads" }?.sequence)
        let past = try failing.past(at: boom + 3, scouting: eager)
        XCTAssertEqual(try past.quarantined().filter { $0.view == "threads" }.map(\.sequence), [boom])
        let zero = try ViewStore.scratch(in: dir.file("flaky-zero"), log: store.log, catalog: flaky, through: boom + 3)
        try assertEqualViews(past, zero, "as of \(boom + 3) past a failing event, with scouts")
    }

    /// A window closes once it holds enough bytes of versions too, so what a look folds into memory stays bounded
    /// however big each event's changes are.
    func testAWindowClosesAtItsBytesToo() throws {
        let live = try store.latestViews()
        live.historyWindowBytes = 4_096
        try folder("INBOX", role: .inbox)
        for i in 0..<40 { try receive("m\(i)", subject: String(repeating: "long subject \(i) ", count: 20)); try live.catchUp() }
        let ends = try windowEnds(live)
        XCTAssertGreaterThan(ends.count, 3, "\(ends)")
        XCTAssertLessThan(ends.count, 40)
        let point = ends[2] + 1
        try assertEqualViews(try live.past(at: point), try fromZero(point), "as of \(point)")
    }

    /// Every entry of the history's tables and windows, table by table (after any close left running).
    func historyEntries(_ views: ViewStore) throws -> [String: [[UInt8]]] {
        views.waitForPendingClose()
        let names = views.catalog.types.flatMap { ViewCatalog.tables(of: $0) }.map(ViewHistory.table) + [ViewHistory.windowsTable]
        let tables = try views.environment.openDatabases(names, flags: [])
        var out: [String: [[UInt8]]] = [:]
        try views.environment.read { txn in
            for (name, d) in tables {
                try txn.withCursor(d) { c in
                    var e = try c.first()
                    while let entry = e {
                        out[name, default: []].append(Array(entry.key) + [0xEE] + Array(entry.value))
                        e = try c.next()
                    }
                }
            }
        }
        return out
    }

    /// A live fold whose last batch makes the open window due returns with the window's close left running on a thread
    /// of its own (an action does not wait for the window's versions to be written), and that close writes exactly
    /// what a close inside the batch writes: the same windows, the same versions.
    func testAWindowsCloseLeftRunningAfterAFoldWritesWhatACloseInItsBatchWrites() throws {
        var histories: [[String: [[UInt8]]]] = []
        for deferring in [false, true] {
            store = try MailStore.create(at: dir.file("store-\(deferring)"))
            clock = 1_700_000_000_000_000
            try store.views().closesWindowsAfterFold = deferring
            try fill(200)
            let live = try store.views()
            // One event more, folded alone: its batch makes the open window due (windows close past half their events).
            var more = 0
            while try windowEnds(live).last.map({ try store.log.head().sequence - $0 < 24 }) ?? true {
                try receive("more\(more)")
                more += 1
                try live.catchUp()
            }
            try receive("last", messageID: "last@x")
            try live.catchUp()
            XCTAssertEqual(live.closeLeftRunning, deferring, "the close is left running only when the fold may leave it")
            let head = try store.log.head().sequence
            XCTAssertEqual(try windowEnds(live).last, head, "the window closed at the fold's last event")
            XCTAssertFalse(live.closeLeftRunning, "waited for")
            histories.append(try historyEntries(live))
            XCTAssertEqual(try live.compareWithRebuild().differences, [])
        }
        XCTAssertEqual(histories[0].keys.sorted(), histories[1].keys.sorted())
        for name in histories[0].keys.sorted() {
            let (a, b) = (histories[0][name] ?? [], histories[1][name] ?? [])
            XCTAssertEqual(a.count, b.count, name)
            XCTAssertNil(Array(zip(a, b)).firstIndex { $0.0 != $0.1 }, "\(name): the first entry that differs")
        }
    }

    /// A new store's live views after `fill(count)`, folded one event at a time until the open window is one fold from
    /// due (24 events of 50 in it), with closes left running (`leftRunning`) written 3 versions a chunk.
    func viewsOneFoldFromADueWindow(_ name: String, fill count: Int, leftRunning: Bool = true) throws -> ViewStore {
        store = try MailStore.create(at: dir.file(name))
        clock = 1_700_000_000_000_000
        let live = try store.views()
        live.closesWindowsAfterFold = leftRunning
        live.closeChunkKeys = 3
        try fill(count)
        live.waitForPendingClose()
        var more = 0
        while try windowEnds(live).last.map({ try store.log.head().sequence - $0 < 24 }) ?? true {
            try receive("more\(more)")
            more += 1
            try live.catchUp()
        }
        return live
    }

    /// Asserts that two histories (`historyEntries`) hold the same tables and entries.
    func assertEqualHistories(_ a: [String: [[UInt8]]], _ b: [String: [[UInt8]]], _ label: String = "",
                              file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.keys.sorted(), b.keys.sorted(), label, file: file, line: line)
        for name in a.keys.sorted() {
            let (x, y) = (a[name] ?? [], b[name] ?? [])
            XCTAssertEqual(x.count, y.count, "\(name) \(label)", file: file, line: line)
            XCTAssertNil(Array(zip(x, y)).firstIndex { $0.0 != $0.1 }, "\(name) \(label): the first entry that differs", file: file, line: line)
        }
    }

    /// A fold that comes while a close left running writes its versions (a write transaction for each few keys here)
    /// waits only for the close's read of the window's end: it returns before the close has written anything, its
    /// changes belong to the next window (they stay in the change log when the close ends), and the histories equal
    /// those of closes inside their batches: the window closed where the fold that left it ended, and the next one
    /// closes later with the versions of its own changes.
    func testAFoldWhileACloseLeftRunningWritesFoldsIntoTheNextWindowWithoutWaitingForIt() throws {
        var histories: [[[String: [[UInt8]]]]] = []
        for leftRunning in [false, true] {
            let live = try viewsOneFoldFromADueWindow("store-\(leftRunning)", fill: 200, leftRunning: leftRunning)
            // The close's writes are held until the fold below has returned (opened after 20 s at the latest, so that a
            // fold which waits for the whole close fails the test rather than hangs it).
            let gate = CloseGate(live, openingAfter: 20)
            try receive("last", messageID: "last@x")
            try live.catchUp()
            let closedAt = try store.log.head().sequence
            XCTAssertEqual(live.closeLeftRunning, leftRunning)
            for i in 0..<3 { try receive("during\(i)", from: "d\(i)@example.com") }
            try live.catchUp()
            XCTAssertFalse(gate.openedByTimer, "the fold returned without waiting for the close's writes")
            if leftRunning { XCTAssertTrue(live.closeLeftRunning, "the close still holds its writes") }
            gate.open()
            XCTAssertEqual(try windowEnds(live).last, closedAt, "the window closed where the fold that left it ended")
            XCTAssertEqual(try live.compareWithRebuild().differences, [], "the next window's changes are still the change log's")
            var runHistories = [try historyEntries(live)]
            // The next window closes with its own changes, the three folded during the close among them.
            let ends = try windowEnds(live).count
            var more = 0
            repeat {
                try receive("after\(more)")
                more += 1
                try live.catchUp()
            } while try windowEnds(live).count == ends
            runHistories.append(try historyEntries(live))
            XCTAssertEqual(try live.compareWithRebuild().differences, [])
            histories.append(runHistories)
        }
        for stage in 0..<2 { assertEqualHistories(histories[0][stage], histories[1][stage], "stage \(stage)") }
    }

    /// A fold that would take the next window to half its events while a close left running writes waits for that
    /// close first (windows close in order, and none holds more than its events): it returns only once the close has
    /// written, and the history is the views'.
    func testAFoldReachingHalfTheNextWindowWaitsForACloseLeftRunning() throws {
        try fill(200)
        let live = try store.views()
        live.closeChunkKeys = 3
        live.waitForPendingClose()
        while try windowEnds(live).last.map({ try store.log.head().sequence - $0 < 24 }) ?? true {
            try receive("more\(UUID().uuidString.prefix(6))")
            try live.catchUp()
        }
        let gate = CloseGate(live, openingAfter: 1)
        try receive("last", messageID: "last@x")
        try live.catchUp()
        let closedAt = try store.log.head().sequence
        XCTAssertTrue(live.closeLeftRunning)
        for i in 0..<25 { try receive("during\(i)", from: "d\(i)@example.com") }
        try live.catchUp()
        XCTAssertTrue(gate.openedByTimer, "the fold waited for the close")
        XCTAssertTrue(try windowEnds(live).contains(closedAt), "the window closed where the fold that left it ended")
        XCTAssertEqual(try live.compareWithRebuild().differences, [])
    }

    /// A close left running whose window another fold closed first (another process's, in its batch, with every key's
    /// version at its own end) writes nothing: its chunks and its last write find the last closed window moved on.
    func testACloseWhoseWindowAnotherFoldClosedFirstWritesNothing() throws {
        try fill(60)
        let live = try store.views()
        live.waitForPendingClose()
        live.closesWindowsAfterFold = false
        live.closeChunkKeys = 3
        live.historyWindowEvents = 1_000
        for i in 0..<30 { try receive("n\(i)") }
        try live.catchUp()
        // Due where the views stand: the close a fold would leave running, read as it reads it.
        live.historyWindowEvents = 50
        let now = try store.log.head().sequence
        let plan = try live.environment.read { txn -> WindowClose? in
            let scope = TransactionScope(txn)
            defer { scope.end() }
            return try live.planClose(at: now, scope: scope)
        }
        XCTAssertNotNil(plan, "due at \(now)")
        XCTAssertGreaterThan(plan?.heldBytes ?? 0, 0)
        // Another fold closes the window first, in its batch, one event later.
        try receive("first", from: "other@example.com")
        try live.catchUp()
        XCTAssertEqual(try windowEnds(live).last, now + 1)
        let before = try historyEntries(live)
        try live.writeClose(try XCTUnwrap(plan))
        XCTAssertEqual(try historyEntries(live), before, "nothing written")
        XCTAssertEqual(try live.compareWithRebuild().differences, [])
    }

    /// A close left running that fails between two of its chunks (a full disk; here a failure put before its third)
    /// leaves versions of a window that is not closed: a look at a closed window's end still equals a fold from the
    /// log's start, the history check finds nothing, and the next fold closes the window in its batch with every key's
    /// version: the same history as after a close that failed before writing anything.
    func testACloseLeftRunningFailingBetweenChunksLeavesTheWindowOpenAndTheHistoryRight() throws {
        struct DiskFull: Error {}
        var histories: [[String: [[UInt8]]]] = []
        for failsBetweenChunks in [false, true] {
            let live = try viewsOneFoldFromADueWindow("store-\(failsBetweenChunks)", fill: 120)
            let ends = try windowEnds(live)
            nonisolated(unsafe) var chunks = 0
            if failsBetweenChunks {
                live.beforeCloseChunk = {
                    chunks += 1
                    if chunks == 3 { throw DiskFull() }
                }
            } else {
                live.beforeWindowCloses = { throw DiskFull() }
            }
            try receive("last", messageID: "last@x")
            try live.catchUp()
            XCTAssertTrue(live.closeLeftRunning)
            XCTAssertEqual(try windowEnds(live), ends, "the failed close closed nothing")
            XCTAssertTrue(live.lastCloseFailure is DiskFull)
            if failsBetweenChunks { XCTAssertEqual(chunks, 3, "two chunks written before the failure") }
            let point = try XCTUnwrap(ends.last)
            try assertEqualViews(try live.past(at: point), try fromZero(point), "as of \(point)")
            XCTAssertEqual(try live.compareWithRebuild().differences, [])
            live.beforeCloseChunk = nil
            live.beforeWindowCloses = nil
            try receive("next")
            try live.catchUp()
            XCTAssertEqual(try windowEnds(live), ends + [try store.log.head().sequence], "closed by the next fold, in its batch")
            XCTAssertEqual(try live.compareWithRebuild().differences, [])
            histories.append(try historyEntries(live))
        }
        assertEqualHistories(histories[0], histories[1])
    }

    /// Holds the writes of a close left running by `views` (`beforeCloseChunk`) until `open()` or, at the latest,
    /// `seconds` later (then `openedByTimer`).
    final class CloseGate: @unchecked Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var timerOpened = false
        private var timer: DispatchWorkItem?

        init(_ views: ViewStore, openingAfter seconds: Double) {
            let semaphore = semaphore
            views.beforeCloseChunk = {
                semaphore.wait()
                semaphore.signal()
            }
            let timer = DispatchWorkItem { [self] in
                lock.withLock { timerOpened = true }
                semaphore.signal()
            }
            self.timer = timer
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: timer)
        }

        /// Whether the timer opened the gate (before `open()`).
        var openedByTimer: Bool { lock.withLock { timerOpened } }

        /// Lets the close write.
        func open() {
            timer?.cancel()
            semaphore.signal()
        }
    }

    /// The store's end waits for a close left running (a command's process exits once its store is gone), and a close
    /// asked for where the views no longer stand (another process folded first) closes nothing, where a close asked
    /// for where they stand closes the window there.
    func testACloseLeftRunningEndsWithTheStoreAndClosesNothingOnceTheViewsMovedOn() throws {
        try fill(60)
        var live: ViewStore? = try store.views()
        // (A fold with nothing to fold returns while a close left running writes: the fill's last one is done first.)
        live!.waitForPendingClose()
        let path = dir.file("store")
        repeat {
            try receive("m\(UUID().uuidString.prefix(6))")
            try live!.catchUp()
        } while !live!.closeLeftRunning
        let head = try store.log.head().sequence
        live = nil
        store = nil
        store = try MailStore.open(at: path)
        live = try store.views()
        let before = try windowEnds(live!)
        XCTAssertEqual(before.last, head, "closed before the store went")
        // A close asked for where the views no longer stand (they moved on before it ran) closes nothing; asked for
        // where they stand, it closes the window there.
        live!.closesWindowsAfterFold = false
        live!.historyWindowEvents = 1_000
        for i in 0..<30 { try receive("n\(i)") }
        try live!.catchUp()
        let now = try store.log.head().sequence
        XCTAssertEqual(try windowEnds(live!), before, "not due: no window closed")
        live!.historyWindowEvents = 50
        live!.closeWindowAfterFold(at: now - 1)
        XCTAssertEqual(try windowEnds(live!), before, "no window ends where the views no longer stand")
        live!.closeWindowAfterFold(at: now)
        XCTAssertEqual(try windowEnds(live!), before + [now])
        XCTAssertEqual(try live!.compareWithRebuild().differences, [])
    }

    /// A close left running that fails (a full disk; here a failure put before the close writes) leaves the window open
    /// and is not lost: the next fold closes the window inside its batch, so a failure that lasts reaches that fold's
    /// caller (its events stay unfolded, and the fold after it tries again); once a fold closed the window in its batch,
    /// closes are left running again.
    func testAFailedCloseLeftRunningIsClosedByTheNextFoldInItsBatchWhereAFailureReachesItsCaller() throws {
        struct DiskFull: Error {}
        try fill(60)
        let live = try store.views()
        let before = try windowEnds(live)
        live.beforeWindowCloses = { throw DiskFull() }
        repeat {
            try receive("m\(UUID().uuidString.prefix(6))")
            try live.catchUp()
        } while !live.closeLeftRunning
        let due = try store.log.head().sequence
        XCTAssertEqual(try windowEnds(live), before, "the failed close closed nothing")
        XCTAssertTrue(live.lastCloseFailure is DiskFull, "the failure is kept for the next fold")

        // The next fold closes in its batch: the failure reaches its caller, and is kept for the fold after it.
        try receive("next")
        XCTAssertThrowsError(try live.catchUp()) { XCTAssertTrue($0 is DiskFull, "\($0)") }
        XCTAssertFalse(live.closeLeftRunning, "nothing left running: the fold closes in its batch")
        XCTAssertTrue(live.lastCloseFailure is DiskFull)
        XCTAssertEqual(try windowEnds(live), before)
        XCTAssertLessThan(try live.checkpoints().values.min() ?? 0, try store.log.head().sequence, "its events not folded")

        // The disk has room again: the next fold closes the window in its batch.
        live.beforeWindowCloses = nil
        try live.catchUp()
        XCTAssertFalse(live.closeLeftRunning, "closed in the batch, nothing left running")
        XCTAssertNil(live.lastCloseFailure)
        let ends = try windowEnds(live)
        XCTAssertEqual(Array(ends.dropLast()), before, "one window more")
        XCTAssertGreaterThan(ends.last ?? 0, due, "closed by the next fold, at its end")
        XCTAssertEqual(try live.compareWithRebuild().differences, [])

        // Once a fold closed in its batch, closes are left running again.
        repeat {
            try receive("m\(UUID().uuidString.prefix(6))")
            try live.catchUp()
        } while !live.closeLeftRunning
        XCTAssertEqual(try windowEnds(live).count, ends.count + 1)
        XCTAssertNil(live.lastCloseFailure)
    }

    /// A batch's changed keys go to the change log as one entry per table; entries an older build wrote, one key
    /// each, are still read when the window closes: the window's versions are the views either way.
    func testTheChangeLogReadsEntriesOfOneKeyAsAnOlderBuildWroteThem() throws {
        try fill(60)
        let live = try store.views()
        live.closesWindowsAfterFold = false
        live.historyWindowEvents = 1_000
        for i in 0..<20 { try receive("o\(i)", inReplyTo: i % 2 == 1 ? ["o\(i - 1)@example.com"] : []) }
        try live.catchUp()
        let log = try XCTUnwrap(live.changeLog)
        // The open window's log, rewritten as an older build wrote it: an entry per key.
        var changes: [(String, [UInt8])] = []
        try live.environment.write { txn in
            let scope = TransactionScope(txn)
            defer { scope.end() }
            var entries = 0
            try scope.withCursor(log.database) { c in
                var e = try c.first()
                while let entry = e {
                    XCTAssertEqual(entry.value.first, 0, "a batch's keys are written as one entry per table")
                    XCTAssertTrue(ChangeLog.forEachChange(in: entry.value) { t, k in
                        changes.append((String(decoding: t, as: UTF8.self), Array(k)))
                    })
                    entries += 1
                    e = try c.next()
                }
            }
            XCTAssertLessThan(entries, changes.count, "fewer entries than keys")
            try scope.clear(log.database)
            for (i, (table, key)) in changes.enumerated() {
                let value = [UInt8(table.utf8.count)] + Array(table.utf8) + [UInt8(key.count >> 8), UInt8(key.count & 0xFF)] + key
                try ChangeLog.serialKey(UInt64(i + 1)).withUnsafeBytes { k in try value.withUnsafeBytes { try scope.append(log.database, k, $0) } }
            }
        }
        XCTAssertGreaterThan(changes.count, 20)
        // More changes in the new form beside them, then the window closes.
        for i in 0..<5 { try receive("p\(i)") }
        live.historyWindowEvents = 50
        try live.catchUp()
        let head = try store.log.head().sequence
        XCTAssertEqual(try windowEnds(live).last, head)
        XCTAssertEqual(try live.compareWithRebuild().differences, [])
        let point = head - 1
        try assertEqualViews(try live.past(at: point), try fromZero(point), "as of \(point)")
        // A damaged entry is refused, not misread.
        XCTAssertFalse(ChangeLog.forEachChange(in: UnsafeRawBufferPointer(start: nil, count: 0)) { _, _ in })
        for bad: [UInt8] in [[0], [0, 0], [0, 3, 97], [0, 1, 97, 0], [0, 1, 97, 0, 5, 1], [2, 97]] {
            XCTAssertFalse(bad.withUnsafeBytes { ChangeLog.forEachChange(in: $0) { _, _ in } }, "\(bad)")
        }
    }

    // MARK: - Damage and older views

    /// `verify --views` names a history whose versions are not the views, and a past point over a damaged version
    /// says the views are damaged rather than show something else.
    func testADamagedHistoryIsFoundByVerifyAndRefusedByTimeTravel() throws {
        try fill(100)
        let live = try store.latestViews()
        let table = ViewHistory.table("threads.emails")
        var damagedKey: [UInt8] = []
        let d = try XCTUnwrap(try live.environment.openDatabases([table], flags: [])[table])
        try live.environment.write { txn in
            var k: [UInt8] = []
            try txn.withCursor(d) { c in
                // The first key's version of an early window: read by every later point until a newer version.
                k = Array(try XCTUnwrap(try c.first()).key)
            }
            damagedKey = k
            try txn.put(d, key: k, value: [9, 9, 9])
        }
        XCTAssertFalse(damagedKey.isEmpty)
        let diffs = try live.compareWithRebuild().differences
        XCTAssertTrue(diffs.contains { $0.table == table }, "\(diffs)")
        let head = try store.log.head().sequence
        XCTAssertThrowsError(try live.past(at: head).entries(of: "threads.emails") { _, _ in }) { error in
            guard case .damaged? = error as? ViewError else { return XCTFail("\(error)") }
        }
        // Scouts folding the tail ahead (`PastPrefetch`) read the damage too: they stop, and the look refuses as before.
        let eager = PastPrefetch.Scouting(minimumEvents: 1, partEvents: 4, coldFaults: 0)
        XCTAssertThrowsError(try live.past(at: head, scouting: eager).entries(of: "threads.emails") { _, _ in }) { error in
            guard case .damaged? = error as? ViewError else { return XCTFail("\(error)") }
        }
        // A replay rebuilds it.
        try store.replay()
        XCTAssertEqual(try store.latestViews().compareWithRebuild().differences, [])
    }

    /// A scan of the history tells its caller every few versions it steps over, whether it hands them on or not: the
    /// deleted keys' versions (a thread's old index entries, expunged copies) are stepped over without a call of the
    /// scan's body, and `verify --views` releases the pages they map there (at 1M messages a walk over them had
    /// taken it from 123 to 202 MiB within a second, where it released by the entries handed on).
    func testAHistoryScanCountsTheVersionsItStepsOverWhetherItHandsThemOnOrNot() throws {
        try fill()
        let live = try store.latestViews()
        // The history read directly: a close the fill left running is done first.
        live.waitForPendingClose()
        var steppedOver = 0
        try live.environment.read { txn in
            let scope = TransactionScope(txn)
            defer { scope.end() }
            for table in live.historyTables.keys.sorted() {
                guard let history = live.historyTables[table], let view = live.databases[table] else { return XCTFail(table) }
                let versions = try Self.entries(txn, history), entries = try Self.entries(txn, view)
                let reader = HistoryReader(scope: scope, tables: live.historyTables, window: .max)
                reader.stepInterval = 8
                var calls = 0, handed = 0
                reader.onSteps = { calls += 1 }
                try reader.scanBorrowed(table, from: []) { _, _ in
                    handed += 1
                    return true
                }
                XCTAssertEqual(handed, entries, "\(table): the latest versions are the view's entries")
                XCTAssertEqual(reader.steps, versions, table)
                XCTAssertEqual(calls, versions / 8, table)
                steppedOver += versions - handed
            }
        }
        // Versions of deleted keys and of earlier windows, stepped over without a call of the scan's body.
        XCTAssertGreaterThan(steppedOver, 1_000)
    }

    /// The entries of `d`.
    private static func entries(_ txn: borrowing Transaction, _ d: Database) throws -> Int {
        var n = 0
        try txn.withCursor(d) { c in
            var e = try c.first()
            while e != nil {
                n += 1
                e = try c.next()
            }
        }
        return n
    }

    /// Views written by a build that kept no history are rebuilt with one when opened (told), and a read-only look
    /// at a past point of such views folds from the log's start instead.
    func testViewsWithoutAHistoryAreRebuiltWithOne() throws {
        try fill(100)
        let views = try store.latestViews()
        let meta = try XCTUnwrap(try views.environment.openDatabases([ViewStore.metaTable], flags: [])[ViewStore.metaTable])
        try views.environment.write { txn in
            XCTAssertTrue(try txn.delete(meta, key: Array("history".utf8)))
        }
        XCTAssertThrowsError(try views.past(at: 50)) { error in
            guard case .noHistory? = error as? ViewError else { return XCTFail("\(error)") }
        }
        // The store's own path falls back to a fold from zero.
        let fallback = try store.asOf("60", views: ["threads", "folders"])
        try assertEqualViews(try fallback.views(), try fromZero(60), "as of 60 without a history", types: [ThreadsProjector.self, FoldersProjector.self])
        let told = Locked<[String]>([])
        let reopened = try ViewStore.open(store: store.directory, log: store.log) { note in told.withLock { $0.append(note) } }
        XCTAssertTrue(told.withLock { $0 }.contains { $0.contains("history") }, "\(told.withLock { $0 })")
        XCTAssertTrue(try reopened.hasHistory())
        try assertEqualViews(try reopened.past(at: 60), try fromZero(60), "as of 60 after the rebuild")
    }

    /// A build that keeps no history folding views that have one (an older build sharing the store) leaves the views
    /// past what the history recorded: they are rebuilt when a build that keeps one opens them, never read as if the
    /// history had those changes.
    func testViewsFoldedByABuildWithoutHistoriesAreRebuilt() throws {
        try fill(60)
        let views = try store.latestViews()
        XCTAssertTrue(try views.hasHistory())
        // What such a build leaves: the views' checkpoints moved on, the history's record of its folds not.
        let meta = try XCTUnwrap(try views.environment.openDatabases([ViewStore.metaTable], flags: [])[ViewStore.metaTable])
        try views.environment.write { txn in
            var w = ByteWriter()
            w.write(ThreadsProjector.schemaVersion)
            w.write(try store.log.head().sequence + 1)
            try txn.put(meta, key: Array("threads".utf8), value: w.bytes)
        }
        XCTAssertFalse(try views.hasHistory())
        XCTAssertThrowsError(try views.past(at: 20)) { error in
            guard case .noHistory? = error as? ViewError else { return XCTFail("\(error)") }
        }
        let told = Locked<[String]>([])
        let reopened = try ViewStore.open(store: store.directory, log: store.log) { note in told.withLock { $0.append(note) } }
        XCTAssertTrue(told.withLock { $0 }.contains { $0.contains("history") }, "\(told.withLock { $0 })")
        XCTAssertTrue(try reopened.hasHistory())
        try assertEqualViews(try reopened.past(at: 40), try fromZero(40), "as of 40 after the rebuild")
    }
}
