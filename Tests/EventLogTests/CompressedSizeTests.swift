import EventLog
import EventModel
import NativeCodecs
import XCTest

/// A corrupt size in a record or blob header must not make the reader allocate it (found while writing the record fuzz target).
final class CompressedSizeTests: XCTestCase {
    func testDecompressRefusesASizeTheFrameDoesNotDeclareBeforeAllocating() throws {
        let zstd = try Zstd()
        let payload = [UInt8](repeating: 0x61, count: 200)
        let frame = try payload.withUnsafeBytes { try zstd.compress($0) }
        XCTAssertEqual(try frame.withUnsafeBytes { try zstd.decompress($0, expectedSize: 200) }, payload)
        // 1 TiB: allocating it first would trap.
        XCTAssertThrowsError(try frame.withUnsafeBytes { try zstd.decompress($0, expectedSize: 1 << 40) }) {
            XCTAssertEqual($0 as? NativeCodecError, .corruptCompressedData("the frame holds 200 bytes, expected \(1 << 40)"))
        }
        XCTAssertThrowsError(try [UInt8](repeating: 0, count: 8).withUnsafeBytes { try zstd.decompress($0, expectedSize: 1 << 40) }) {
            XCTAssertEqual($0 as? NativeCodecError, .corruptCompressedData("not a zstd frame"))
        }
    }

    func testDecompressRefusesMoreThanTheInputCanExpandTo() throws {
        let zstd = try Zstd()
        // A frame without a declared content size (zstd's streaming API writes those): 6 header bytes
        // and one RLE block of 128 KiB.
        let frame: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x50] + [0x03, 0x00, 0x10, 0x61]
        XCTAssertEqual(try frame.withUnsafeBytes { try zstd.decompress($0, expectedSize: 1 << 17) },
                       [UInt8](repeating: 0x61, count: 1 << 17))
        XCTAssertThrowsError(try frame.withUnsafeBytes { try zstd.decompress($0, expectedSize: 1 << 40) }) {
            XCTAssertEqual($0 as? NativeCodecError, .corruptCompressedData("10 compressed bytes cannot expand to \(1 << 40)"))
        }
    }

    /// The same checks with a dictionary (a blob's flag 2): before 2026-12-02 its size went to the allocation unchecked.
    func testDecompressWithADictionaryRefusesTheSameBeforeAllocating() throws {
        let zstd = try Zstd()
        let line = "Subject: [list] hello from the list\r\n"
        let dictionary = try ZstdDictionary(bytes: Array(String(repeating: line, count: 40).utf8), level: 3)
        let payload = Array(String(repeating: line, count: 10).utf8)
        let frame = try payload.withUnsafeBytes { try zstd.compress($0, dictionary: dictionary) }
        XCTAssertEqual(try frame.withUnsafeBytes { try zstd.decompress($0, expectedSize: payload.count, dictionary: dictionary) }, payload)
        // 1 TiB: allocating it first would trap.
        XCTAssertThrowsError(try frame.withUnsafeBytes { try zstd.decompress($0, expectedSize: 1 << 40, dictionary: dictionary) }) {
            XCTAssertEqual($0 as? NativeCodecError, .corruptCompressedData("the frame holds \(payload.count) bytes, expected \(1 << 40)"))
        }
        let undeclared: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x50] + [0x03, 0x00, 0x10, 0x61]
        XCTAssertThrowsError(try undeclared.withUnsafeBytes { try zstd.decompress($0, expectedSize: 1 << 40, dictionary: dictionary) }) {
            XCTAssertEqual($0 as? NativeCodecError, .corruptCompressedData("10 compressed bytes cannot expand to \(1 << 40)"))
        }
    }

    func testACompressedRecordClaimingTwoGiBIsCorruptNotAllocated() throws {
        let zstd = try Zstd()
        var payload = ByteWriter()
        DomainEvent.examples[1].encodePayload(to: &payload)
        let stored = try payload.bytes.withUnsafeBytes { try zstd.compress($0) }
        var record = ByteWriter()
        stored.withUnsafeBytes {
            RecordCodec.encode(id: EventID(high: 1, low: 2), type: DomainEvent.examples[1].type, schemaVersion: 1,
                               recordedAt: Timestamp(microseconds: 0), occurredAt: Timestamp(microseconds: 0),
                               actor: .user, causationID: nil, correlationID: nil, account: "a", stream: "s",
                               storedPayload: $0, uncompressedLength: Int(Int32.max), compressed: true, into: &record)
        }
        XCTAssertThrowsError(try record.bytes.withUnsafeBytes { try RecordDecoder().decode($0, sequence: 9) }) {
            guard case EventLogError.corruptRecord(let sequence, _)? = $0 as? EventLogError else { return XCTFail("\($0)") }
            XCTAssertEqual(sequence, 9)
        }
    }
}
