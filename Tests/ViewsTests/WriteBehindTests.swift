import EventLog
import EventModel
import Foundation
import LMDB
import MailStore
import Projections
import TestSupport
@testable import Views
import XCTest

/// A fold into a private folder holds its writes in memory across batches and writes them out in key order
/// (`WriteBehind`): what it holds is read back, undone with an aborted transaction, merged into scans, and the
/// views it leaves equal a live fold's, batch for batch.
final class WriteBehindTests: ViewsTestCase {
    private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    private func write(_ held: WriteBehind, _ table: String, _ key: String, _ value: String?) {
        bytes(key).withUnsafeBytes { k in
            if let value { bytes(value).withUnsafeBytes { held.write(table, k, $0) } } else { held.write(table, k, nil) }
        }
    }

    private func value(_ lookup: WriteBehind.Lookup) -> String? {
        switch lookup {
        case .value(let v): return String(decoding: v, as: UTF8.self)
        case .deleted: return "<deleted>"
        case .notHere: return nil
        }
    }

    func testHeldWritesAreReadBackUndoneOnAbortAndTakenInKeyOrder() {
        let held = WriteBehind()
        XCTAssertTrue(held.isEmpty)
        write(held, "t", "b", "1")
        write(held, "t", "a", "2")
        write(held, "u", "x", "3")
        held.commit()
        XCTAssertEqual(value(held.lookup("t", bytes("b"))), "1")
        XCTAssertNil(value(held.lookup("t", bytes("c"))), "a key never written is read from the B-tree")
        XCTAssertNil(value(held.lookup("v", bytes("b"))), "nor is another table's")
        let committed = held.bytes
        // A transaction that aborts: its changes, deletions and new keys go, what was committed stays.
        write(held, "t", "b", "changed")
        write(held, "t", "a", nil)
        write(held, "t", "c", "new")
        write(held, "t", "b", "changed again")
        XCTAssertEqual(value(held.lookup("t", bytes("b"))), "changed again")
        XCTAssertEqual(value(held.lookup("t", bytes("a"))), "<deleted>")
        held.abort()
        XCTAssertEqual(value(held.lookup("t", bytes("b"))), "1")
        XCTAssertEqual(value(held.lookup("t", bytes("a"))), "2")
        XCTAssertNil(value(held.lookup("t", bytes("c"))))
        XCTAssertEqual(held.bytes, committed, "the bytes held are those before the transaction")
        // One that commits keeps a deletion, which the write-out carries to the B-tree.
        write(held, "t", "a", nil)
        write(held, "t", "ab", "4")
        held.commit()
        XCTAssertEqual(held.tablesHeld.sorted(), ["t", "u"])
        var taken: [String] = []
        try? held.take("t").forEach { k, v in
            taken.append(String(decoding: Array(k), as: UTF8.self) + "=" + (v.map { String(decoding: Array($0), as: UTF8.self) } ?? "<deleted>"))
        }
        XCTAssertEqual(taken, ["a=<deleted>", "ab=4", "b=1"], "byte order, a key before the longer keys it starts")
        XCTAssertEqual(held.tablesHeld, ["u"])
        _ = held.take("u")
        XCTAssertTrue(held.isEmpty)
        XCTAssertEqual(held.bytes, 0)
    }

    /// Values written again over many commits: each lookup sees the latest, an abort brings back the committed ones
    /// (after the buffer was compacted, too), and the buffer a table keeps stays within twice what it holds plus the
    /// last transaction's writes.
    func testValuesWrittenAgainAreCompactedAndStillUndone() {
        let held = WriteBehind()
        let keys = (0..<200).map { "key-\($0)" }
        let big = String(repeating: "v", count: 1_000)
        for round in 0..<40 {
            for (i, k) in keys.enumerated() where (i + round) % 3 != 0 {
                write(held, "t", k, "\(round)-" + big)
            }
            if round % 10 == 9 {
                // An aborted transaction: replaced values, a deletion and a new key all go.
                write(held, "t", keys[1], "aborted")
                write(held, "t", keys[2], nil)
                write(held, "t", "new", "aborted")
                held.abort()
            } else {
                held.commit()
            }
        }
        // The last committed round of each key: the latest round before 40 (not 9, 19, 29, 39) that wrote it.
        for (i, k) in keys.enumerated() {
            let round = (0..<40).last { ($0 + i) % 3 != 0 && $0 % 10 != 9 }!
            XCTAssertEqual(value(held.lookup("t", bytes(k))), "\(round)-" + big, k)
        }
        XCTAssertNil(value(held.lookup("t", bytes("new"))))
        let live = keys.count * (1_000 + 12)
        XCTAssertLessThan(held.bytes, live + keys.count * (WriteBehind.entryOverhead + 8))
        var taken = 0
        try? held.take("t").forEach { _, v in
            XCTAssertNotNil(v)
            taken += 1
        }
        XCTAssertEqual(taken, keys.count)
        XCTAssertEqual(held.bytes, 0)
        // The table's buffer itself: compacted when values replaced are half of it.
        var table = HeldTable()
        let value = [UInt8](repeating: 7, count: 4_000)
        for round in 0..<100 {
            for k in 0..<10 {
                let key = Array("k\(k)".utf8)
                key.withUnsafeBytes { kb in
                    value.withUnsafeBytes { vb in
                        if let e = table.find(kb, hash: HeldTable.hash(kb)) {
                            table.replace(e, with: vb)
                        } else {
                            table.add(kb, vb, hash: HeldTable.hash(kb))
                        }
                    }
                }
            }
            table.compactIfWasteful()
            XCTAssertLessThanOrEqual(table.bufferCount, 2 * 10 * 4_002 + 64 << 10, "round \(round)")
        }
    }

