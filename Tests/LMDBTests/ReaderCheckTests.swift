import Foundation
import Glibc
import LMDB
import TestSupport
import XCTest

/// Reader slots of processes killed inside a read transaction are freed (`mdb_reader_check`).
final class ReaderCheckTests: LMDBTestCase {
    /// A child killed with SIGKILL while holding a read transaction leaves a stale slot; the reader
    /// check frees it (once).
    func testAReaderKilledWithSIGKILLIsCleared() throws {
        let env = try openEnvironment()
        _ = try env.openDatabase("t", flags: .create)
        let (child, line) = try startHelper(["hold-reader", "--path", dir.path])
        XCTAssertEqual(line, "holding")
        XCTAssertEqual(try env.clearStaleReaders(), 0, "a live reader is not stale")
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        XCTAssertEqual(try env.clearStaleReaders(), 1, "the killed reader's slot was freed")
        XCTAssertEqual(try env.clearStaleReaders(), 0)
    }

    /// With every slot taken by killed readers, the next transaction gets `MDB_READERS_FULL`, clears the
    /// stale slots and succeeds.
    func testAFullReaderTableOfDeadReadersIsClearedOnDemand() throws {
        let slots: UInt32 = 3
        let env = try openEnvironment(maxReaders: slots)
        let db = try env.openDatabase("t", flags: .create)
        try env.write { txn in try txn.put(db, key: Array("k".utf8), value: [1]) }
        var children: [Process] = []
        for _ in 0..<Int(slots) {
            let (child, line) = try startHelper(["hold-reader", "--path", dir.path, "--max-readers", "\(slots)"])
            XCTAssertEqual(line, "holding")
            children.append(child)
        }
        for c in children {
            kill(c.processIdentifier, SIGKILL)
            c.waitUntilExit()
        }
        XCTAssertEqual(try env.read { try $0.getBytes(db, key: Array("k".utf8)) }, [1])
        XCTAssertEqual(try env.clearStaleReaders(), 0, "the full table was cleared when the read needed a slot")
    }
}
