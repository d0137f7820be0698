import XCTest
@testable import IMAPProtocol

/// Limits, overflow and the broken-stream contract.
final class ParserLimitTests: XCTestCase {
    func testLiteralOverTheLimitIsRefusedBeforeItsDataArrives() {
        var parser = IMAPResponseParser(maxLiteralSize: 1000)
        parser.feed(raw("* 1 FETCH (BODY[] {1001}\r\n"))
        XCTAssertThrowsError(try parser.next()) { error in
            XCTAssertEqual(error as? IMAPParseError, .literalTooLarge(size: 1001, limit: 1000))
        }
        XCTAssertTrue(parser.isBroken)
        XCTAssertEqual(parser.bufferedByteCount, 0)
    }

    func testHugeLiteralWithDefaultLimitsAllocatesNothing() {
        var parser = IMAPResponseParser()
        parser.feed(raw("* 1 FETCH (BODY[] {99999999999}\r\n"))
        XCTAssertThrowsError(try parser.next()) { error in
            XCTAssertEqual(error as? IMAPParseError, .literalTooLarge(size: 99_999_999_999, limit: 64 << 20))
        }
        var binary = IMAPResponseParser()
        binary.feed(raw("* 1 FETCH (BINARY[1] ~{67108865}\r\n"))
        XCTAssertThrowsError(try binary.next()) { error in
            XCTAssertEqual(error as? IMAPParseError, .literalTooLarge(size: 67_108_865, limit: 64 << 20))
        }
    }

    func testLiteralAtTheLimitIsAccepted() throws {
        let body = [UInt8](repeating: 0x2A, count: 1000)
        let r = try parseAll(raw("* 1 FETCH (BODY[] ") + literal(body) + raw(")\r\n"), chunkSize: 97,
                             parser: IMAPResponseParser(maxLiteralSize: 1000))
        XCTAssertEqual(fetchAttributes(r.first).1.bodyData(), body)
    }

    func testLiteralSizeOverflowIsMalformed() {
        guard case .malformed(let what, _)? = parseError(raw("* 1 FETCH (BODY[] {99999999999999999999999}\r\n")) else {
            return XCTFail("expected malformed")
        }
        XCTAssertTrue(what.contains("literal size"), what)
    }

    func testTooLongLineIsRefusedBeforeItEnds() {
        var parser = IMAPResponseParser(maxLineLength: 100)
        parser.feed(raw("* OK " + String(repeating: "x", count: 95)))
        XCTAssertNil(try parser.next())
        parser.feed(raw("y"))
        XCTAssertThrowsError(try parser.next()) { error in
            XCTAssertEqual(error as? IMAPParseError, .lineTooLong(limit: 100))
        }
    }

    func testDefaultLineLimitIsOneMebibyte() {
        let exactly = raw("* OK " + String(repeating: "x", count: (1 << 20) - 7) + "\r\n")
        XCTAssertEqual(exactly.count, 1 << 20)
        XCTAssertNil(parseError(exactly))
        let over = raw("* OK " + String(repeating: "x", count: (1 << 20) - 6) + "\r\n")
        XCTAssertEqual(parseError(over, chunkSize: 4096), .lineTooLong(limit: 1 << 20))
    }

    func testLineLimitCountsEveryNonLiteralPartOfAResponse() {
        var bytes = raw("* 1 FETCH (")
        for i in 0..<20 { bytes += raw("BODY[\(i)] ") + literal(raw("0123456789")) + raw(" ") }
        bytes += raw(")\r\n")
        XCTAssertEqual(parseError(bytes, parser: IMAPResponseParser(maxLineLength: 150)), .lineTooLong(limit: 150))
        XCTAssertNil(parseError(bytes, parser: IMAPResponseParser(maxLineLength: 400)))
    }

    func testResponseSizeLimitCountsLiterals() {
        var bytes = raw("* 1 FETCH (")
        for i in 0..<10 { bytes += raw("BODY[\(i)] ") + literal([UInt8](repeating: 0x41, count: 100)) + raw(" ") }
        bytes += raw(")\r\n")
        let tight = IMAPResponseParser(limits: .init(maxLiteralSize: 100, maxResponseSize: 500))
        guard case .responseTooLarge(_, 500)? = parseError(bytes, parser: tight) else { return XCTFail("expected responseTooLarge") }
        XCTAssertNil(parseError(bytes, parser: IMAPResponseParser(limits: .init(maxLiteralSize: 100, maxResponseSize: 5000))))
    }

    func testNestingTooDeep() {
        func nested(_ depth: Int) -> [UInt8] {
            raw("* 1 FETCH (BODYSTRUCTURE " + String(repeating: "(", count: depth) + "NIL" + String(repeating: ")", count: depth) + ")\r\n")
        }
        // The FETCH list is level 1, so 63 more levels fit in the default 64.
        XCTAssertNil(parseError(nested(63)))
        XCTAssertEqual(parseError(nested(64)), .nestingTooDeep(limit: 64))
        XCTAssertEqual(parseError(nested(100_000)), .nestingTooDeep(limit: 64))
        XCTAssertEqual(parseError(nested(3), parser: IMAPResponseParser(maxNestingDepth: 3)), .nestingTooDeep(limit: 3))
        XCTAssertEqual(parseError(raw("* LIST (\\A) \"/\" x " + String(repeating: "(", count: 70) + "\r\n")), .nestingTooDeep(limit: 64))
    }

