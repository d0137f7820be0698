import EventModel
import XCTest

final class CodecTests: XCTestCase {
    func testVarintsRoundTripAtTheEdges() throws {
        let values: [UInt64] = [0, 1, 127, 128, 255, 16383, 16384, UInt64(UInt32.max), UInt64.max - 1, UInt64.max]
        var w = ByteWriter()
        for v in values { w.writeVarint(v) }
        let signed: [Int64] = [0, -1, 1, Int64.min, Int64.max, -64, 63, -65]
        for v in signed { w.writeSignedVarint(v) }
        try w.bytes.withUnsafeBytes { (raw) throws in
            var r = ByteReader(raw)
            for v in values { XCTAssertEqual(try r.readVarint(), v) }
            for v in signed { XCTAssertEqual(try r.readSignedVarint(), v) }
            XCTAssertTrue(r.isAtEnd)
            XCTAssertThrowsError(try r.readVarint(), "past the end") { XCTAssertEqual($0 as? DecodeError, .truncated(at: w.count)) }
        }
        // A one-byte varint as the last byte, and a longer one cut short there.
        for (bytes, expected) in [([0x7F], UInt64?.some(127)), ([0x80], nil), ([0x05, 0x81], nil)] as [([UInt8], UInt64?)] {
            try bytes.withUnsafeBytes { (raw) throws in
                var r = ByteReader(raw, offset: bytes.count - 1)
                if let expected {
                    XCTAssertEqual(try r.readVarint(), expected)
                    XCTAssertTrue(r.isAtEnd)
                } else {
                    XCTAssertThrowsError(try r.readVarint()) { XCTAssertEqual($0 as? DecodeError, .truncated(at: bytes.count)) }
                }
            }
        }
    }

    func testAWriterGrowsPastItsCapacityKeepingEveryByte() throws {
        // From the smallest buffer: every kind of write crosses a growth at some point.
        var w = ByteWriter(capacity: 1)
        var expected: [UInt8] = []
        for i in 0..<3_000 {
            switch i % 5 {
            case 0:
                w.writeByte(UInt8(truncatingIfNeeded: i))
                expected.append(UInt8(truncatingIfNeeded: i))
            case 1:
                w.writeFixed(UInt32(i))
                expected += withUnsafeBytes(of: UInt32(i).littleEndian) { Array($0) }
            case 2:
                let s = String(repeating: "é", count: i % 40)
                w.writeString(s)
                w.writeVarint(0)
                expected += [UInt8(s.utf8.count)] + Array(s.utf8) + [0]
            case 3:
                // A collection without contiguous storage goes byte by byte.
                let bytes = (0..<(i % 300)).lazy.map { UInt8(truncatingIfNeeded: $0 &* 7) }
                w.writeRaw(bytes)
                expected += Array(bytes)
            default:
                w.writeVarint(UInt64.max)
                expected += [UInt8](repeating: 0xFF, count: 9) + [0x01]
            }
        }
        XCTAssertEqual(w.count, expected.count)
        XCTAssertEqual(w.bytes, expected)
        w.withUnsafeBytes { XCTAssertEqual(Array($0), expected) }
        w.removeAll()
        XCTAssertEqual(w.count, 0)
        w.writeBytes([1, 2, 3])
        XCTAssertEqual(w.bytes, [3, 1, 2, 3])
    }

    func testOverlongVarintIsMalformed() {
        let bytes = [UInt8](repeating: 0xFF, count: 11)
        bytes.withUnsafeBytes { (raw) -> Void in
            var r = ByteReader(raw)
            do {
                _ = try r.readVarint()
                XCTFail("an 11-byte varint decoded")
            } catch {
                XCTAssertEqual(error as? DecodeError, .malformed("varint overflows 64 bits", at: 9))
            }
        }
    }

    func testLengthPrefixLargerThanInputThrows() {
        var w = ByteWriter()
        w.writeVarint(1_000_000)
        w.writeRaw([1, 2, 3])
        w.bytes.withUnsafeBytes { (raw) -> Void in
            var r = ByteReader(raw)
            do {
                _ = try r.readString()
                XCTFail("a string longer than its input decoded")
            } catch {
                XCTAssertEqual(error as? DecodeError, .truncated(at: 3))
            }
        }
    }

