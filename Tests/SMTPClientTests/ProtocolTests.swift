@testable import SMTPClient
import SecureTransport
import XCTest

/// The pure parts of the client: replies, EHLO extensions, DATA encoding, error classes.
final class ProtocolTests: XCTestCase {
    func testRepliesAreReadLineByLineAcrossChunks() throws {
        var parser = SMTPReplyParser()
        parser.feed(Array("250-smtp.example.com Hello\r\n250-SIZE 1000\r".utf8))
        XCTAssertNil(try parser.next())
        parser.feed(Array("\n250 AUTH PLAIN\n220 2.0.0 next\r\n".utf8))
        XCTAssertEqual(try parser.next(), SMTPReply(code: 250, lines: ["smtp.example.com Hello", "SIZE 1000", "AUTH PLAIN"]))
        let next = try XCTUnwrap(parser.next())
        XCTAssertEqual(next.code, 220)
        XCTAssertEqual(next.enhancedCode, "2.0.0")
        XCTAssertEqual(next.text, "next")
        XCTAssertNil(try parser.next())
        XCTAssertEqual(parser.bufferedByteCount, 0)
    }

    func testMalformedRepliesAreErrors() {
        for bad in ["hello\r\n", "25 short\r\n", "250-a\r\n251 b\r\n", "250xno separator\r\n", "600 out of range\r\n"] {
            var parser = SMTPReplyParser()
            parser.feed(Array(bad.utf8))
            XCTAssertThrowsError(try parser.next(), bad)
        }
        var endless = SMTPReplyParser()
        endless.feed([UInt8](repeating: 0x41, count: SMTPReplyParser.maxLineLength + 1))
        XCTAssertThrowsError(try endless.next()) { XCTAssertEqual($0 as? SMTPReplyParseError, .lineTooLong(SMTPReplyParser.maxLineLength + 1)) }
    }

    func testAReplyIsBoundedAsAWholeNotOnlyByItsLines() throws {
        // Lines of 8,000 bytes, each within the line bound: 8 of them fit the reply's 64 KiB, 9 do not.
        let line = "250-" + String(repeating: "A", count: 7_996) + "\r\n"
        var fits = SMTPReplyParser()
        fits.feed(Array((String(repeating: line, count: 7) + "250 end\r\n").utf8))
        XCTAssertEqual(try fits.next()?.lines.count, 8)
        var over = SMTPReplyParser()
        over.feed(Array((String(repeating: line, count: 9) + "250 end\r\n").utf8))
        XCTAssertThrowsError(try over.next()) { XCTAssertEqual($0 as? SMTPReplyParseError, .replyTooLong) }
    }

    func testALineOfTheMaximumLengthIsReadWhereverItsCRLFIsSplit() throws {
        let line = Array("250 ".utf8) + [UInt8](repeating: 0x41, count: SMTPReplyParser.maxLineLength - 4)
        var whole = SMTPReplyParser()
        whole.feed(line + [0x0D, 0x0A])
        XCTAssertEqual(try whole.next()?.code, 250)
        // The CR arrives in one segment, the LF in the next: the CR is not part of the line.
        var split = SMTPReplyParser()
        split.feed(line + [0x0D])
        XCTAssertNil(try split.next())
        split.feed([0x0A])
        XCTAssertEqual(try split.next()?.code, 250)
    }

    func testEnhancedCodesAreTakenOnlyWhenTheyMatchTheReply() {
        XCTAssertEqual(SMTPReply(code: 550, lines: ["5.1.1 No such user"]).enhancedCode, "5.1.1")
        XCTAssertEqual(SMTPReply(code: 550, lines: ["5.1.1 No such user"]).description, "550 5.1.1 No such user")
        XCTAssertNil(SMTPReply(code: 550, lines: ["4.1.1 mismatch"]).enhancedCode)
        XCTAssertNil(SMTPReply(code: 250, lines: ["2.0 short"]).enhancedCode)
        XCTAssertNil(SMTPReply(code: 250, lines: ["1.2.3 wrong class"]).enhancedCode)
        XCTAssertEqual(SMTPReply(code: 250, lines: []).description, "250")
    }

    func testEHLOExtensionsAndTheirParameters() {
        let reply = SMTPReply(code: 250, lines: ["mail.example.com greets you", "PIPELINING", "SIZE 35882577", "8bitmime",
                                                 "AUTH LOGIN PLAIN XOAUTH2", "AUTH=CRAM-MD5", "ENHANCEDSTATUSCODES", "SMTPUTF8",
                                                 "STARTTLS"])
        let extensions = SMTPExtensions(ehlo: reply)
        XCTAssertEqual(extensions.maxMessageSize, 35_882_577)
        XCTAssertEqual(extensions.authMechanisms, ["LOGIN", "PLAIN", "XOAUTH2", "CRAM-MD5"])
        XCTAssertTrue(extensions.pipelining && extensions.eightBitMIME && extensions.enhancedStatusCodes)
        XCTAssertTrue(extensions.smtpUTF8 && extensions.startTLS)
        XCTAssertFalse(extensions.has("mail.example.com"))
        XCTAssertNil(SMTPExtensions(ehlo: SMTPReply(code: 250, lines: ["x", "SIZE 0"])).maxMessageSize)
        XCTAssertNil(SMTPExtensions(ehlo: SMTPReply(code: 250, lines: ["x", "SIZE"])).maxMessageSize)
        XCTAssertEqual(SMTPExtensions(ehlo: SMTPReply(code: 250, lines: ["x"])), SMTPExtensions())
    }

