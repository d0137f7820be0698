import EventLog
import EventModel
import LMDB
import XCTest

/// `scanDecoded`: payloads decoded where they lie in the map give what `scan` and `decode()` give.
final class TypedScanTests: EventLogTestCase {
    private func typed(_ log: EventLog, filter: ScanFilter = .all, from: UInt64 = 1,
                       chunkSize: Int = 512) throws -> [(EventEnvelope, Result<DomainEvent, DecodeError>)] {
        var out: [(EventEnvelope, Result<DomainEvent, DecodeError>)] = []
        try log.scanDecoded(from: from, filter: filter, chunkSize: chunkSize) { out.append(($0, $1)); return true }
        return out
    }

    func testEveryExampleEventDecodesInPlaceAsItDoesFromACopy() throws {
        let log = try openLog()
        // Every example, a big payload (stored compressed) and an unknown type, in chunks smaller than the log.
        var events = DomainEvent.examples
        events.append(categorized(7, padding: 5_000))
        events.append(.unknown(type: EventType(rawValue: 60_000), version: 2, payload: [9, 8, 7]))
        try log.append(events.enumerated().map { i, e in event(e, stream: StreamName(rawValue: "s\(i % 5)")) })
        let copied = try all(log)
        let inPlace = try typed(log, chunkSize: 7)
        XCTAssertEqual(inPlace.count, events.count)
        for ((env, result), stored) in zip(inPlace, copied) {
            XCTAssertEqual(env, stored.envelope)
            XCTAssertEqual(try result.get(), try stored.decode())
        }
        XCTAssertEqual(try inPlace.map { try $0.1.get() }, events)
    }

    func testFiltersAndAStartPointSelectWhatScanSelects() throws {
        let log = try openLog()
        try log.append((1...40).map { i in
            NewEvent(event: i % 3 == 0 ? .flagsChanged(FlagsChanged(emailID: "e\(i)", folder: "INBOX", flags: ["\\Seen"])) : categorized(i),
                     account: i % 2 == 0 ? "a" : "b", stream: StreamName(rawValue: "s\(i % 4)"),
                     occurredAt: Timestamp(microseconds: 1), actor: .sync)
        })
        let filters = [ScanFilter(types: [.flagsChanged]), ScanFilter(account: "a"), ScanFilter(types: [.emailCategorized], account: "b"),
                       ScanFilter(stream: "s1"), .all]
        for filter in filters {
            for from: UInt64 in [1, 17, 40, 41] {
                let expected = try all(log, filter: filter, from: from)
                let got = try typed(log, filter: filter, from: from, chunkSize: 5)
                XCTAssertEqual(got.map(\.0.sequence), expected.map(\.envelope.sequence), "\(filter) from \(from)")
                XCTAssertEqual(try got.map { try $0.1.get() }, try expected.map { try $0.decode() })
            }
        }
    }

    func testAPayloadThatDoesNotDecodeIsPassedOnAsItsErrorAndTheScanGoesOn() throws {
        let log = try openLog()
        // An event of a known type whose bytes are not that type's payload.
        try log.append([event(categorized(1)),
                        event(.unknown(type: .emailCategorized, version: 1, payload: [0xFF, 0xFF, 0xFF])),
                        event(categorized(3))])
        let got = try typed(log)
        XCTAssertEqual(got.map(\.0.sequence), [1, 2, 3])
        XCTAssertEqual(try got[0].1.get(), categorized(1))
        guard case .failure = got[1].1 else { return XCTFail("a malformed payload decoded: \(got[1].1)") }
        XCTAssertEqual(try got[2].1.get(), categorized(3))
        XCTAssertFalse(try log.verify().isClean, "verify names the payload that does not decode")
    }

    func testTheScanStopsWhenTheBodySaysSo() throws {
        let log = try openLog()
        try log.append((1...30).map { event(categorized($0)) })
        var seen: [UInt64] = []
        try log.scanDecoded(chunkSize: 4) { env, _ in
            seen.append(env.sequence)
            return env.sequence < 9
        }
        XCTAssertEqual(seen, Array(1...9))
    }

    // A record whose key is not a sequence number (a damaged file) stops a typed scan by name; `verify` names it too.
    func testAKeyThatIsNotEightBytesStopsTheScanWithAClearError() throws {
        do {
            let log = try openLog()
            try log.append((1...3).map { event(categorized($0)) })
            let events = try log.environment.openDatabase("events")
            // Nine bytes that sort between the records 2 and 3: the last key, so the head, stays sound.
            let stored = try XCTUnwrap(try log.environment.read { try $0.getBytes(events, key: [0, 0, 0, 0, 0, 0, 0, 2]) })
            try log.environment.write { txn in _ = try txn.put(events, key: [0, 0, 0, 0, 0, 0, 0, 2, 0], value: stored) }
        }
        let log = try openLog()
        var seen: [UInt64] = []
        XCTAssertThrowsError(try log.scanDecoded { env, _ in seen.append(env.sequence); return true }) {
            XCTAssertTrue("\($0)".contains("9 bytes, not 8"), "\($0)")
        }
        XCTAssertEqual(seen, [1, 2], "the records before the damaged key were passed on")
        let report = try log.verify()
        XCTAssertTrue(report.problems.contains { $0.message.contains("key is 9 bytes, not 8") }, "\(report.problems)")
    }
}
