import CLMDB
import Foundation
import LMDB
import Synchronization
import TestSupport
import XCTest

/// The environment's own behaviour: map growth, aborted writes, cursors, read-only opens.
final class EnvironmentTests: LMDBTestCase {
    /// Writing more than the map holds grows the map (abort, double, run the closure again) and keeps
    /// every entry.
    func testMapFullGrowsTheMapAndKeepsEveryEntry() throws {
        let env = try openEnvironment(mapSize: 256 << 10)
        let db = try env.openDatabase("t", flags: .create)
        let before = env.mapSize
        try fill(env, db, count: 200, valueBytes: 8 << 10)
        XCTAssertGreaterThan(env.mapSize, before, "the map grew")
        try env.read { txn in
            XCTAssertEqual(try txn.stat(db).entries, 200)
            for i in [0, 99, 199] {
                XCTAssertEqual(try txn.getBytes(db, key: LMDBTestCase.key(i)), LMDBTestCase.value(i, bytes: 8 << 10))
            }
        }
    }

    /// A 4 MiB tmpfs (skipped where mounting is not allowed, outside CI: CI can mount, so a failure stands), a folder
    /// `env` in it, and the options of a write map of 256 KiB.
    private func writeMapOnASmallDisk() throws -> (fs: SmallFilesystem, path: String, options: Environment.Options) {
        let fs: SmallFilesystem
        do { fs = try SmallFilesystem(megabytes: 4) } catch {
            if ProcessInfo.processInfo.environment["CI"] == "true" { throw error }
            throw XCTSkip("\(error)")
        }
        var o = Environment.Options()
        o.mapSize = 256 << 10
        o.writeMap = true
        let path = fs.path + "/env"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return (fs, path, o)
    }

    /// A `MDB_WRITEMAP` environment on a disk that fills up: growing the map is `ENOSPC`, an error (a page
    /// written through the map into a hole of a sparse file the disk has no room for would be SIGBUS), and
    /// everything committed before stays readable.
    func testAWriteMapOnAFullDiskFailsWithAnErrorAndKeepsWhatWasCommitted() throws {
        let (fs, path, o) = try writeMapOnASmallDisk()
        defer { withExtendedLifetime(fs) {} }
        var committed = 0
        do {
            let env = try Environment(path: path, options: o)
            let db = try env.openDatabase("t", flags: .create)
            XCTAssertThrowsError(try {
                for k in 0..<10_000 {
                    try env.write { txn in try txn.put(db, key: LMDBTestCase.key(k), value: LMDBTestCase.value(k, bytes: 16 << 10)) }
                    committed = k + 1
                }
            }()) { error in
                XCTAssertEqual((error as? LMDBError)?.isDiskFull, true, "\(error)")
            }
            XCTAssertGreaterThan(committed, 10, "the map grew while the disk had room")
            XCTAssertLessThanOrEqual(env.mapSize, 4 << 20)
        }
        let env = try Environment(path: path, options: o)
        let db = try env.openDatabase("t")
        try env.read { txn in
            XCTAssertEqual(try txn.stat(db).entries, committed)
            XCTAssertEqual(try txn.getBytes(db, key: LMDBTestCase.key(committed - 1)), LMDBTestCase.value(committed - 1, bytes: 16 << 10))
        }
    }

    /// A write map whose growth the full disk refused is mapped again at its old size, maybe at other addresses: the
    /// ranges the environment acts on (releasing resident pages is `MADV_DONTNEED` on them) are the new map's. They had
    /// stayed the grown map's, addresses the kernel then gave to other mappings, which a release zeroed (`verify --views`
    /// on a full disk: `free(): invalid pointer`, SIGABRT).
    func testAGrowthRefusedForWantOfRoomLeavesTheMapsRangesCurrent() throws {
        let (fs, path, options) = try writeMapOnASmallDisk()
        defer { withExtendedLifetime(fs) {} }
        var o = options
        o.noFaultAround = true
        let env = try Environment(path: path, options: o)
        let db = try env.openDatabase("t", flags: .create)
        XCTAssertThrowsError(try {
            for k in 0..<10_000 {
                try env.write { txn in try txn.put(db, key: LMDBTestCase.key(k), value: LMDBTestCase.value(k, bytes: 16 << 10)) }
            }
        }()) { error in
            XCTAssertEqual((error as? LMDBError)?.isDiskFull, true, "\(error)")
        }
        XCTAssertTrue(env.knownRangesAreCurrent, "the ranges released are those of the map as it is")
        env.releaseResidentPages()
        try env.read { txn in XCTAssertGreaterThan(try txn.stat(db).entries, 10) }
    }

