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

    /// The map is found behind hundreds of other mappings (its line far past the first 4 KiB of
    /// `/proc/self/maps`, all a single read returns) and through a symlinked path (which the kernel shows
    /// resolved), and its pages leave the resident size. Both failed before: the release did nothing.
    func testReleaseFindsTheMapBehindOtherMappingsAndThroughASymlink() throws {
        let real = dir.file("real")
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        let link = dir.file("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        var o = Environment.Options()
        o.mapSize = 64 << 20
        let env = try Environment(path: link, options: o)
        let db = try env.openDatabase("t", flags: .create)
        try fill(env, db, count: 4_000, valueBytes: 4_000, perTransaction: 1_000)
        // Mappings made after the map's sit below it, so their lines come first (alternate protections keep
        // them apart).
        var others: [UnsafeMutableRawPointer] = []
        for i in 0..<400 {
            guard let p = mmap(nil, 8_192, i % 2 == 0 ? PROT_READ : PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                  p != MAP_FAILED else { continue }
            others.append(p)
        }
        defer { for p in others { munmap(p, 8_192) } }
        XCTAssertGreaterThan(Environment.readProcFile("/proc/self/maps")?.count ?? 0, 16_384)
        env.releaseResidentPages()
        try env.read { txn in
            for k in 0..<4_000 { XCTAssertEqual(try txn.getBytes(db, key: LMDBTestCase.key(k))?.count, 4_000) }
        }
        let mapped = try XCTUnwrap(Environment.residentFileBytes())
        env.releaseResidentPages()
        let after = try XCTUnwrap(Environment.residentFileBytes())
        XCTAssertGreaterThan(mapped - after, 12 << 20, "the ~16 MB read were not unmapped (\(mapped >> 20) -> \(after >> 20) MiB)")
    }

    /// A `/proc` file is read to its end, in several reads, and refused past its bound rather than held whole.
    func testAProcFileIsReadWholeWithinItsBound() throws {
        let file = dir.file("big")
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(Environment.readProcFile(file), bytes, "more than one 64 KiB read")
        XCTAssertNil(Environment.readProcFile(file, limit: 100_000), "over its bound")
        XCTAssertNil(Environment.readProcFile(dir.file("missing")))
    }

    /// The map's lines in a maps file: by device and inode (the path may be resolved, renamed or deleted).
    func testTheMapsLinesOfAFileAreFoundByDeviceAndInode() {
        let dev: UInt64 = (0xFD << 8) | 0x01  // fd:01
        let maps = Array("""
        55d0c0000000-55d0c0021000 r--p 00000000 fd:01 111 /usr/bin/x
        7f0000000000-7f0004000000 rw-s 00000000 fd:01 4242 /tmp/a/data.mdb (deleted)
        7f0004000000-7f0004001000 rw-p 00000000 00:00 0
        7f0005000000-7f0006000000 r--s 00000000 fd:02 4242 /other/data.mdb
        7f0007000000-7f0008000000 r--s 01000000 fd:01 4242 /tmp/b/data.mdb
        garbage line
        7f0009000000-7f0008000000 r--s 00000000 fd:01 4242 /tmp/c/data.mdb
        """.utf8)
        XCTAssertEqual(Environment.ranges(in: maps, device: dev, inode: 4242),
                       [0x7F00_0000_0000..<0x7F00_0400_0000, 0x7F00_0700_0000..<0x7F00_0800_0000])
        XCTAssertEqual(Environment.ranges(in: maps, device: dev, inode: 999), [])
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

    /// `/proc/self/statm` is read by hand into 128 bytes: its third field, or nil for anything else.
    func testTheStatmParseTakesTheThirdFieldAndRefusesAnythingElse() {
        func pages(_ text: String) -> Int? { Array(text.utf8).withUnsafeBufferPointer { Environment.residentSharedPages(statm: $0) } }
        XCTAssertEqual(pages("61234 5210 3388 402 0 2040 0\n"), 3388)
        XCTAssertEqual(pages("1 2 3"), 3)
        XCTAssertEqual(pages("1 2 999999999999999999 4"), 999_999_999_999_999_999)
        XCTAssertNil(pages("1 2 9999999999999999999 4"), "19 digits")
        XCTAssertNil(pages("1 2 -3 4"))
        XCTAssertNil(pages("1 2 3x 4"))
        XCTAssertNil(pages("1 2"), "no third field")
        XCTAssertNil(pages("1 2  4"), "an empty third field")
        XCTAssertNil(pages(""))
        XCTAssertNotNil(Environment.residentFileBytes(), "this process's own statm")
    }

    /// Both counts the budget's check reads: the second field (resident) and the third (shared), each 1 to 18 digits.
    func testTheStatmParseTakesTheResidentAndSharedPages() {
        func pages(_ text: String) -> (Int, Int)? {
            Array(text.utf8).withUnsafeBufferPointer { Environment.residentPages(statm: $0) }.map { ($0.resident, $0.shared) }
        }
        XCTAssertTrue(pages("61234 5210 3388 402 0 2040 0\n")! == (5210, 3388))
        XCTAssertTrue(pages("1 999999999999999999 3")! == (999_999_999_999_999_999, 3))
        XCTAssertNil(pages("1 9999999999999999999 3"), "19 digits")
        XCTAssertNil(pages("1 x2 3"))
        XCTAssertNil(pages("1  3 4"), "an empty second field")
        XCTAssertNil(pages("1 2"))
        let own = try? XCTUnwrap(Environment.residentBytes())
        XCTAssertNotNil(own, "this process's own statm")
        if let own { XCTAssertLessThanOrEqual(own.shared, own.resident) }
    }

    /// The mapped pages' budget gives way to anonymous memory past `anonymousAllowance` (112 MiB), byte for byte,
    /// down to 32 MiB; a budget set larger gives way the same, and one under 32 MiB (a test's) is kept.
    func testTheMappedBudgetGivesWayToAnonymousMemoryPastItsAllowance() {
        let mib = 1 << 20
        XCTAssertEqual(Environment.mappedBudget(64 * mib, anonymous: 0), 64 * mib)
        XCTAssertEqual(Environment.mappedBudget(64 * mib, anonymous: 112 * mib), 64 * mib)
        XCTAssertEqual(Environment.mappedBudget(64 * mib, anonymous: 125 * mib), 51 * mib, "125 MiB anonymous: 176 in all")
        XCTAssertEqual(Environment.mappedBudget(64 * mib, anonymous: 144 * mib), 32 * mib)
        XCTAssertEqual(Environment.mappedBudget(64 * mib, anonymous: 900 * mib), 32 * mib, "never under 32 MiB")
        XCTAssertEqual(Environment.mappedBudget(512 * mib, anonymous: 125 * mib), 499 * mib)
        XCTAssertEqual(Environment.mappedBudget(0, anonymous: 900 * mib), 0)
    }
}
