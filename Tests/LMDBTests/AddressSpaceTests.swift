import Foundation
import LMDB
import XCTest

/// A map growth the process's address space has no room for. LMDB unmaps the old map before it maps the new one;
/// when that fails it is left with no map (or, with `MDB_WRITEMAP`, a file size it cannot set, and a map it has
/// already unmapped), and the next transaction reads through it: a crash of the whole process. So the room is checked
/// before LMDB is asked, and the map grows by less, or not at all with an error.
final class AddressSpaceTests: LMDBTestCase {
    /// A log-like map (a reservation, not `MDB_WRITEMAP`) of 64 TiB cannot double in a 128 TiB user address space: it
    /// grows by a quarter, and the environment goes on reading and writing. (Under a sanitizer, whose shadow memory
    /// takes address space, the open already gets a smaller map, and no bigger one may fit: the growth is refused.)
    /// Handed to LMDB, the failed map left it with none: the next write crashed the process.
    func testAMapWithNoRoomToDoubleGrowsByLessAndStaysUsable() throws {
        let env = try openEnvironment(in: "huge", mapSize: 1 << 46) { _ in }
        let db = try env.openDatabase("t", flags: .create)
        try fill(env, db, count: 16, valueBytes: 100)
        let before = env.mapSize
        do {
            try env.grow()
            XCTAssertGreaterThan(env.mapSize, before)
        } catch let e as LMDBError {
            // Where no bigger map fits at all (a sanitizer's narrow ranges): refused, the map kept.
            XCTAssertEqual(e.code, ENOMEM, "\(e)")
            XCTAssertEqual(env.mapSize, before)
        }
        try fill(env, db, count: 32, valueBytes: 100)
        let count = try env.read { txn in try txn.stat(db).entries }
        XCTAssertEqual(count, 32)
    }

    /// A write map asked to grow past what can ever be mapped (`reserve` of more room than the address space) is
    /// refused with `ENOMEM` saying so, the map as it was: reads and writes go on. Handed to LMDB, the file's new size
    /// failed after the old map was unmapped, and the next read crashed the process (SIGSEGV).
    func testAWriteMapGrowthThatCannotBeMappedIsRefusedAndTheMapKept() throws {
        let env = try openEnvironment(in: "writemap", mapSize: 1 << 20) { $0.writeMap = true }
        let db = try env.openDatabase("t", flags: .create)
        try fill(env, db, count: 16, valueBytes: 100)
        let before = env.mapSize
        XCTAssertThrowsError(try env.reserve(room: 1 << 60)) { error in
            let e = error as? LMDBError
            XCTAssertEqual(e?.code, ENOMEM, "\(error)")
            XCTAssertTrue(e?.description.contains("nothing was changed") ?? false, "\(error)")
        }
        XCTAssertEqual(env.mapSize, before)
        try fill(env, db, count: 64, valueBytes: 100)
        let count = try env.read { txn in try txn.stat(db).entries }
        XCTAssertEqual(count, 64)
    }
}
