import Foundation
@testable import LMDB
import XCTest

/// `Options.noFaultAround`: reading a page of the map maps that page, not its cached neighbours (the kernel's
/// fault-around maps up to 64 KiB per fault, and at a million messages the views' folds outran their releases).
final class FaultAroundTests: LMDBTestCase {
    /// After a release, reading 64 keys far apart maps about one leaf each plus the branch pages above them:
    /// ~70 pages, where fault-around maps up to 16 per fault. Also after the map grows (a new mapping, which must
    /// be registered again), and for a map written through (`writeMap`, as the views are).
    func testReadingScatteredKeysMapsOnlyThePagesRead() throws {
        for writeMap in [false, true] {
            let folder = dir.file(writeMap ? "writemap" : "plain")
            let env = try openEnvironment(in: writeMap ? "writemap" : "plain", mapSize: 64 << 20) {
                $0.writeMap = writeMap
                $0.noFaultAround = true
            }
            guard env.mapsPagesSingly else { throw XCTSkip("this kernel does not turn off fault-around on a map (userfaultfd write-protect, Linux 6.7+)") }
            let db = try env.openDatabase("t", flags: .create)
            // 20,000 entries of 300 bytes: ~1,700 leaf pages, all in the page cache once written.
            try fill(env, db, count: 20_000, valueBytes: 300, perTransaction: 5_000)
            for grown in [false, true] {
                if grown {
                    try env.grow()
                    XCTAssertTrue(env.mapsPagesSingly, "the grown map is registered again")
                }
                let pages = try pagesMappedReadingScatteredKeys(env, db, folder: folder)
                XCTAssertLessThanOrEqual(pages, 100, "writeMap \(writeMap), grown \(grown): \(pages) pages mapped for 64 keys")
                XCTAssertGreaterThanOrEqual(pages, 64, "writeMap \(writeMap), grown \(grown): each key's leaf is mapped")
            }
        }
    }

    /// A read-only environment (`verify`, `project` open the log so) maps single pages too: opened for writing
    /// underneath, it still refuses every write and leaves the file as it was; over an empty data file it writes
    /// no header (LMDB would, opened for writing).
    func testAReadOnlyEnvironmentMapsSinglePagesAndStillRefusesWrites() throws {
        let folder = dir.file("readonly")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var o = Environment.Options()
        o.mapSize = 64 << 20
        o.noFaultAround = true
        do {
            let env = try Environment(path: folder, options: o)
            guard env.mapsPagesSingly else { throw XCTSkip("this kernel does not turn off fault-around on a map (userfaultfd write-protect, Linux 6.7+)") }
            try fill(env, try env.openDatabase("t", flags: .create), count: 20_000, valueBytes: 300, perTransaction: 5_000)
        }
        let file = Environment.dataFile(folder)
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        o.readOnly = true
        let ro = try Environment(path: folder, options: o)
        XCTAssertTrue(ro.readOnly)
        XCTAssertTrue(ro.mapsPagesSingly, "a read-only map faults in one page at a time where the file may be written")
        let db = try ro.openDatabase("t")
        let pages = try pagesMappedReadingScatteredKeys(ro, db, folder: folder)
        XCTAssertLessThanOrEqual(pages, 100, "\(pages) pages mapped for 64 keys")
        XCTAssertThrowsError(try ro.write { txn in _ = try txn.put(db, key: [1], value: [2]) }) { error in
            XCTAssertEqual((error as? LMDBError)?.code, EACCES)
        }
        XCTAssertThrowsError(try ro.openDatabase("new", flags: .create))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before, "nothing written")

        let empty = dir.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: Environment.dataFile(empty), contents: Data()))
        XCTAssertThrowsError(try Environment(path: empty, options: o))
        XCTAssertEqual(Environment.fileSize(Environment.dataFile(empty)), 0, "no header written into an empty file")
    }

    /// The options' default keeps the kernel's own behaviour: nothing registered.
    func testTheDefaultLeavesTheMapAlone() throws {
        let env = try openEnvironment(mapSize: 8 << 20)
        XCTAssertFalse(env.mapsPagesSingly)
    }

    /// Releases `env`'s map, reads 64 keys spread over the 20,000 `fill` wrote (checking their values), and
    /// returns how many pages of `folder`'s data file are then mapped.
    private func pagesMappedReadingScatteredKeys(_ env: Environment, _ db: Database, folder: String) throws -> Int {
        env.releaseResidentPages()
        try env.read { txn in
            for k in stride(from: 0, to: 20_000, by: 20_000 / 64) {
                XCTAssertEqual(try txn.getBytes(db, key: LMDBTestCase.key(k)), LMDBTestCase.value(k, bytes: 300))
            }
        }
        return try residentPages(of: folder)
    }

    /// Resident pages of `folder`'s `data.mdb` mappings in this process, from `/proc/self/smaps`.
    private func residentPages(of folder: String) throws -> Int {
        let smaps = try XCTUnwrap(Environment.readProcFile("/proc/self/smaps"))
        var inMap = false, kib = 0
        for line in String(decoding: smaps, as: UTF8.self).split(separator: "\n") {
            if let first = line.first, first.isHexDigit, line.contains("-"), line.split(separator: " ").count >= 5 {
                inMap = line.hasSuffix(folder + "/data.mdb")
            } else if inMap, line.hasPrefix("Rss:") {
                kib += Int(line.split(separator: " ")[1]) ?? 0
            }
        }
        return kib * 1024 / Int(getpagesize())
    }
}
