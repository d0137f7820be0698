import Foundation
import SMTPClient
import XCTest

/// Sending through the real server: STARTTLS and implicit TLS, AUTH, what arrives in the spool.
final class SubmissionTests: SMTPTestCase {
    func testStartTLSThenPlainAuthDeliversTheMessageAsSent() throws {
        var lines: [String] = []
        let smtp = try connect(.starttls) { lines.append($0) }
        XCTAssertTrue(smtp.isEncrypted)
        XCTAssertEqual(smtp.extensions.authMechanisms, ["PLAIN", "LOGIN"])
        XCTAssertFalse(smtp.extensions.startTLS, "the extensions from before TLS were kept")
        XCTAssertTrue(smtp.extensions.eightBitMIME)
        XCTAssertTrue(smtp.extensions.smtpUTF8)
        XCTAssertNotNil(smtp.extensions.maxMessageSize)
        let startTLS = try XCTUnwrap(lines.firstIndex(of: "C: STARTTLS"))
        let established = try XCTUnwrap(lines.firstIndex(of: "TLS established"))
        XCTAssertLessThan(startTLS, established)
        XCTAssertFalse(lines[..<startTLS].contains { $0.hasPrefix("C: AUTH") })

        try smtp.authenticate(username: server.user, credential: .password(password), mechanism: .plain)
        XCTAssertTrue(smtp.isAuthenticated)
        // Leading dots, a lone "." line, bare LF and CR line ends: stuffed and normalised on the way.
        let body = ".leading dot\n.\n..two dots\rlast line without end"
        let reply = try smtp.send(from: server.user, recipients: ["bob@example.com", "carol@example.com"],
                                  message: message(body))
        XCTAssertEqual(reply.code, 250)
        // Exim sends no enhanced status codes (RFC 3463 is optional): "250 OK id=...".
        XCTAssertEqual(reply.enhancedCode, server.personality == .exim ? nil : "2.0.0")

        let (entry, bytes) = try XCTUnwrap(server.spooledMessage(containing: marker))
        let expected = "From: alice@example.com\r\nTo: bob@example.com\r\nSubject: \(marker)\r\n\r\n\(marker)\r\n"
            + ".leading dot\r\n.\r\n..two dots\r\nlast line without end\r\n"
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), expected)
        XCTAssertEqual(entry.from, server.user)
        XCTAssertEqual(entry.to, ["bob@example.com", "carol@example.com"])
        XCTAssertEqual(entry.authUser, server.user)
        XCTAssertTrue(entry.tls)
        XCTAssertEqual(entry.listener, "submission")
        XCTAssertFalse(entry.mailOptions.contains("BODY=8BITMIME"), "\(entry.mailOptions)")
        XCTAssertTrue(lines.contains("C: AUTH PLAIN <redacted>"), "\(lines)")
        XCTAssertFalse(lines.joined(separator: "\n").contains(password))
    }

    func testImplicitTLSWithAuthLogin() throws {
        var lines: [String] = []
        let smtp = try connect(.tls) { lines.append($0) }
        XCTAssertTrue(smtp.isEncrypted)
        try smtp.authenticate(username: server.user, credential: .password(password), mechanism: .login)
        try smtp.send(from: server.user, recipients: ["bob@example.com"], message: message())
        let (entry, _) = try XCTUnwrap(server.spooledMessage(containing: marker))
        XCTAssertEqual(entry.listener, "smtps")
        XCTAssertEqual(entry.authUser, server.user)
        XCTAssertEqual(lines.filter { $0 == "C: <redacted>" }.count, 2, "\(lines)")
        XCTAssertFalse(lines.joined(separator: "\n").contains(password))
    }

    func testAWrongPasswordIsAnAuthenticationFailureThatIsNotRetried() throws {
        let smtp = try connect(.tls)
        let error = smtpError(try smtp.authenticate(username: server.user, credential: .password("wrong"), mechanism: .plain))
        guard case .authenticationFailed(let reply)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertEqual(reply.code, 535)
        XCTAssertFalse(error?.isRetryable ?? true)
        XCTAssertFalse("\(error!)".contains("wrong"))
        XCTAssertFalse(smtp.isAuthenticated)
        // The connection stays usable: the right password works.
        try smtp.authenticate(username: server.user, credential: .password(password), mechanism: .plain)
    }

    func testAMechanismTheServerDoesNotOfferIsRefusedWithoutSending() throws {
        var lines: [String] = []
        let smtp = try connect(.tls) { lines.append($0) }
        let sentBefore = lines.filter { $0.hasPrefix("C: ") }
        let error = smtpError(try smtp.authenticate(username: server.user, credential: .oauth2Token("token"), mechanism: .xoauth2))
        guard case .mechanismUnavailable(let text)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(text.contains("XOAUTH2"), text)
        XCTAssertEqual(lines.filter { $0.hasPrefix("C: ") }, sentBefore)
    }

    func testAnEightBitMessageIsSentWithBody8BitMIME() throws {
        let smtp = try loggedIn()
        try smtp.send(from: server.user, recipients: ["bob@example.com"], message: message("Grüße aus Köln ☕\r\n"))
        let (entry, bytes) = try XCTUnwrap(server.spooledMessage(containing: marker))
        XCTAssertTrue(entry.mailOptions.contains("BODY=8BITMIME"), "\(entry.mailOptions)")
        XCTAssertFalse(entry.mailOptions.contains("SMTPUTF8"), "\(entry.mailOptions)")
        XCTAssertTrue(String(decoding: bytes, as: UTF8.self).hasSuffix("Grüße aus Köln ☕\r\n"))
    }

    func testANonASCIIAddressIsSentWithSMTPUTF8() throws {
        let smtp = try loggedIn()
        try smtp.send(from: server.user, recipients: ["jörg@bücher.example"], message: message())
        let (entry, _) = try XCTUnwrap(server.spooledMessage(containing: marker))
        XCTAssertTrue(entry.mailOptions.contains("SMTPUTF8"), "\(entry.mailOptions)")
        XCTAssertEqual(entry.to, ["jörg@bücher.example"])
    }

    func testTheSizeLimitIsAnnouncedAndChecked() throws {
        let smtp = try loggedIn()
        let limit = try XCTUnwrap(smtp.extensions.maxMessageSize)
        let big = [UInt8](repeating: 0x61, count: limit + 1)
        let error = smtpError(try smtp.send(from: server.user, recipients: ["bob@example.com"], message: big))
        guard case .messageTooLarge(let size, limit)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertGreaterThan(size, limit)
        XCTAssertFalse(error?.isRetryable ?? true)
    }

    func testInvalidAddressesAreRefusedBeforeAnythingIsSent() throws {
        var lines: [String] = []
        let smtp = try loggedIn { lines.append($0) }
        let sentBefore = lines.filter { $0.hasPrefix("C: ") }
        for bad in ["bob", "bob@example.com>\r\nRCPT TO:<evil@example.com", "<bob@example.com>", "bo b@example.com", "@example.com"] {
            let error = smtpError(try smtp.send(from: server.user, recipients: [bad], message: message()))
            guard case .invalidAddress(bad, _)? = error else { return XCTFail("\(bad): got \(String(describing: error))") }
        }
        XCTAssertEqual(smtpError(try smtp.send(from: server.user, recipients: [], message: message())), .noRecipients)
        XCTAssertEqual(lines.filter { $0.hasPrefix("C: ") }, sentBefore)
        try smtp.send(from: server.user, recipients: ["bob@example.com"], message: message())
    }

    // The same through Exim.

    func testStartTLSThenPlainAuthDeliversTheMessageAsSentOnExim() throws { try testStartTLSThenPlainAuthDeliversTheMessageAsSent() }
    func testImplicitTLSWithAuthLoginOnExim() throws { try testImplicitTLSWithAuthLogin() }
    func testAWrongPasswordIsAnAuthenticationFailureThatIsNotRetriedOnExim() throws {
        try testAWrongPasswordIsAnAuthenticationFailureThatIsNotRetried()
    }
    func testAnEightBitMessageIsSentWithBody8BitMIMEOnExim() throws { try testAnEightBitMessageIsSentWithBody8BitMIME() }
    func testANonASCIIAddressIsSentWithSMTPUTF8OnExim() throws { try testANonASCIIAddressIsSentWithSMTPUTF8() }
    func testTheSizeLimitIsAnnouncedAndCheckedOnExim() throws { try testTheSizeLimitIsAnnouncedAndChecked() }
}
