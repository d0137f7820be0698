import EventModel
import Projections
import XCTest

/// A table's encoded changes come out in LMDB's key order, whatever their length and shared prefixes.
final class EncodedChangesTests: XCTestCase {
    private func written(_ changes: borrowing EncodedChanges) throws -> [([UInt8], [UInt8]?)] {
        var out: [([UInt8], [UInt8]?)] = []
        try changes.forEach { k, v in out.append((Array(k), v.map { Array($0) })) }
        return out
    }

    /// Random keys with long shared prefixes, ties in the 16 bytes compared as integers, keys that are prefixes
    /// of others and zero bytes: sorted as byte strings are (shorter first on a common prefix).
    func testChangesComeOutInByteOrder() throws {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<50 {
            var changes = EncodedChanges()
            var keys: [[UInt8]] = []
            let prefix = [UInt8](repeating: 7, count: round % 5 == 0 ? 0 : Int.random(in: 1...40, using: &rng))
            for _ in 0..<Int.random(in: 1...300, using: &rng) {
                // Few distinct bytes, so ties past the first 16 bytes are common.
                let tail = (0..<Int.random(in: 0...30, using: &rng)).map { _ in UInt8.random(in: 0...2, using: &rng) }
                var key = prefix + tail
                if key.isEmpty { key = [0] }
                if keys.contains(key) { continue }
                keys.append(key)
                if Bool.random(using: &rng) {
                    changes.append(key: key) { $0.writeRaw(key.reversed()) }
                } else {
                    changes.append(key: key, value: nil)
                }
            }
            changes.sort()
            let out = try written(changes)
            XCTAssertEqual(out.map(\.0), keys.sorted { $0.lexicographicallyPrecedes($1) }, "round \(round)")
            for (k, v) in out where v != nil { XCTAssertEqual(v, Array(k.reversed()), "each value stays with its key") }
        }
    }

    /// Changes of the same key keep their order (the later is written last); an empty value is a value,
    /// not a deletion.
    func testChangesOfOneKeyKeepTheirOrder() throws {
        var changes = EncodedChanges()
        changes.append(key: [2], value: [1])
        changes.append(key: [1, 0, 0], value: [])
        changes.append(key: [2], value: nil)
        changes.append(key: [1], value: [3])
        changes.append(key: [2], value: [9])
        changes.sort()
        let out = try written(changes)
        XCTAssertEqual(out.map(\.0), [[1], [1, 0, 0], [2], [2], [2]])
        XCTAssertEqual(out.map(\.1), [[3], [], [1], nil, [9]])
    }
}
