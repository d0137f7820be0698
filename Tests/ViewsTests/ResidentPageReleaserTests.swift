import Foundation
import LMDB
@testable import Views
import XCTest

/// Unmapping a write map's pages while a write transaction fills and commits them loses nothing: the pages
/// are the file's page cache, mapped again when touched.
final class ResidentPageReleaserTests: XCTestCase {
    func testPagesReleasedDuringWritesAndCommitsKeepEveryValue() throws {
        let path = FileManager.default.temporaryDirectory.path + "/releaser-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var o = Environment.Options()
        o.mapSize = 1 << 20
        o.writeMap = true
        func value(_ round: Int, _ k: Int) -> [UInt8] { (0..<1_024).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ k &* 7 &+ round) } }
        func key(_ k: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(k).bigEndian, Array.init) }
        do {
            let env = try Environment(path: path, options: o)
            let db = try env.openDatabase("t", flags: .create)
            for round in 0..<3 {
                let releaser = ResidentPageReleaser(env, every: .milliseconds(1))
                // Every round rewrites every key (pages copied on write), in random order, in one transaction.
                try env.write { txn in
                    for k in (0..<3_000).shuffled() { try txn.put(db, key: key(k), value: value(round, k)) }
                }
                releaser.stop()
                try env.read { txn in
                    for k in 0..<3_000 { XCTAssertEqual(try txn.getBytes(db, key: key(k)), value(round, k), "round \(round) key \(k)") }
                }
            }
            XCTAssertGreaterThan(env.mapSize, 1 << 20, "the map grew while pages were released")
        }
        let env = try Environment(path: path, options: o)
        let db = try env.openDatabase("t")
        try env.read { txn in
            XCTAssertEqual(try txn.stat(db).entries, 3_000)
            for k in stride(from: 0, to: 3_000, by: 7) { XCTAssertEqual(try txn.getBytes(db, key: key(k)), value(2, k)) }
        }
    }
}
