import EventLog
import Foundation
import Projections
import TestSupport
@testable import Views
import XCTest

/// Runs of changes spilled to files by a generation being built (`SpillRun`, `SpilledRuns`): every change read back by
/// lookup and in order, the newest run winning, and a damaged run file an error rather than a read past its buffer.
final class SpilledRunsTests: FolderTestCase {
    override class var folderPrefix: String { "spill" }

    private func key(_ i: Int) -> [UInt8] { Array(String(format: "key-%06d", i).utf8) }

    private func changes(_ entries: [(key: [UInt8], value: [UInt8]?)]) -> EncodedChanges {
        var c = EncodedChanges()
        for e in entries { c.append(key: e.key, value: e.value) }
        c.sort()
        return c
    }

    private func found(_ lookup: WriteBehind.Lookup) -> String? {
        switch lookup {
        case .value(let v): String(decoding: v, as: UTF8.self)
        case .deleted: "<deleted>"
        case .notHere: nil
        }
    }

    private func all(_ cursor: MergedChangeCursor) throws -> [(String, String?)] {
        var c = cursor
        var out: [(String, String?)] = []
        while let k = c.key {
            out.append((String(decoding: k, as: UTF8.self), c.value.map { String(decoding: $0, as: UTF8.self) }))
            try c.advance()
        }
        return out
    }