    func testDataIsDotStuffedAndEndsWithCRLFDotCRLF() {
        func encoded(_ text: String) -> String { String(decoding: SMTPMessageData.encode(Array(text.utf8)), as: UTF8.self) }
        XCTAssertEqual(encoded("a\r\n.b\r\n"), "a\r\n..b\r\n.\r\n")
        XCTAssertEqual(encoded(".\n..\r.x"), "..\r\n...\r\n..x\r\n.\r\n")
        XCTAssertEqual(encoded("no end"), "no end\r\n.\r\n")
        XCTAssertEqual(encoded("a.b\r\n\r\n"), "a.b\r\n\r\n.\r\n")
        XCTAssertEqual(encoded(""), ".\r\n")
        XCTAssertTrue(SMTPMessageData.hasEightBitBytes(Array("é".utf8)))
        XCTAssertFalse(SMTPMessageData.hasEightBitBytes(Array("e".utf8)))
    }

    func testWhichErrorsAreRetryable() {
        let temporary = SMTPReply(code: 451, lines: ["4.3.0 later"])
        let permanent = SMTPReply(code: 550, lines: ["5.1.1 never"])
        let retryable: [SMTPClientError] = [
            .temporaryFailure(stage: .message, reply: temporary), .transport(.connectionClosed("x")), .transport(.timeout(seconds: 1)),
            .deliveryUnconfirmed("x"), .transport(.connectFailed(host: "h", port: 1, reason: "x")), .authenticationFailed(temporary),
            .recipientsRefused([RefusedRecipient(address: "a@x", reply: temporary)]), .protocolError("x"),
            .temporaryFailure(stage: .startTLS, reply: SMTPReply(code: 454, lines: ["4.7.0 TLS not available"])),
        ]
        let final: [SMTPClientError] = [
            .permanentFailure(stage: .message, reply: permanent), .authenticationFailed(permanent),
            .recipientsRefused([RefusedRecipient(address: "a@x", reply: temporary), RefusedRecipient(address: "b@x", reply: permanent)]),
            .transport(.certificateRejected(host: "h", reason: "x")), .transport(.tlsFailed(reason: "x")), .startTLSUnavailable(host: "h"),
            .insecureAuthentication, .invalidAddress("x", reason: "y"), .eightBitUnsupported,
        ]
        for error in retryable { XCTAssertTrue(error.isRetryable, "\(error)") }
        for error in final { XCTAssertFalse(error.isRetryable, "\(error)") }
        XCTAssertTrue("\(SMTPClientError.recipientsRefused([RefusedRecipient(address: "b@x", reply: permanent)]))"
            .contains("<b@x>: 550 5.1.1 never"))
    }

    func testTheEnhancedCodeIsReadFromTheLinesStartOnly() {
        XCTAssertEqual(SMTPReply(code: 550, lines: ["5.123.123 no"]).enhancedCode, "5.123.123")
        XCTAssertEqual(SMTPReply(code: 451, lines: ["4.3.0"]).enhancedCode, "4.3.0")
        XCTAssertNil(SMTPReply(code: 550, lines: ["5.1234.1 no"]).enhancedCode, "a part of four digits")
        XCTAssertNil(SMTPReply(code: 550, lines: ["4.1.1 no"]).enhancedCode, "the class is not the reply's")
        XCTAssertNil(SMTPReply(code: 250, lines: ["2.0.x ok"]).enhancedCode)
        XCTAssertNil(SMTPReply(code: 550, lines: ["5.1.1" + String(repeating: "1", count: 8_000)]).enhancedCode, "a long token is no code")
        XCTAssertNil(SMTPReply(code: 550, lines: ["５.1.1 fullwidth"]).enhancedCode)
    }

    func testALineArrivingAByteAtATimeIsReadWhole() throws {
        var parser = SMTPReplyParser()
        let line = Array(("250 " + String(repeating: "x", count: 8_000) + "\r\n").utf8)
        var replies: [SMTPReply] = []
        for b in line {
            parser.feed([b])
            if let r = try parser.next() { replies.append(r) }
            XCTAssertLessThanOrEqual(parser.bufferedByteCount, SMTPReplyParser.maxLineLength + 2)
        }
        XCTAssertEqual(replies.map(\.lines), [[String(repeating: "x", count: 8_000)]])
    }
}
