import EventModel
import XCTest

final class PayloadRoundTripTests: XCTestCase {
    func testEveryCatalogTypeHasAnExample() {
        let covered = Set(DomainEvent.examples.map(\.type))
        let catalog = Set(EventType.catalog.map(\.0))
        XCTAssertEqual(covered, catalog, "every event type of the catalog needs an example")
    }

    func testEveryEventTypeRoundTrips() throws {
        for event in DomainEvent.examples {
            var w = ByteWriter()
            event.encodePayload(to: &w)
            let decoded = try DomainEvent.decode(type: event.type, version: event.schemaVersion, payload: w.bytes)
            XCTAssertEqual(decoded, event, "\(event.type.name) did not round-trip")
        }
    }

    func testEncodingAnEventWhereItLiesNamesItsTypeAndSchemaVersion() throws {
        // The batch encoder takes the type and version from the encoding call rather than reading them apart.
        let unknown = DomainEvent.unknown(type: EventType(rawValue: 60_000), version: 7, payload: [1, 2, 3])
        for event in DomainEvent.examples + [unknown] {
            var w = ByteWriter()
            let (type, version) = withUnsafePointer(to: event) { DomainEvent.encodePayload(at: $0, to: &w) }
            XCTAssertEqual(type, event.type, "\(event.type.name)")
            XCTAssertEqual(version, event.schemaVersion, "\(event.type.name)")
            var again = ByteWriter()
            event.encodePayload(to: &again)
            XCTAssertEqual(w.bytes, again.bytes)
        }
    }

    func testTruncatedPayloadsThrowInsteadOfTrapping() {
        for event in DomainEvent.examples {
            var w = ByteWriter()
            event.encodePayload(to: &w)
            let bytes = w.bytes
            for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 7)) {
                // At the version it was written in: a version 2 payload cut where version 1 ends is a whole version 1 one.
                XCTAssertThrowsError(try DomainEvent.decode(type: event.type, version: event.schemaVersion, payload: Array(bytes[0..<cut])),
                                     "\(event.type.name) cut at \(cut) decoded")
            }
        }
    }

    func testTrailingBytesAreRejected() {
        var w = ByteWriter()
        DomainEvent.examples[0].encodePayload(to: &w)
        XCTAssertThrowsError(try DomainEvent.decode(type: DomainEvent.examples[0].type, version: 1, payload: w.bytes + [0]))
    }

    func testRandomGarbageNeverTraps() {
        var rng = SplitMix(seed: 42)
        for _ in 0..<3000 {
            let n = Int(rng.next() % 200)
            let bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let type = EventType.catalog[Int(rng.next() % UInt64(EventType.catalog.count))].0
            _ = try? DomainEvent.decode(type: type, version: 1, payload: bytes)
            _ = bytes.withUnsafeBytes { try? RecordCodec.decodeHeader($0, sequence: 1) }
        }
    }

    func testNewerSchemaVersionIsRefusedWithAClearError() {
        var w = ByteWriter()
        let ev = DomainEvent.examples[0]
        ev.encodePayload(to: &w)
        XCTAssertThrowsError(try DomainEvent.decode(type: ev.type, version: 99, payload: w.bytes)) { error in
            XCTAssertEqual(error as? DecodeError, .unsupportedVersion(type: ev.type.name, version: 99, newest: 1))
            XCTAssertTrue("\(error)".contains("upgrade mailstore"))
        }
    }

    func testUnknownTypeIsKeptAsBytes() throws {
        let decoded = try DomainEvent.decode(type: EventType(rawValue: 9999), version: 3, payload: [1, 2, 3])
        XCTAssertEqual(decoded, .unknown(type: EventType(rawValue: 9999), version: 3, payload: [1, 2, 3]))
        XCTAssertEqual(decoded.type.name, "Unknown(9999)")
    }

    func testEventTypeNamesAreUniqueAndLookUp() {
        let names = EventType.catalog.map(\.1)
        XCTAssertEqual(Set(names).count, names.count)
        XCTAssertEqual(Set(EventType.catalog.map(\.0.rawValue)).count, names.count)
        XCTAssertEqual(EventType(name: "emailreceived"), .emailReceived)
        XCTAssertNil(EventType(name: "NoSuchEvent"))
    }
}

/// A small deterministic PRNG for tests.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

final class CatalogDocTests: XCTestCase {
    /// docs/events.md lists every event type with its code and current schema version.
    func testEventsDocCoversEveryType() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/events.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        for event in DomainEvent.examples {
            let heading = "### \(event.type.name) (code \(event.type.rawValue))"
            XCTAssertTrue(text.contains(heading), "docs/events.md lacks '\(heading)'")
            let row = "| \(event.type.rawValue) | [\(event.type.name)]"
            XCTAssertTrue(text.contains(row), "docs/events.md's table lacks \(event.type.name)")
            XCTAssertTrue(text.contains("schema version \(event.schemaVersion)."), "version of \(event.type.name)")
        }
    }

    /// The record fuzz target's seed corpus holds every event type (`fuzz-record --write-seeds`): it had fallen behind
    /// the event model by seven types, whose payloads the fuzzer then had to find alone. Each type's seeds are records
    /// of its current schema version (five types' seeds had stayed at version 1 as their schemas grew, so the fuzzer
    /// started from no record of their newer fields); a seed of an older version, kept as `NN-Type-vN-suffix` so that
    /// the upcasting of old records is fuzzed too, is a record of that version and type.
    func testTheRecordFuzzSeedsHoldEveryType() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tools/fuzzing/corpus/record").path
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: corpus))
        func header(_ name: String) throws -> EventEnvelope {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: corpus + "/" + name)))
            return try bytes.withUnsafeBytes { try RecordCodec.decodeHeader($0, sequence: 1) }.envelope
        }
        let write = "run `swift build --product fuzz-record && .build/debug/fuzz-record --write-seeds DIR` and copy DIR's files into it "
            + "(renaming a seed of an older version NN-Type-vN-suffix first)"
        var older = 0
        for (index, event) in DomainEvent.examples.enumerated() {
            let stem = String(format: "%02d", index) + "-\(event.type.name)-"
            for suffix in ["plain", "zstd"] {
                let name = stem + suffix
                guard names.contains(name) else {
                    XCTFail("Tools/fuzzing/corpus/record lacks \(name): \(write)")
                    continue
                }
                let current = try header(name)
                XCTAssertEqual(current.type, event.type, name)
                XCTAssertEqual(current.schemaVersion, event.schemaVersion, "\(name) is of an older schema version: \(write)")
            }
            for name in names where name.hasPrefix(stem + "v") {
                let version = try XCTUnwrap(UInt16(name.dropFirst(stem.count + 1).prefix { $0.isNumber }), name)
                let old = try header(name)
                XCTAssertEqual(old.type, event.type, name)
                XCTAssertEqual(old.schemaVersion, version, name)
                XCTAssertLessThan(version, event.schemaVersion, name)
                older += 1
            }
        }
        XCTAssertGreaterThan(older, 0, "older versions' seeds are kept")
    }
}