    func testEveryChangeIsFoundAndReadInKeyOrderAcrossBlocks() throws {
        let runs = try SpilledRuns(folder: dir.file("spill"))
        // ~3,000 entries with values of 0-300 bytes: many 4 KiB blocks; every 7th key deleted.
        let entries = (0..<3_000).map { i -> (key: [UInt8], value: [UInt8]?) in
            (key(i * 2), i % 7 == 3 ? nil : Array(repeating: UInt8(i % 251), count: i % 301))
        }
        try runs.begin()
        try runs.add("t", changes(entries))
        try runs.add("u", changes([(Array("only".utf8), Array("in u".utf8))]))
        try runs.finish()
        XCTAssertEqual(runs.count, 1)
        for (i, e) in entries.enumerated() {
            let got = try e.key.withUnsafeBytes { try runs.lookup("t", $0) }
            switch (got, e.value) {
            case (.value(let v), let expected?): XCTAssertEqual(v, expected, "entry \(i)")
            case (.deleted, nil): break
            default: XCTFail("entry \(i): \(got)")
            }
            // The keys between and around the entries are not there.
            XCTAssertNil(found(try key(i * 2 + 1).withUnsafeBytes { try runs.lookup("t", $0) }))
        }
        XCTAssertNil(found(try Array("a".utf8).withUnsafeBytes { try runs.lookup("t", $0) }), "before the first key")
        XCTAssertNil(found(try Array("only".utf8).withUnsafeBytes { try runs.lookup("t", $0) }), "another table's key")
        XCTAssertEqual(found(try Array("only".utf8).withUnsafeBytes { try runs.lookup("u", $0) }), "in u")
        XCTAssertNil(found(try key(0).withUnsafeBytes { try runs.lookup("v", $0) }), "a table never spilled")
        // In order from any start: the first block, the middle of a block, between keys, past the end.
        for start in [[], key(0), key(1_001), key(2_000), key(5_998), key(6_000)] {
            let expected = entries.filter { !$0.key.lexicographicallyPrecedes(start) }
            let got = try all(try runs.cursor("t", from: start))
            XCTAssertEqual(got.map(\.0), expected.map { String(decoding: $0.key, as: UTF8.self) })
            XCTAssertEqual(got.map(\.1?.count), expected.map(\.value?.count))
        }
        runs.clear()
        XCTAssertTrue(runs.isEmpty)
        XCTAssertNil(found(try key(0).withUnsafeBytes { try runs.lookup("t", $0) }))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.file("spill")), [], "the files are removed")
    }

    func testTheNewestRunsChangeWinsInLookupsAndScans() throws {
        let runs = try SpilledRuns(folder: dir.file("spill"))
        let v = { (s: String) -> [UInt8]? in Array(s.utf8) }
        try runs.begin()
        try runs.add("t", changes([(key(1), v("old 1")), (key(2), v("old 2")), (key(3), v("old 3"))]))
        try runs.finish()
        try runs.begin()
        try runs.add("t", changes([(key(2), nil), (key(3), v("new 3")), (key(4), v("new 4"))]))
        try runs.finish()
        XCTAssertEqual(runs.count, 2)
        XCTAssertEqual(found(try key(1).withUnsafeBytes { try runs.lookup("t", $0) }), "old 1")
        XCTAssertEqual(found(try key(2).withUnsafeBytes { try runs.lookup("t", $0) }), "<deleted>")
        XCTAssertEqual(found(try key(3).withUnsafeBytes { try runs.lookup("t", $0) }), "new 3")
        let got = try all(try runs.cursor("t", from: []))
        XCTAssertEqual(got.map(\.0), [1, 2, 3, 4].map { String(decoding: key($0), as: UTF8.self) })
        XCTAssertEqual(got.map(\.1), ["old 1", nil, "new 3", "new 4"])
        XCTAssertEqual(runs.tables, ["t"])
        XCTAssertTrue(runs.holds("t"))
        XCTAssertFalse(runs.holds("u"))
    }

    func testKeysSharingAHashAreFoundInTheirOwnRuns() throws {
        // Every key with the same hash: the map names the newest run for all of them.
        let runs = try SpilledRuns(folder: dir.file("spill"), hashMask: 0)
        for r in 0..<4 {
            try runs.begin()
            try runs.add("t", changes((0..<50).map { (key(r * 100 + $0), Array("run \(r)".utf8)) } + [(key(999), Array("last \(r)".utf8))]))
            try runs.finish()
        }
        for r in 0..<4 {
            for i in [0, 25, 49] {
                XCTAssertEqual(found(try key(r * 100 + i).withUnsafeBytes { try runs.lookup("t", $0) }), "run \(r)")
            }
        }
        XCTAssertEqual(found(try key(999).withUnsafeBytes { try runs.lookup("t", $0) }), "last 3", "the newest run's change")
        XCTAssertNil(found(try key(998).withUnsafeBytes { try runs.lookup("t", $0) }), "a key in no run")
    }

    func testAMergeGivesEveryKeyOnceInOrderWithItsNewestChange() throws {
        let runs = try SpilledRuns(folder: dir.file("spill"))
        var expected: [[UInt8]: [UInt8]?] = [:]
        // Five runs of overlapping keys; values up to 100 KB (past a reader's 64 KiB buffer), deletions among them.
        for r in 0..<5 {
            var entries: [(key: [UInt8], value: [UInt8]?)] = []
            for i in stride(from: r, to: 2_000, by: r + 1) {
                let value: [UInt8]? = (i + r) % 9 == 0 ? nil : Array(repeating: UInt8(r), count: i == 500 ? 100_000 : (i * 7 + r) % 200)
                entries.append((key(i), value))
                expected[key(i)] = value
            }
            try runs.begin()
            try runs.add("t", changes(entries))
            try runs.finish()
        }
        var got: [(key: [UInt8], value: [UInt8]?)] = []
        try runs.forEachMerged("t") { k, v in got.append((Array(k), v.map { Array($0) })) }
        XCTAssertEqual(got.map(\.key), expected.keys.sorted { $0.lexicographicallyPrecedes($1) })
        for (k, v) in got { XCTAssertEqual(v, expected[k]!, String(decoding: k, as: UTF8.self)) }
        var none = 0
        try runs.forEachMerged("u") { _, _ in none += 1 }
        XCTAssertEqual(none, 0, "a table no run holds")
    }

    func testTheIndexKeepsTheLastRunOfEachHashAsItGrows() {
        var index = SpillIndex()
        XCTAssertNil(index.run(for: 42))
        for h in 0..<20_000 { index.set(UInt64(h) &* 0x9E37_79B9_7F4A_7C15, run: h % 7) }
        for h in stride(from: 0, to: 20_000, by: 3) { index.set(UInt64(h) &* 0x9E37_79B9_7F4A_7C15, run: 200) }
        XCTAssertEqual(index.count, 20_000)
        for h in 0..<20_000 {
            XCTAssertEqual(index.run(for: UInt64(h) &* 0x9E37_79B9_7F4A_7C15), h % 3 == 0 ? 200 : h % 7)
        }
        XCTAssertNil(index.run(for: 20_001 &* 0x9E37_79B9_7F4A_7C15))
        // Hashes equal but for their lowest byte share a slot: the later run stands for both.
        index.set(0xABCD_EF00, run: 1)
        index.set(0xABCD_EF7F, run: 2)
        XCTAssertEqual(index.run(for: 0xABCD_EF00), 2)
        XCTAssertLessThanOrEqual(index.bytes, 24 * 20_001, "at least a third full")
        index.removeAll()
        XCTAssertNil(index.run(for: 0))
        XCTAssertEqual(index.count, 0)
    }

    /// A run's keys put in grouped by where their slots lie give the same index as put in one by one: each key's run,
    /// a later run over an earlier one, the table grown on the way, and fewer keys than a group put in as they come.
    func testKeysPutInGroupedGiveTheSameIndexAsOneByOne() {
        var grouped = SpillIndex(), single = SpillIndex()
        let keys = (0..<50_000).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 }
        for (run, range) in [(0, 0..<20_000), (1, 10_000..<45_000), (2, 44_000..<44_500), (3, 0..<50_000)] {
            let batch = Array(keys[range])
            grouped.set(batch, run: run)
            for h in batch { single.set(h, run: run) }
            XCTAssertEqual(grouped.count, single.count)
            for h in keys { XCTAssertEqual(grouped.run(for: h), single.run(for: h)) }
        }
        XCTAssertEqual(grouped.count, 50_000)
        XCTAssertEqual(grouped.run(for: keys[123]), 3)
    }

    func testAnEmptyRunIsDroppedAndOldRunsInTheFolderAreRemoved() throws {
        let folder = dir.file("spill")
        try StoreDirectory.makePrivateDirectory(folder)
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/7.run", contents: Data([1, 2, 3])))
        let runs = try SpilledRuns(folder: folder)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [], "a killed build's runs go")
        try runs.begin()
        try runs.finish()
        XCTAssertTrue(runs.isEmpty)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [])
    }

    func testAKeyPastARunsBoundIsRefusedNotWrapped() throws {
        // A run's key length is 16 bits: a longer key (none of LMDB's, whose keys are at most 511 bytes) is named.
        let runs = try SpilledRuns(folder: dir.file("spill"))
        try runs.begin()
        XCTAssertThrowsError(try runs.add("t", changes([(Array(repeating: 1, count: 70_000), Array("v".utf8))]))) { error in
            XCTAssertTrue("\(error)".contains("too big to spill"), "\(error)")
        }
    }

    func testADamagedRunFileIsAnErrorNotACrash() throws {
        let runs = try SpilledRuns(folder: dir.file("spill"))
        try runs.begin()
        try runs.add("t", changes((0..<500).map { (key($0), Array(repeating: 7, count: 100)) }))
        try runs.finish()
        let file = dir.file("spill") + "/0.run"
        // Cut short: a lookup past the end is named.
        XCTAssertEqual(truncate(file, 10_000), 0)
        XCTAssertThrowsError(try key(450).withUnsafeBytes { try runs.lookup("t", $0) }) { error in
            XCTAssertTrue("\(error)".contains("spill run"), "\(error)")
        }
        // Lengths overwritten with garbage: the entry is named as running past its block.
        let fd = open(file, O_WRONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        let junk = [UInt8](repeating: 0xFF, count: 64)
        XCTAssertEqual(pwrite(fd, junk, junk.count, 0), junk.count)
        close(fd)
        XCTAssertThrowsError(try key(0).withUnsafeBytes { try runs.lookup("t", $0) }) { error in
            XCTAssertTrue("\(error)".contains("spill"), "\(error)")
        }
    }
}
