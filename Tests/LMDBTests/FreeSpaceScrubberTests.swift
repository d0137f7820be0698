import Foundation
import LMDB
import TestSupport
import XCTest

/// `FreeSpaceScrubber` zeroes only the free middles of a compacted copy's B-tree pages: the copy opens with every
/// entry as it was (plain, overflow and duplicate-sorted fixed-size values), and what it does not recognise it
/// leaves alone.
final class FreeSpaceScrubberTests: LMDBTestCase {
    /// Every entry of `db`, in order.
    private func entries(_ env: Environment, _ db: Database) throws -> [[UInt8]] {
        try env.read { txn in
            try txn.withCursor(db) { c in
                var out: [[UInt8]] = []
                var e = try c.first()
                while let (k, v) = e {
                    out.append(Array(k) + [0xFF] + Array(v))
                    e = try c.next()
                }
                return out
            }
        }
    }

    func testAScrubbedCompactCopyKeepsEveryEntryAndZeroesFreeBytes() throws {
        var o = Environment.Options()
        o.mapSize = 64 << 20
        o.maxDatabases = 4
        let env = try Environment(path: dir.path, options: o)
        let plain = try env.openDatabase("plain", flags: .create)
        let dups = try env.openDatabase("dups", flags: [.create, .dupSort, .dupFixed])
        // Values of many sizes (some over a page: overflow runs), rewritten and deleted in later transactions so
        // pages are copied on write and split, leaving stale nodes in their free middles.
        for round in 0..<3 {
            try env.write { txn in
                for i in 0..<3_000 {
                    let size = i % 97 == 0 ? 5_000 + i : 20 + (i * 7 + round * 13) % 300
                    let value = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ i &+ round) | 1 }
                    _ = try txn.put(plain, key: LMDBTestCase.key(i), value: value)
                }
                if round > 0 {
                    for i in stride(from: round, to: 3_000, by: 5) { _ = try txn.delete(plain, key: LMDBTestCase.key(i)) }
                }
                // One key with thousands of 8-byte duplicates: a sub-database of `LEAF2` pages.
                for i in 0..<4_000 {
                    var v = UInt64(i * 3 + round).bigEndian
                    _ = try withUnsafeBytes(of: &v) { try txn.put(dups, key: Array("many".utf8), value: Array($0)) }
                }
            }
        }
        let copyDir = TemporaryDirectory("lmdb-scrub-copy"), scrubbedDir = TemporaryDirectory("lmdb-scrub-out")
        try env.copy(to: copyDir.path)
        let original = try Data(contentsOf: URL(fileURLWithPath: Environment.dataFile(copyDir.path)))
        var bytes = [UInt8](original)
        let pageSize = env.pageSize
        var scrubber = try XCTUnwrap(FreeSpaceScrubber(pageSize: pageSize))
        // In pieces of 3 pages (the way a stream sees the file), so overflow runs cross pieces.
        bytes.withUnsafeMutableBytes { all in
            var at = 0
            while at < all.count {
                let end = min(all.count, at + 3 * pageSize)
                scrubber.scrub(UnsafeMutableRawBufferPointer(rebasing: all[at..<end]))
                at = end
            }
        }
        XCTAssertGreaterThan(scrubber.zeroedBytes, bytes.count / 20, "a copy of split, rewritten pages has free bytes to zero")
        let changed = zip(bytes, original).filter { $0 != $1 }.count
        XCTAssertGreaterThan(changed, 0)
        try Data(bytes).write(to: URL(fileURLWithPath: Environment.dataFile(scrubbedDir.path)))

        var ro = Environment.Options()
        ro.mapSize = 64 << 20
        ro.maxDatabases = 4
        let scrubbed = try Environment(path: scrubbedDir.path, options: ro)
        let plain2 = try scrubbed.openDatabase("plain"), dups2 = try scrubbed.openDatabase("dups", flags: [.dupSort, .dupFixed])
        let wanted = try entries(env, plain), got = try entries(scrubbed, plain2)
        XCTAssertEqual(got.count, wanted.count)
        XCTAssertTrue(got == wanted, "every key and value, overflow values included, reads back the same")
        XCTAssertEqual(try entries(scrubbed, dups2), try entries(env, dups))
        XCTAssertEqual(try entries(scrubbed, dups2).count, 12_000, "3i + round for i < 4,000 and three rounds: 0 to 11,999 once each")
    }

    func testPagesItDoesNotRecogniseAreLeftAlone() throws {
        let pageSize = 4096
        var scrubber = try XCTUnwrap(FreeSpaceScrubber(pageSize: pageSize))
        // Bytes that are not a compacted copy's pages (their page numbers are not their positions), and a last
        // piece shorter than a page.
        var rng = SystemRandomNumberGenerator()
        var bytes = (0..<(16 * pageSize + 100)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        // A page that would look like a leaf with a free middle, but at the wrong position.
        bytes.withUnsafeMutableBytes { b in
            b.storeBytes(of: UInt64(7), toByteOffset: 2 * pageSize, as: UInt64.self)
            b.storeBytes(of: UInt16(0x02), toByteOffset: 2 * pageSize + 10, as: UInt16.self)
            b.storeBytes(of: UInt16(64), toByteOffset: 2 * pageSize + 12, as: UInt16.self)
            b.storeBytes(of: UInt16(2048), toByteOffset: 2 * pageSize + 14, as: UInt16.self)
        }
        let before = bytes
        bytes.withUnsafeMutableBytes { scrubber.scrub($0) }
        XCTAssertEqual(bytes, before)
        XCTAssertEqual(scrubber.zeroedBytes, 0)
        XCTAssertNil(FreeSpaceScrubber(pageSize: 3000), "not a power of two: no page size LMDB uses")
    }

    /// Pages at their right positions whose own bounds are wrong: a leaf whose lower bound passes its upper one,
    /// a branch whose upper bound passes the page, and an overflow run claiming 2^32 - 1 pages (the rest of the
    /// file is then skipped, never read past). Nothing is zeroed, nothing traps.
    func testBoundsThePagesGiveAreNotTrusted() throws {
        let pageSize = 4096
        var scrubber = try XCTUnwrap(FreeSpaceScrubber(pageSize: pageSize))
        var bytes = [UInt8](repeating: 0xAB, count: 8 * pageSize)
        func header(_ page: Int, flags: UInt16, _ a: UInt16, _ b: UInt16) {
            bytes.withUnsafeMutableBytes { p in
                p.storeBytes(of: UInt64(page), toByteOffset: page * pageSize, as: UInt64.self)
                p.storeBytes(of: flags, toByteOffset: page * pageSize + 10, as: UInt16.self)
                p.storeBytes(of: a, toByteOffset: page * pageSize + 12, as: UInt16.self)
                p.storeBytes(of: b, toByteOffset: page * pageSize + 14, as: UInt16.self)
            }
        }
        header(2, flags: 0x02, 3000, 200)
        header(3, flags: 0x01, 64, 5000)
        header(4, flags: 0x04, 0xFFFF, 0xFFFF)
        header(5, flags: 0x02, 64, 2048)
        let before = bytes
        bytes.withUnsafeMutableBytes { scrubber.scrub($0) }
        bytes.withUnsafeMutableBytes { scrubber.scrub($0) }
        XCTAssertEqual(bytes, before)
        XCTAssertEqual(scrubber.zeroedBytes, 0, "the leaf after the overflow run's claimed pages is skipped too")
    }
}
