import CorpusGenerator
import Foundation
import LMDB
import TestSupport
@testable import Views
import XCTest

/// The merge of a table's staged history runs at publish (`StagedRuns.merge`, `StagedMerge`'s heap): with hundreds of
/// runs (a 1M replay's big tables have ~600), every version comes out once, in key order and then window order, and
/// where several runs say the same key in the same window the last one written wins.
final class StagedMergeTests: XCTestCase {
    /// A view key: its number's 4 bytes, big-endian, and 0-6 more bytes (keys of several lengths, some a prefix of
    /// others).
    private func key(_ n: Int) -> [UInt8] {
        withUnsafeBytes(of: UInt32(n).bigEndian) { Array($0) } + [UInt8](repeating: 0x61, count: n % 7)
    }

    /// Runs `work` in a read transaction of `env` (the merge's `read`).
    private static func read(_ env: Environment, _ work: (TransactionScope) throws -> Void) throws {
        try env.read { txn in
            let scope = TransactionScope(txn)
            defer { scope.end() }
            try work(scope)
        }
    }

    private struct Version: Equatable, CustomStringConvertible {
        var key: [UInt8]
        var window: UInt32
        var value: [UInt8]
        var description: String { "\(key) w\(window) \(String(decoding: value, as: UTF8.self))" }
    }

    func testHundredsOfRunsMergeInKeyAndWindowOrderTheLastRunWritten() throws {
        let dir = TemporaryDirectory("staged-merge")
        let env = try Environment(path: dir.path)
        let staging = try env.openDatabase("staging", flags: .create)
        let history = try env.openDatabase("history", flags: .create)
        var runs = StagedRuns()
        var rng = SplitMix64(seed: 12)
        var expected: [[UInt8]: [UInt32: [UInt8]]] = [:]
        for r in 0..<300 {
            // Three runs to a window (a window's write-outs): a key they share in it is the last one's.
            let run = runs.start(table: "t", window: UInt32(r / 3))
            let numbers = Set((0..<Int.random(in: 0...40, using: &rng)).map { _ in Int.random(in: 0..<800, using: &rng) })
            let keys = numbers.map(key).sorted { $0.lexicographicallyPrecedes($1) }
            try env.write { txn in
                var staged: [UInt8] = []
                for k in keys {
                    let value = Array("run \(r)".utf8)
                    XCTAssertTrue(k.withUnsafeBytes { StagedRuns.key($0, run: run.number, into: &staged) })
                    _ = try txn.put(staging, key: staged, value: value)
                    expected[k, default: [:]][run.window] = value
                }
            }
        }
        // The order the history is written in: by key, then by window.
        var want: [Version] = []
        for k in expected.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            for (w, v) in expected[k]!.sorted(by: { $0.key < $1.key }) { want.append(Version(key: k, window: w, value: v)) }
        }
        var got: [Version] = []
        try runs.merge(table: "t", staging: staging, history: history, chunk: 37, read: { try Self.read(env, $0) }) { batch in
            batch.forEach { k, w, v in got.append(Version(key: Array(k), window: w, value: Array(v))) }
        }
        XCTAssertGreaterThan(want.count, 3_000, "enough versions to merge")
        XCTAssertEqual(got.count, want.count)
        let first = got.indices.first { $0 >= want.count || got[$0] != want[$0] }
        XCTAssertNil(first, "first difference at \(first ?? -1): \(first.map { "\(got[$0]) against \($0 < want.count ? want[$0].description : "nothing")" } ?? "")")
    }

    /// Big versions (a long thread's record is up to ~1 MB) are read ahead one at a time and handed on in stretches of
    /// about `stretchBytes`: 30 runs of 10 keys of 100 KB had held 30 MB read ahead and 10 MB in one stretch.
    func testBigVersionsAreReadAheadAndHandedOnByTheirBytes() throws {
        let dir = TemporaryDirectory("staged-merge-big")
        let env = try Environment(path: dir.path)
        let staging = try env.openDatabase("staging", flags: .create)
        let history = try env.openDatabase("history", flags: .create)
        var runs = StagedRuns()
        let size = 100_000
        for r in 0..<30 {
            let run = runs.start(table: "t", window: UInt32(r / 3))
            try env.write { txn in
                var staged: [UInt8] = []
                for n in 0..<10 {
                    XCTAssertTrue(key(n).withUnsafeBytes { StagedRuns.key($0, run: run.number, into: &staged) })
                    _ = try txn.put(staging, key: staged, value: [UInt8](repeating: UInt8(r), count: size))
                }
            }
        }
        var merge = StagedMerge(runs: runs.runs, staging: staging, history: history)
        var out = VersionBatch()
        var mostHeld = 0
        try env.read { txn in
            let scope = TransactionScope(txn)
            defer { scope.end() }
            try merge.start(scope)
            while try merge.pop(into: &out, scope) { mostHeld = max(mostHeld, merge.heldBytes) }
        }
        XCTAssertLessThanOrEqual(mostHeld, 30 * (StagedRuns.readAheadBytes + size + 16), "one big version a source")
        XCTAssertEqual(out.count, 10 * 10, "each key once a window")

        var stretches: [Int] = []
        var got: [(key: [UInt8], window: UInt32, value: UInt8)] = []
        try runs.merge(table: "t", staging: staging, history: history, chunk: 1_000, read: { try Self.read(env, $0) }) { batch in
            stretches.append(batch.bytes.count)
            batch.forEach { k, w, v in got.append((Array(k), w, v.first!)) }
        }
        XCTAssertGreaterThan(stretches.count, 1)
        XCTAssertLessThanOrEqual(stretches.max()!, StagedRuns.stretchBytes + 2 * (size + 16))
        // Every key in every window once, in order, the window's last run's value.
        let want = (0..<10).map(key).sorted { $0.lexicographicallyPrecedes($1) }.flatMap { k in (0..<10).map { w in (k, UInt32(w), UInt8(w * 3 + 2)) } }
        XCTAssertEqual(got.map(\.key), want.map(\.0))
        XCTAssertEqual(got.map(\.window), want.map(\.1))
        XCTAssertEqual(got.map(\.value), want.map(\.2))
    }
}