    func testConfiguredNestingIsCappedSoRecursionStaysShallow() {
        let parser = IMAPResponseParser(maxNestingDepth: 1_000_000)
        XCTAssertEqual(parser.limits.maxNestingDepth, IMAPResponseParser.Limits.nestingDepthCeiling)
        let deep = raw("* 1 FETCH (BODYSTRUCTURE " + String(repeating: "(", count: 200_000) + ")\r\n")
        XCTAssertEqual(parseError(deep, parser: parser), .nestingTooDeep(limit: 256))
        XCTAssertEqual(IMAPResponseParser.Limits(maxLiteralSize: -5, maxLineLength: 0).maxLiteralSize, 0)
    }

    func testNumberOverflowIsMalformedNotATrap() {
        let cases = [
            "* 4294967296 EXISTS\n",
            "* 1 FETCH (UID 4294967296)\n",
            "* 1 FETCH (MODSEQ (18446744073709551616))\n",
            "* 1 FETCH (RFC822.SIZE 99999999999999999999)\n",
            "* 1 FETCH (X-GM-MSGID 18446744073709551616)\n",
            "* SEARCH 1 2 99999999999\n",
            "* VANISHED 1:4294967296\n",
            "* 1 FETCH (BODY[]<4294967296> NIL)\n",
            "* ESEARCH COUNT 4294967296\n",
        ]
        for text in cases {
            guard case .malformed(let what, _)? = parseError(crlf(text)) else {
                XCTFail("expected malformed for \(text.debugDescription)")
                continue
            }
            XCTAssertTrue(what.contains("fit") || what.contains("exceeds"), "\(text.debugDescription): \(what)")
        }
        XCTAssertNil(parseError(crlf("* 4294967295 EXISTS\n* 1 FETCH (MODSEQ (18446744073709551615))\n")))
    }

    func testOverflowingNumberInAResponseCodeKeepsTheCodeRaw() throws {
        XCTAssertEqual(try parseUntagged("* OK [UIDVALIDITY 4294967296] x\n"),
                       .condition(.ok, code: .other(name: "UIDVALIDITY", raw: "4294967296"), text: "x"))
    }

    func testBrokenStreamKeepsThrowingTheSameError() {
        var parser = IMAPResponseParser()
        parser.feed(raw("a1 MAYBE\r\n* 1 EXISTS\r\n"))
        let first: IMAPParseError?
        do {
            _ = try parser.next()
            first = nil
        } catch {
            first = error
        }
        guard case .malformed(_, let at)? = first else { return XCTFail("expected malformed") }
        XCTAssertEqual(at, 3)
        parser.feed(raw("* 2 EXISTS\r\n"))
        XCTAssertEqual(parser.bufferedByteCount, 0)
        XCTAssertThrowsError(try parser.next()) { XCTAssertEqual($0 as? IMAPParseError, first) }
        XCTAssertThrowsError(try parser.next()) { XCTAssertEqual($0 as? IMAPParseError, first) }
    }

    func testErrorOffsetsCountFromTheStreamStart() {
        var parser = IMAPResponseParser()
        parser.feed(raw("* 1 EXISTS\r\n* 2 FETCH (UID x)\r\n"))
        XCTAssertEqual(try parser.next(), .untagged(.exists(1)))
        XCTAssertThrowsError(try parser.next()) { error in
            XCTAssertEqual(error as? IMAPParseError, .malformed("expected a UID", at: 12 + 15))
        }
        // Same when the first response was already discarded from the buffer.
        var drained = IMAPResponseParser()
        drained.feed(raw("* 1 EXISTS\r\n"))
        XCTAssertEqual(try drained.next(), .untagged(.exists(1)))
        drained.feed(raw("* 2 FETCH (UID x)\r\n"))
        XCTAssertThrowsError(try drained.next()) { error in
            XCTAssertEqual(error as? IMAPParseError, .malformed("expected a UID", at: 12 + 15))
        }
    }

    func testErrorDescriptionsSayWhatFailed() {
        XCTAssertEqual(IMAPParseError.literalTooLarge(size: 10, limit: 5).description, "IMAP literal of 10 bytes exceeds the limit of 5 bytes")
        XCTAssertTrue(IMAPParseError.malformed("expected a UID", at: 7).description.contains("byte 7: expected a UID"))
        XCTAssertTrue(IMAPParseError.nestingTooDeep(limit: 64).description.contains("64"))
        XCTAssertTrue(IMAPParseError.lineTooLong(limit: 9).description.contains("9"))
    }

    func testBufferIsCompactedAfterManyResponses() throws {
        var parser = IMAPResponseParser()
        let line = raw("* 1 FETCH (UID 1 FLAGS (\\Seen))\r\n")
        for i in 0..<10_000 {
            parser.feed(line + raw("* 2 EXI"))
            if i > 0 { parser.feed(raw("STS\r\n")) }
            var count = 0
            while try parser.next() != nil { count += 1 }
            XCTAssertEqual(count, i == 0 ? 1 : 2)
            parser.feed(raw(""))
            XCTAssertLessThanOrEqual(parser.bufferedByteCount, 16)
        }
    }
}