    /// A write map (its whole size on disk) grows by a quarter, or by what is asked: a compacted copy, whose
    /// map is exactly its pages, does not double on its first write.
    func testAWriteMapGrowsByAQuarterOrWhatIsAsked() throws {
        var o = Environment.Options()
        o.mapSize = 1 << 20
        o.writeMap = true
        let source = dir.file("source"), copy = dir.file("copy")
        for p in [source, copy] { try FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true) }
        do {
            let env = try Environment(path: source, options: o)
            let db = try env.openDatabase("t", flags: .create)
            try fill(env, db, count: 2_000, valueBytes: 4 << 10)
            try env.copy(to: copy)
        }
        let compacted = try XCTUnwrap(Environment.fileSize(Environment.dataFile(copy)))
        XCTAssertGreaterThan(compacted, 8 << 20)
        let env = try Environment(path: copy, options: o)
        XCTAssertEqual(env.mapSize, compacted, "the map of a compacted copy is its pages")
        try env.reserve(room: 1 << 20)
        let grown = try XCTUnwrap(Environment.fileSize(Environment.dataFile(copy)))
        XCTAssertEqual(grown, env.mapSize, "a write map is on disk whole")
        XCTAssertLessThanOrEqual(grown, compacted + compacted / 4 + env.pageSize, "a quarter, not double")
        XCTAssertGreaterThanOrEqual(env.mapSize - env.usedBytes, 1 << 20)
        // Room past a quarter is given in one step.
        let before = env.mapSize
        try env.reserve(room: before)
        XCTAssertGreaterThanOrEqual(env.mapSize - env.usedBytes, before)
        XCTAssertLessThan(env.mapSize, before + env.usedBytes + before / 4 + env.pageSize)
    }

    /// The map's size and the pages in use are read while another thread remaps the map again and again (a write
    /// map grown, then shrunk to its data): LMDB reads both from the meta pages, through the map, so they are read
    /// under the resize lock. Read through a map just unmapped, they were a SIGSEGV or SIGBUS (this process dies).
    func testSizesReadWhileAnotherThreadRemapsTheMap() throws {
        let env = try openEnvironment(in: "remapped", mapSize: 1 << 20) { $0.writeMap = true }
        let db = try env.openDatabase("t", flags: .create)
        try fill(env, db, count: 64, valueBytes: 1 << 10)
        let used = env.usedBytes
        let done = Atomic<Bool>(false)
        let shared = env
        let remapper = Thread {
            defer { done.store(true, ordering: .releasing) }
            for _ in 0..<300 {
                do {
                    try shared.grow(atLeast: 1 << 20)
                    try shared.shrinkToData()
                } catch {
                    return
                }
            }
        }
        remapper.start()
        var reads = 0
        while !done.load(ordering: .acquiring) || reads == 0 {
            XCTAssertEqual(env.usedBytes, used)
            XCTAssertGreaterThanOrEqual(env.mapSize, used)
            XCTAssertGreaterThanOrEqual(env.readersInUse, 0)
            reads += 1
        }
        XCTAssertEqual(try env.read { try $0.stat(db).entries }, 64)
    }

    /// A write closure that hits `MDB_MAP_FULL` is run again from scratch: what it wrote before the
    /// failure is not kept twice.
    func testAWriteClosureRetriedAfterMapFullWritesOnce() throws {
        let env = try openEnvironment(mapSize: 128 << 10)
        let db = try env.openDatabase("t", flags: .create)
        var runs = 0
        try env.write { txn in
            runs += 1
            for k in 0..<64 { try txn.put(db, key: LMDBTestCase.key(k), value: LMDBTestCase.value(k, bytes: 4 << 10)) }
        }
        XCTAssertGreaterThan(runs, 1, "the closure ran again after the map grew")
        XCTAssertEqual(try env.read { try $0.stat(db).entries }, 64)
    }

    /// A map grown by another process is adopted by an environment opened before the growth.
    func testAMapGrownByAnotherProcessIsAdopted() throws {
        let env = try openEnvironment(mapSize: 1 << 20)
        let db = try env.openDatabase("grow", flags: .create)
        let (child, line) = try startHelper(["grow", "--path", dir.path, "--bytes", "\(6 << 20)", "--map-size", "\(1 << 20)"])
        child.waitUntilExit()
        XCTAssertEqual(child.terminationStatus, 0, line)
        XCTAssertTrue(line.hasPrefix("grown "), line)
        let grown = Int(line.dropFirst("grown ".count)) ?? 0
        XCTAssertGreaterThan(grown, 1 << 20)
        // The next transaction sees MDB_MAP_RESIZED and adopts the size; the new entries are readable.
        let entries = try env.read { try $0.stat(db).entries }
        XCTAssertEqual(entries, 6 * 16)
        XCTAssertGreaterThanOrEqual(env.mapSize, grown)
        try env.write { txn in try txn.put(db, key: Array("after".utf8), value: [1]) }
        XCTAssertEqual(try env.read { try $0.getBytes(db, key: Array("after".utf8)) }, [1])
    }

    /// An error thrown inside a write aborts it: nothing of it is stored, and the next write works.
    func testAFailedWriteStoresNothing() throws {
        struct Stop: Error {}
        let env = try openEnvironment()
        let db = try env.openDatabase("t", flags: .create)
        try env.write { txn in try txn.put(db, key: Array("kept".utf8), value: [1]) }
        XCTAssertThrowsError(try env.write { txn in
            try txn.put(db, key: Array("lost".utf8), value: [2])
            throw Stop()
        }) { XCTAssertTrue($0 is Stop) }
        try env.read { txn in
            XCTAssertEqual(try txn.getBytes(db, key: Array("kept".utf8)), [1])
            XCTAssertNil(try txn.getBytes(db, key: Array("lost".utf8)))
        }
        // An LMDB error inside the closure (a key over the size limit) aborts the same way.
        XCTAssertThrowsError(try env.write { txn in
            try txn.put(db, key: Array("lost2".utf8), value: [3])
            try txn.put(db, key: [UInt8](repeating: 1, count: 4096), value: [4])
        }) { XCTAssertEqual(($0 as? LMDBError)?.code, MDB_BAD_VALSIZE) }
        XCTAssertNil(try env.read { try $0.getBytes(db, key: Array("lost2".utf8)) })
        try env.write { txn in try txn.put(db, key: Array("next".utf8), value: [5]) }
        XCTAssertEqual(try env.read { try $0.getBytes(db, key: Array("next".utf8)) }, [5])
    }

    /// Cursors are closed when their closure ends, also by an error, so many can be opened in turn; a
    /// cursor walks in key order and positions by range.
    func testCursorsCloseWithTheirClosureAndWalkInOrder() throws {
        struct Stop: Error {}
        let env = try openEnvironment()
        let db = try env.openDatabase("t", flags: .create)
        try fill(env, db, count: 100, valueBytes: 16)
        for round in 0..<2_000 {
            if round % 2 == 0 {
                XCTAssertThrowsError(try env.read { txn in try txn.withCursor(db) { _ in throw Stop() } })
            } else {
                _ = try env.read { txn in try txn.withCursor(db) { c in try c.first() != nil } }
            }
        }
        let keys: [String] = try env.read { txn in
            try txn.withCursor(db) { c in
                var out: [String] = []
                var entry = try LMDBTestCase.key(42).withUnsafeBytes { try c.seek(atLeast: $0) }
                while let e = entry, out.count < 3 {
                    out.append(String(decoding: e.key, as: UTF8.self))
                    entry = try c.next()
                }
                return out
            }
        }
        XCTAssertEqual(keys, ["key-00000042", "key-00000043", "key-00000044"])
        let last: String? = try env.read { txn in try txn.withCursor(db) { c in try c.last().map { String(decoding: $0.key, as: UTF8.self) } } }
        XCTAssertEqual(last, "key-00000099")
    }

    /// A scope's cursor writes (what a views flush uses): puts and deletes in any order, in two tables at once, a
    /// delete of an absent key is fine, and after `end()` the transaction commits what they wrote.
    func testAScopesCursorWritesPutAndDeleteInAnyOrder() throws {
        let env = try openEnvironment(mapSize: 8 << 20)
        let a = try env.openDatabase("a", flags: .create)
        let b = try env.openDatabase("b", flags: .create)
        try fill(env, a, count: 300, valueBytes: 16)
        var rng = SystemRandomNumberGenerator()
        let order = (0..<600).shuffled(using: &rng)
        try env.write { txn in
            let scope = TransactionScope(txn)
            defer { scope.end() }
            for (n, i) in (Array(0..<600) + order).enumerated() {
                let key = LMDBTestCase.key(i)
                try key.withUnsafeBytes { k in
                    if n >= 600, i % 3 == 0 {
                        try scope.deleteThroughCursor(a, k)  // present (< 300 or put above) or absent
                    } else {
                        try LMDBTestCase.value(i + 1, bytes: 24).withUnsafeBytes { try scope.putThroughCursor(a, k, $0) }
                    }
                    try LMDBTestCase.value(i, bytes: 8).withUnsafeBytes { try scope.putThroughCursor(b, k, $0) }
                }
            }
            try LMDBTestCase.key(5_000).withUnsafeBytes { try scope.deleteThroughCursor(b, $0) }
        }
        try env.read { txn in
            XCTAssertEqual(try txn.stat(a).entries, 400)
            XCTAssertEqual(try txn.stat(b).entries, 600)
            for i in [0, 1, 299, 300, 301, 599] {
                XCTAssertEqual(try txn.getBytes(a, key: LMDBTestCase.key(i)), i % 3 == 0 ? nil : LMDBTestCase.value(i + 1, bytes: 24))
                XCTAssertEqual(try txn.getBytes(b, key: LMDBTestCase.key(i)), LMDBTestCase.value(i, bytes: 8))
            }
        }
    }

    /// A read-only environment reads what a writer committed, refuses writes with an error, and fails
    /// cleanly on a folder with no environment.
    func testReadOnlyOpenReadsAndRefusesWrites() throws {
        do {
            let env = try openEnvironment()
            let db = try env.openDatabase("t", flags: .create)
            try env.write { txn in try txn.put(db, key: Array("a".utf8), value: [9]) }
        }
        let ro = try openEnvironment(readOnly: true)
        XCTAssertTrue(ro.readOnly)
        let db = try ro.openDatabase("t")
        XCTAssertEqual(try ro.read { try $0.getBytes(db, key: Array("a".utf8)) }, [9])
        XCTAssertThrowsError(try ro.write { txn in try txn.put(db, key: Array("b".utf8), value: [1]) }) { error in
            XCTAssertNotNil(error as? LMDBError, "\(error)")
        }
        XCTAssertThrowsError(try ro.openDatabase("missing")) { XCTAssertEqual(($0 as? LMDBError)?.code, MDB_NOTFOUND) }
        let empty = TemporaryDirectory("lmdb-empty")
        var o = Environment.Options()
        o.readOnly = true
        XCTAssertThrowsError(try Environment(path: empty.path, options: o)) { XCTAssertNotNil($0 as? LMDBError, "\($0)") }
    }

    /// A copy is compacted, holds every entry, is private to the user (mode 0600 whatever the umask), and
    /// never overwrites a file already there.
    func testACopyHoldsEveryEntryInAPrivateFileAndOverwritesNothing() throws {
        let env = try openEnvironment(mapSize: 8 << 20)
        let db = try env.openDatabase("t", flags: .create)
        try fill(env, db, count: 400, valueBytes: 1 << 10)
        // Half deleted: a compacted copy is smaller than the source.
        try env.write { txn in for k in stride(from: 0, to: 400, by: 2) { _ = try txn.delete(db, key: LMDBTestCase.key(k)) } }
        let target = TemporaryDirectory("lmdb-copy")
        let old = umask(0o022)
        defer { umask(old) }
        try env.copy(to: target.path)
        var st = stat()
        XCTAssertEqual(stat(Environment.dataFile(target.path), &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        XCTAssertLessThan(Int(st.st_size), Environment.fileSize(Environment.dataFile(dir.path)) ?? 0)
        var o = Environment.Options()
        o.readOnly = true
        let copy = try Environment(path: target.path, options: o)
        let cdb = try copy.openDatabase("t")
        for k in 0..<400 {
            XCTAssertEqual(try copy.read { try $0.getBytes(cdb, key: LMDBTestCase.key(k)) },
                           k % 2 == 0 ? nil : LMDBTestCase.value(k, bytes: 1 << 10), "key \(k)")
        }
        // A second copy into the same folder fails and leaves the first intact.
        XCTAssertThrowsError(try env.copy(to: target.path)) { XCTAssertEqual(($0 as? LMDBError)?.code, EEXIST, "\($0)") }
        XCTAssertEqual(Environment.fileSize(Environment.dataFile(target.path)), Int(st.st_size))
    }

    /// A copy that will serve (`durable`) is in the page cache when it is made: its first readers do not wait on
    /// the disk (written with `O_DIRECT`, none of its pages were cached, and after a replay each first completion
    /// of a 7-letter prefix read ~100 pages from disk). On a file system that refuses `O_DIRECT` this holds either
    /// way; on ext4 here it fails with `O_DIRECT`.
    func testADurableCopyIsInThePageCache() throws {
        let env = try openEnvironment(mapSize: 8 << 20)
        let db = try env.openDatabase("t", flags: .create)
        try fill(env, db, count: 400, valueBytes: 1 << 10)
        let target = TemporaryDirectory("lmdb-durable-copy")
        try env.copy(to: target.path, durable: true)
        let file = Environment.dataFile(target.path)
        let size = try XCTUnwrap(Environment.fileSize(file))
        let fd = open(file, O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let map = try XCTUnwrap(mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0))
        XCTAssertNotEqual(map, MAP_FAILED)
        defer { munmap(map, size) }
        let pages = (size + Int(getpagesize()) - 1) / Int(getpagesize())
        var resident = [UInt8](repeating: 0, count: pages)
        XCTAssertEqual(mincore(map, size, &resident), 0)
        XCTAssertEqual(resident.filter { $0 & 1 == 1 }.count, pages, "pages of the copy in the page cache")
    }
}
