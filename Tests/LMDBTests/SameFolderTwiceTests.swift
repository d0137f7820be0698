import Foundation
import LMDB
import XCTest

/// Two `Environment`s of one process on one folder (a store's views opened again while the first are still held):
/// LMDB forbids opening an environment twice in a process (the second open takes itself for the only user and
/// initializes the lock file's reader table and writer mutex again), so they share one handle.
final class SameFolderTwiceTests: LMDBTestCase {
    /// A box one thread sets and another reads.
    private final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }

    /// The second open waits for the first one's write like any writer: the writer lock was not made again under it.
    func testASecondOpenWhileTheFirstWritesWaitsForIt() throws {
        let first = try openEnvironment()
        let db = try first.openDatabase("t", flags: .create)
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), firstDone = DispatchSemaphore(value: 0)
        let writer = Thread {
            try? first.write { txn in
                try txn.put(db, key: Array("first".utf8), value: [1])
                holding.signal()
                release.wait()
            }
            firstDone.signal()
        }
        writer.start()
        holding.wait()
        let second = try openEnvironment()
        let secondWrote = Flag()
        let secondDone = DispatchSemaphore(value: 0)
        let other = Thread {
            try? second.write { txn in
                secondWrote.set()
                try txn.put(db, key: Array("second".utf8), value: [2])
            }
            secondDone.signal()
        }
        other.start()
        XCTAssertEqual(secondDone.wait(timeout: .now() + 0.5), .timedOut, "the second environment's write waited for the first's")
        XCTAssertFalse(secondWrote.isSet, "no two writers at once")
        release.signal()
        XCTAssertEqual(firstDone.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(secondDone.wait(timeout: .now() + 10), .success)
        XCTAssertTrue(secondWrote.isSet)
        try first.read { txn in
            XCTAssertEqual(try txn.getBytes(db, key: Array("first".utf8)), [1])
            XCTAssertEqual(try txn.getBytes(db, key: Array("second".utf8)), [2])
        }
    }

    /// Either may go first: the other goes on reading and writing, and the folder opens again after both.
    func testEitherOfTwoGoesAndTheOtherWorksOn() throws {
        var first: Environment? = try openEnvironment()
        let db = try first!.openDatabase("t", flags: .create)
        try first!.write { txn in try txn.put(db, key: Array("a".utf8), value: [1]) }
        let second = try openEnvironment(readOnly: true)
        first = nil
        XCTAssertEqual(try second.read { try $0.getBytes(db, key: Array("a".utf8)) }, [1])
        XCTAssertThrowsError(try second.write { txn in try txn.put(db, key: Array("b".utf8), value: [2]) },
                             "opened read-only, it refuses writes though the handle it shares could write")
        let third = try openEnvironment()
        let db3 = try third.openDatabase("t")
        try third.write { txn in try txn.put(db3, key: Array("b".utf8), value: [2]) }
        XCTAssertEqual(try second.read { try $0.getBytes(db, key: Array("b".utf8)) }, [2])
    }

    /// An open the handle already open cannot serve (a write beside a read-only handle, another sync mode, more named
    /// databases) is refused with what it asked, instead of a second handle resetting the first one's locks; the first
    /// goes on, and once it is closed the same open succeeds.
    func testAnOpenTheOpenHandleCannotServeIsRefusedAndTheFirstWorksOn() throws {
        var writer: Environment? = try openEnvironment()
        let db = try writer!.openDatabase("t", flags: .create)
        try writer!.write { txn in try txn.put(db, key: Array("a".utf8), value: [1]) }
        writer = nil
        var reader: Environment? = try openEnvironment(readOnly: true)
        XCTAssertThrowsError(try openEnvironment()) { error in
            let conflict = try? XCTUnwrap(error as? HandleConflictError)
            XCTAssertEqual(conflict?.path, dir.path)
            XCTAssertTrue(conflict?.description.contains("writing (the open handle is read-only)") == true, "\(error)")
        }
        XCTAssertThrowsError(try Environment(path: dir.path, options: {
            var o = Environment.Options()
            o.readOnly = true
            o.maxDatabases = 10_000
            return o
        }())) { XCTAssertTrue($0 is HandleConflictError, "\($0)") }
        let readable = try reader!.openDatabase("t")
        XCTAssertEqual(try reader!.read { try $0.getBytes(readable, key: Array("a".utf8)) }, [1], "the first handle reads on")
        reader = nil
        let again = try openEnvironment()
        let writable = try again.openDatabase("t")
        try again.write { txn in try txn.put(writable, key: Array("b".utf8), value: [2]) }
        XCTAssertThrowsError(try Environment(path: dir.path, options: {
            var o = Environment.Options()
            o.mapSize = 1 << 20
            o.noSync = true
            return o
        }())) { XCTAssertTrue(($0 as? HandleConflictError)?.reason.contains("no sync") == true, "\($0)") }
        XCTAssertEqual(try again.read { try $0.getBytes(writable, key: Array("b".utf8)) }, [2])
    }
}