    func testAScanMergesHeldWritesWithTheBTree() throws {
        var o = Environment.Options()
        o.maxDatabases = 2
        try FileManager.default.createDirectory(atPath: dir.file("env"), withIntermediateDirectories: true)
        let env = try Environment(path: dir.file("env"), options: o)
        let db = try env.openDatabase("t", flags: .create)
        try env.write { txn in
            for k in ["a", "c", "e", "g", "i"] { try txn.put(db, key: bytes(k), value: bytes("tree " + k)) }
        }
        let held = WriteBehind()
        let store = LMDBKeyValueStore(databases: ["t": db], writeBehind: held)
        func scan(from start: String, limit: Int = 100) throws -> [String] {
            try env.read { txn in
                let scope = TransactionScope(txn)
                defer { scope.end() }
                store.scope = scope
                defer { store.scope = nil }
                var out: [String] = []
                try store.scan("t", from: bytes(start)) { k, v in
                    out.append(String(decoding: k, as: UTF8.self) + "=" + String(decoding: v, as: UTF8.self))
                    return out.count < limit
                }
                return out
            }
        }
        XCTAssertEqual(try scan(from: ""), ["a=tree a", "c=tree c", "e=tree e", "g=tree g", "i=tree i"])
        // Held: a new first key, a replaced one, a deleted one, a new one between, and a new last key.
        write(held, "t", "0", "new 0")
        write(held, "t", "c", "new c")
        write(held, "t", "e", nil)
        write(held, "t", "f", "new f")
        write(held, "t", "z", "new z")
        write(held, "t", "h", nil)
        held.commit()
        XCTAssertEqual(try scan(from: ""), ["0=new 0", "a=tree a", "c=new c", "f=new f", "g=tree g", "i=tree i", "z=new z"])
        XCTAssertEqual(try scan(from: "d"), ["f=new f", "g=tree g", "i=tree i", "z=new z"])
        XCTAssertEqual(try scan(from: "", limit: 3), ["0=new 0", "a=tree a", "c=new c"], "a scan stops when told, held entries too")
        XCTAssertEqual(try scan(from: "j"), ["z=new z"], "held entries after the B-tree's last")
        try env.read { txn in
            let scope = TransactionScope(txn)
            defer { scope.end() }
            store.scope = scope
            defer { store.scope = nil }
            XCTAssertEqual(try store.get("t", bytes("c")), bytes("new c"))
            XCTAssertNil(try store.get("t", bytes("e")), "deleted while held")
            XCTAssertEqual(try store.get("t", bytes("g")), bytes("tree g"))
            // The borrowed read (what a fold's tables decode from) answers as `get` does: held, deleted, in the B-tree, absent.
            func borrowed(_ key: String) throws -> String? {
                try store.withValue("t", bytes(key)) { String(decoding: $0, as: UTF8.self) }
            }
            XCTAssertEqual(try borrowed("c"), "new c")
            XCTAssertNil(try borrowed("e"), "deleted while held")
            XCTAssertEqual(try borrowed("g"), "tree g")
            XCTAssertNil(try borrowed("b"), "never written")
        }
    }

