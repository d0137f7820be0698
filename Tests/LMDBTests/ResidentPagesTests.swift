import Foundation
@testable import LMDB
import XCTest

/// Unmapping a read-only map's pages in the middle of a write transaction (what a big append does to bound its
/// resident size) loses nothing: the transaction's dirty pages are its own memory, the rest is mapped again
/// when read, and the resize lock taken again by the writing thread does not deadlock.
final class ResidentPagesTests: LMDBTestCase {
    func testPagesReleasedInsideAWriteTransactionKeepEveryValue() throws {
        let env = try openEnvironment(mapSize: 64 << 20)
        let db = try env.openDatabase("t", flags: .create)
        // Committed values first, so the transaction below reads and copies pages it did not write.
        try fill(env, db, count: 2_000, valueBytes: 900, perTransaction: 500)
        var released = 0
        try env.write { txn in
            for (n, k) in (0..<4_000).shuffled().enumerated() {
                if k < 2_000 {
                    XCTAssertEqual(try txn.getBytes(db, key: LMDBTestCase.key(k)), LMDBTestCase.value(k, bytes: 900))
                }
                try txn.put(db, key: LMDBTestCase.key(k), value: LMDBTestCase.value(k + 7, bytes: 900))
                if n % 100 == 99 {
                    env.releaseResidentPages()
                    released += 1
                }
            }
            for k in stride(from: 0, to: 4_000, by: 3) {
                XCTAssertEqual(try txn.getBytes(db, key: LMDBTestCase.key(k)), LMDBTestCase.value(k + 7, bytes: 900), "key \(k) in the transaction")
            }
        }
        XCTAssertEqual(released, 40)
        env.releaseResidentPages()
        try env.read { txn in
            XCTAssertEqual(try txn.stat(db).entries, 4_000)
            for k in 0..<4_000 {
                XCTAssertEqual(try txn.getBytes(db, key: LMDBTestCase.key(k)), LMDBTestCase.value(k + 7, bytes: 900), "key \(k) after commit")
            }
        }
    }

    /// `MAILSTORE_MAPPED_BUDGET_MB`: whole MiB from 32 to 1 TiB; anything else (text, out of range, empty)
    /// keeps the 64 MiB default.
    func testTheMappedBudgetComesFromTheEnvironmentWithinItsRange() {
        XCTAssertEqual(Environment.residentFileBudget(nil), 64 << 20)
        XCTAssertEqual(Environment.residentFileBudget("512"), 512 << 20)
        XCTAssertEqual(Environment.residentFileBudget(" 32 "), 32 << 20)
        XCTAssertEqual(Environment.residentFileBudget("1048576"), 1 << 40)
        for bad in ["", "31", "0", "-5", "1048577", "abc\u{1B}[31m", "12.5", "99999999999999999999999"] {
            XCTAssertEqual(Environment.residentFileBudget(bad), 64 << 20, bad)
        }
    }
}
