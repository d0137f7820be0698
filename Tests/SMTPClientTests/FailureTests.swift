import Foundation
import SecureTransport
import SMTPClient
import XCTest

/// The server's injected failures (Tools/test-server/smtp_server.py) and what a caller learns from them.
final class FailureTests: SMTPTestCase {
    func testAPermanentRecipientRefusalNamesTheRecipientAndSendsNothing() throws {
        let smtp = try loggedIn()
        let refused = "fail5xx-\(marker)@example.com"
        let error = smtpError(try smtp.send(from: server.user, recipients: ["bob@example.com", refused], message: message()))
        guard case .recipientsRefused(let recipients)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertEqual(recipients.map(\.address), [refused])
        XCTAssertEqual(recipients.first?.reply.code, 550)
        XCTAssertEqual(recipients.first?.reply.enhancedCode, "5.1.1")
        XCTAssertFalse(recipients.first?.isTemporary ?? true)
        XCTAssertFalse(error?.isRetryable ?? true)
        XCTAssertTrue("\(error!)".contains(refused))
        XCTAssertNil(try server.spooledMessage(containing: marker), "nothing may be sent when a recipient is refused")
        // The transaction was reset: the connection sends the next message.
        try smtp.send(from: server.user, recipients: ["bob@example.com"], message: message())
        XCTAssertEqual(try server.spooledMessage(containing: marker)?.entry.to, ["bob@example.com"])
    }

    func testATemporaryRecipientRefusalIsRetryable() throws {
        let smtp = try loggedIn()
        let error = smtpError(try smtp.send(from: server.user, recipients: ["fail4xx@example.com"], message: message()))
        guard case .recipientsRefused(let recipients)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertEqual(recipients.first?.reply.code, 451)
        XCTAssertEqual(recipients.first?.reply.enhancedCode, "4.3.0")
        XCTAssertTrue(recipients.first?.isTemporary ?? false)
        XCTAssertTrue(error?.isRetryable ?? false)
    }

    func testADroppedConnectionAtRecipientIsLostAndRetryable() throws {
        let smtp = try loggedIn()
        let error = smtpError(try smtp.send(from: server.user, recipients: ["drop@example.com"], message: message()))
        guard case .transport(.connectionClosed)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(error?.isRetryable ?? false)
        XCTAssertEqual(smtpError(try smtp.send(from: server.user, recipients: ["bob@example.com"], message: message())), error,
                       "a lost connection stays lost")
    }

    func testAPermanentRefusalOfTheMessage() throws {
        let smtp = try loggedIn()
        let error = smtpError(try smtp.send(from: server.user, recipients: ["datafail5xx@example.com"], message: message()))
        guard case .permanentFailure(.message, let reply)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertEqual(reply.code, 554)
        XCTAssertEqual(reply.enhancedCode, "5.6.0")
        XCTAssertTrue(reply.text.contains("injected failure"), reply.text)
        XCTAssertFalse(error?.isRetryable ?? true)
        XCTAssertNil(try server.spooledMessage(containing: marker))
        try smtp.send(from: server.user, recipients: ["bob@example.com"], message: message())
    }

    func testATemporaryRefusalOfTheMessageIsRetryable() throws {
        let smtp = try loggedIn()
        let error = smtpError(try smtp.send(from: server.user, recipients: ["datafail4xx@example.com"], message: message()))
        guard case .temporaryFailure(.message, let reply)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertEqual(reply.code, 451)
        XCTAssertTrue(error?.isRetryable ?? false)
    }

    func testALostAcknowledgementIsAnUnconfirmedDelivery() throws {
        let smtp = try loggedIn()
        let error = smtpError(try smtp.send(from: server.user, recipients: ["datadrop@example.com"], message: message()))
        guard case .deliveryUnconfirmed? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(error?.isRetryable ?? false)
        XCTAssertTrue("\(error!)".contains("twice"))
        XCTAssertNotNil(try server.spooledMessage(containing: marker), "the server kept the message before dropping")
    }

    // The same through Exim (which always answers before closing: "drop" is a 421 there, and it cannot
    // lose a DATA acknowledgement on purpose; see Tools/test-server/exim).

    func testAPermanentRecipientRefusalNamesTheRecipientAndSendsNothingOnExim() throws {
        try testAPermanentRecipientRefusalNamesTheRecipientAndSendsNothing()
    }
    func testATemporaryRecipientRefusalIsRetryableOnExim() throws { try testATemporaryRecipientRefusalIsRetryable() }
    func testAPermanentRefusalOfTheMessageOnExim() throws { try testAPermanentRefusalOfTheMessage() }
    func testATemporaryRefusalOfTheMessageIsRetryableOnExim() throws { try testATemporaryRefusalOfTheMessageIsRetryable() }
}
