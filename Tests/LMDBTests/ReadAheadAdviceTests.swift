import Foundation
@testable import LMDB
import XCTest

/// `withReadAhead` and `withoutReadAhead`: the map's read-ahead advice for the body, then its standing advice again.
/// Read from the map's flags in `/proc/self/smaps` (`rr`: `MADV_RANDOM`, `sr`: `MADV_SEQUENTIAL`).
final class ReadAheadAdviceTests: LMDBTestCase {
    /// The advice flags (`rr`, `sr`) of the mappings of `folder`'s data file.
    private func adviceFlags(_ folder: String) throws -> Set<String> {
        let file = (Environment.dataFile(folder) as NSString).resolvingSymlinksInPath
        // Read with POSIX calls: the file's size says 0, and Foundation reads no more than that.
        let smaps = String(decoding: try XCTUnwrap(Environment.readProcFile("/proc/self/smaps", limit: 64 << 20)), as: UTF8.self)
        var inMap = false
        var flags: Set<String> = []
        var found = false
        for line in smaps.split(separator: "\n") {
            if let first = line.split(separator: " ").first, first.contains("-"), first.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                inMap = line.hasSuffix(file)
                found = found || inMap
            } else if inMap, line.hasPrefix("VmFlags:") {
                flags.formUnion(line.split(separator: " ").dropFirst().map(String.init).filter { $0 == "rr" || $0 == "sr" })
            }
        }
        guard found else { throw XCTSkip("the map of \(file) is not in /proc/self/smaps") }
        return flags
    }

    func testTheAdviceHoldsForTheBodyAndTheStandingAdviceComesBack() throws {
        for noReadAhead in [false, true] {
            let folder = dir.file(noReadAhead ? "random" : "normal")
            let env = try openEnvironment(in: noReadAhead ? "random" : "normal", mapSize: 16 << 20) { $0.noReadAhead = noReadAhead }
            try fill(env, try env.openDatabase("t", flags: .create), count: 1_000, valueBytes: 100, perTransaction: 1_000)
            let standing: Set<String> = noReadAhead ? ["rr"] : []
            XCTAssertEqual(try adviceFlags(folder), standing, "noReadAhead \(noReadAhead): as opened")
            try env.withReadAhead { XCTAssertEqual(try adviceFlags(folder), ["sr"], "noReadAhead \(noReadAhead): read-ahead on") }
            XCTAssertEqual(try adviceFlags(folder), standing, "noReadAhead \(noReadAhead): after withReadAhead")
            try env.withoutReadAhead { XCTAssertEqual(try adviceFlags(folder), ["rr"], "noReadAhead \(noReadAhead): read-ahead off") }
            XCTAssertEqual(try adviceFlags(folder), standing, "noReadAhead \(noReadAhead): after withoutReadAhead")
            // Thrown out of the body: the standing advice comes back too.
            struct Out: Error {}
            XCTAssertThrowsError(try env.withReadAhead { throw Out() })
            XCTAssertEqual(try adviceFlags(folder), standing, "noReadAhead \(noReadAhead): after a body that threw")
        }
    }

    func testABigValueIsReadAheadAloneOnAMapWithoutReadAhead() throws {
        for noReadAhead in [false, true] {
            let folder = dir.file(noReadAhead ? "random" : "normal")
            let env = try openEnvironment(in: noReadAhead ? "random" : "normal", mapSize: 16 << 20) { $0.noReadAhead = noReadAhead }
            let db = try env.openDatabase("t", flags: .create)
            try fill(env, db, count: 500, valueBytes: 100, perTransaction: 500)
            let big = LMDBTestCase.value(7, bytes: 300_000)
            try env.write { txn in try txn.put(db, key: LMDBTestCase.key(1_000), value: big) }
            let standing: Set<String> = noReadAhead ? ["rr"] : []
            try env.read { txn in
                let value = try XCTUnwrap(try LMDBTestCase.key(1_000).withUnsafeBytes { try txn.get(db, key: $0) })
                let read = try env.withReadAhead(over: value) {
                    // Only the value's pages: the rest of the map keeps its advice.
                    XCTAssertEqual(try adviceFlags(folder), noReadAhead ? ["rr", "sr"] : [], "noReadAhead \(noReadAhead): during")
                    return Array(value)
                }
                XCTAssertEqual(read, big)
            }
            XCTAssertEqual(try adviceFlags(folder), standing, "noReadAhead \(noReadAhead): after")
        }
    }
}