    func testRecordHeaderRoundTripsWithAndWithoutOptionalIDs() throws {
        for (causation, correlation) in [(nil, nil), (EventID.generate(), nil), (nil, EventID.generate()), (EventID.generate(), EventID.generate())] {
            let id = EventID.generate()
            var w = ByteWriter()
            let payload: [UInt8] = [9, 8, 7]
            payload.withUnsafeBytes { p in
                RecordCodec.encode(id: id, type: .flagsChanged, schemaVersion: 1, recordedAt: Timestamp(microseconds: 5),
                                   occurredAt: Timestamp(microseconds: -7), actor: .user, causationID: causation,
                                   correlationID: correlation, account: "work", stream: "email/x", storedPayload: p,
                                   uncompressedLength: 3, compressed: false, into: &w)
            }
            let h = try w.bytes.withUnsafeBytes { try RecordCodec.decodeHeader($0, sequence: 42) }
            XCTAssertEqual(h.envelope, EventEnvelope(sequence: 42, id: id, type: .flagsChanged, schemaVersion: 1,
                                                     recordedAt: Timestamp(microseconds: 5), occurredAt: Timestamp(microseconds: -7),
                                                     account: "work", stream: "email/x", causationID: causation,
                                                     correlationID: correlation, actor: .user))
            XCTAssertEqual(Array(w.bytes[h.payloadOffset...]), payload)
            XCTAssertEqual(w.bytes.withUnsafeBytes { RecordCodec.peekType($0) }, .flagsChanged)
        }
    }

    func testEventIDFormsAndOrder() throws {
        let a = EventID.generate(now: Timestamp(microseconds: 1_000_000_000))
        let b = EventID.generate(now: Timestamp(microseconds: 2_000_000_000))
        XCTAssertLessThan(a, b, "UUIDv7 ids sort by time")
        XCTAssertEqual(EventID(a.description), a)
        XCTAssertEqual(a.description.count, 36)
        XCTAssertEqual(Array(a.description)[14], "7", "version nibble")
        XCTAssertNil(EventID("not-an-id"))
        let d1 = EventID(digest: [UInt8](repeating: 0xAA, count: 32))
        XCTAssertEqual(d1, EventID(digest: [UInt8](repeating: 0xAA, count: 32)), "derived ids are stable")
        XCTAssertEqual(Array(d1.description)[14], "8")
    }

    /// A derived id is the digest's first 16 bytes (version and variant bits set), however the bytes are held:
    /// an array, a slice of one, a collection with no contiguous storage; a shorter digest is padded with zeros.
    func testADerivedIdIsTheDigestsFirstSixteenBytesHoweverTheyAreHeld() {
        let digest = (0..<32).map { UInt8($0 * 7 + 1) }
        let expected = "01080f16-1d24-8b32-b940-474e555c636a"
        XCTAssertEqual(EventID(digest: digest).description, expected)
        XCTAssertEqual(EventID(digest: digest[0..<20]).description, expected)
        XCTAssertEqual(EventID(digest: (0..<32).lazy.map { UInt8($0 * 7 + 1) }).description, expected)
        XCTAssertEqual(EventID(digest: digest[5..<13]).description, "242b3239-4047-8e55-8000-000000000000")
        XCTAssertEqual(EventID(digest: (5..<13).lazy.map { UInt8($0 * 7 + 1) }).description, "242b3239-4047-8e55-8000-000000000000")
    }

    func testTimestampFormatsAsISO8601() {
        XCTAssertEqual(Timestamp(microseconds: 0).iso8601, "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(Timestamp(microseconds: 1_705_311_000_123_000).iso8601, "2024-01-15T09:30:00.123Z")
        XCTAssertEqual(Timestamp(microseconds: -1_000).iso8601, "1969-12-31T23:59:59.999Z")
        XCTAssertEqual(Timestamp(microseconds: 951_782_400_000_000).iso8601, "2000-02-29T00:00:00.000Z")
    }

    func testBlobHashHex() {
        let h = BlobHash(bytes: Array(0..<32))!
        XCTAssertEqual(BlobHash(hex: h.hex), h)
        XCTAssertNil(BlobHash(hex: "zz"))
        XCTAssertNil(BlobHash(bytes: [1, 2]))
    }

    /// The digest is kept in four words: its bytes, hex and encoding keep their order, and a hash differs from
    /// another when any one of its 32 bytes does (whichever word holds it).
    func testBlobHashKeepsEveryByteInOrder() throws {
        let bytes = (0..<32).map { UInt8(truncatingIfNeeded: 0xA0 + $0 * 7) }
        let h = BlobHash(bytes: bytes)!
        XCTAssertEqual(h.bytes, bytes)
        XCTAssertEqual(h.hex, bytes.map { String(format: "%02x", $0) }.joined())
        XCTAssertEqual(h.withUnsafeBytes { Array($0) }, bytes)
        var w = ByteWriter()
        h.write(to: &w)
        XCTAssertEqual(w.bytes, bytes)
        let decoded = try w.bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw)
            return try BlobHash(from: &r)
        }
        XCTAssertEqual(decoded, h)
        var seen: Set<BlobHash> = [h]
        for i in 0..<32 {
            var other = bytes
            other[i] ^= 1
            let o = BlobHash(bytes: other)!
            XCTAssertNotEqual(o, h, "byte \(i)")
            XCTAssertTrue(seen.insert(o).inserted, "byte \(i)")
        }
        XCTAssertFalse(seen.insert(BlobHash(hex: h.hex)!).inserted)
    }
}