    /// Folded in batches of 16 events and written out every few batches, with a view failing on some events after
    /// the others have folded them in the same transaction (which then runs again), and a folder's role changed
    /// midway (the threads view then scans its index, held entries and all): every table equals a live fold's.
    func testAPrivateFoldWritingBehindEqualsALiveFold() throws {
        // The failing view last: the views before it have written their batch when it fails.
        let catalog = ViewCatalog(ViewCatalog.all.filter { $0.name != .threads } + [FlakyThreadsProjector.self])
        let live = try ViewStore.open(store: store.directory, log: store.log, catalog: catalog)
        try folder("INBOX", role: .inbox)
        try folder("Lists", role: .custom)
        for i in 0..<400 {
            try receive("m\(i)", folder: i % 4 == 0 ? "Lists" : "INBOX", inReplyTo: i > 5 && i % 3 == 0 ? ["m\(i - 3)@example.com"] : [],
                        subject: i % 37 == 5 ? "boom" : "hello \(i % 11)", from: "p\(i % 13)@example.com", name: "Person \(i % 7)",
                        flags: i % 5 == 0 ? ["\\Seen"] : [])
            if i % 10 == 9 {
                let id = "m\(i - 4)"
                try event(.flagsChanged(FlagsChanged(emailID: id, folder: (i - 4) % 4 == 0 ? "Lists" : "INBOX",
                                                     flags: ["\\Seen", "\\Flagged"], added: ["\\Seen", "\\Flagged"])), stream: .email(id))
            }
            if i == 250 { try folder("Lists", role: .inbox) }
        }
        live.batchEvents = 16
        try live.catchUp()
        // Written out every few batches, and only at the end (the role change's scan then finds every index
        // entry in memory); as a generation is built (with a history: its versions staged at each write-out and merged
        // into the history when it is published) and as a scratch fold (no history).
        // Spilling runs (`SpilledRuns`): merged every few write-outs, or only at the end (the role change's scan then
        // reads the runs, merged with the held writes and the B-tree).
        // Or, as `replay` builds, the last runs left to `publish` and merged into its copy with the B-trees (with
        // chunks and parts of a few entries, so that their ends fall everywhere: on a key of the runs, of the B-tree,
        // on one both hold, on a deletion).
        // (A spill limit that the fold's last write-out passes merges every run before `publish`: 60 KiB did once the
        // contacts view kept its pairs' lists, schema 15, and 56 KiB once its lists not full were kept unranked, schema
        // 16, where 40-52 KiB left runs; the limit of that way is chosen so that some are left.)
        // Last, views not built from empty (as those a `replay --view` folds beside the one it rebuilds): their history
        // written as versions, held and spilled like their tables.
        let ways: [(limit: Int, history: Bool, spill: Int?, atPublish: Bool, fromEmpty: Bool)] = [
            (64 << 10, true, nil, false, true), (Int.max, true, nil, false, true), (64 << 10, false, nil, false, true),
            (32 << 10, true, 100 << 10, false, true), (32 << 10, true, Int.max, false, true), (16 << 10, false, Int.max, false, true),
            (32 << 10, true, 100 << 10, true, true), (32 << 10, true, Int.max, true, true), (16 << 10, false, 44 << 10, true, true),
            (32 << 10, true, 100 << 10, true, false), (32 << 10, true, Int.max, false, false),
        ]
        for (index, (limit, history, spill, atPublish, fromEmpty)) in ways.enumerated() {
            // Published, and the spilled runs merged, on two threads (each table by one, their writes taking turns), or
            // every other way on one.
            let twoThreads = index % 2 == 0
            let name = "\(limit)-\(history)-\(spill ?? 0)-\(atPublish)-\(fromEmpty)-\(twoThreads ? 2 : 1)"
            let path = dir.file("private-" + name)
            try StoreDirectory.makePrivateDirectory(path)
            let behind = try ViewStore(path: path, log: store.log, catalog: catalog, history: history)
            behind.writesBehind = true
            behind.batchEvents = 16
            behind.writeBehindLimit = limit
            behind.publishesOnTwoThreads = twoThreads
            behind.mergesOnTwoThreads = twoThreads
            if let spill {
                behind.spillsRuns = true
                behind.spillLimit = spill
                behind.mergesRunsWhenPublished = atPublish
                if atPublish {
                    behind.publishChunkEntries = 7
                    behind.publishPartEntries = 3
                }
            }
            if fromEmpty { behind.buildsFromEmpty(catalog.types.map { $0.name.rawValue }) }
            try behind.catchUp()
            XCTAssertEqual(behind.stagedViews.isEmpty, !history || !fromEmpty)
            // Written out as a replay's generation is (`publish`): its staged history merged on the way.
            let runsLeft = (try? FileManager.default.contentsOfDirectory(atPath: path + "/" + ViewStore.spillFolder))?.count ?? 0
            if atPublish { XCTAssertGreaterThan(runsLeft, 0, "the last runs left for publish (\(name))") }
            else { XCTAssertEqual(runsLeft, 0, "no run is left after the fold") }
            if let spill {
                XCTAssertGreaterThan(behind.spillCounts.runs, 3, "write-outs spilled runs")
                if atPublish && spill == Int.max { XCTAssertEqual(behind.spillCounts.merges, 0, "none merged into the B-trees") }
                else if spill == Int.max { XCTAssertEqual(behind.spillCounts.merges, 1, "merged once, at the end") }
                else { XCTAssertGreaterThan(behind.spillCounts.merges, 1, "merged as they passed their limit") }
            } else {
                XCTAssertEqual(behind.spillCounts.runs, 0)
            }
            let published = dir.file("published-" + name)
            try StoreDirectory.makePrivateDirectory(published)
            try behind.publish(to: published)
            XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: path + "/" + ViewStore.spillFolder))?.count ?? 0, 0,
                           "no run is left once published")
            let served = try ViewStore(path: published, log: store.log, catalog: catalog)
            let quarantined = try served.quarantined()
            XCTAssertEqual(quarantined.count, 11, "\(quarantined)")
            XCTAssertEqual(quarantined, try live.quarantined())
            let counts = try assertEqualViews(served, live, "written behind (\(name)) against a live fold")
            XCTAssertGreaterThan(counts["threads"] ?? 0, 400)
            XCTAssertEqual(try served.checkpoints(), try live.checkpoints())
            if history { XCTAssertEqual(try served.compareHistory(upTo: try store.log.head().sequence), [], "the history published is the views'") }
        }
    }
}
