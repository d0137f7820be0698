import Foundation
import SecureTransport
import SMTPClient
import TestSupport
import XCTest

/// A server that breaks the protocol (a greeting that is not SMTP, a reply over the bound, a reply nobody asked for,
/// garbage for the message's reply): a retryable protocol error that says what happened, never "not retried", and
/// never a second message when the first may have arrived. Scripted peers: no real server misbehaves on cue.
final class MisbehaviourTests: XCTestCase {
    static let timeout: Double = 30

    private func endpoint(_ peer: ScriptedServer) -> ServerEndpoint {
        ServerEndpoint(host: "127.0.0.1", port: peer.port, security: .plain, timeoutSeconds: Self.timeout)
    }

    func testAGreetingThatIsNotSMTPNamesTheHostAndPortAndIsRetried() throws {
        let peer = try ScriptedServer([.send("HELLO I am not SMTP\r\n"), .waitForClose])
        let failure = try XCTUnwrap(smtpError(try SMTPConnection.connect(endpoint(peer))))
        guard case .protocolError(let text) = failure else { return XCTFail("got \(failure)") }
        XCTAssertTrue(text.contains("127.0.0.1:\(peer.port) did not greet as an SMTP server"), text)
        XCTAssertTrue(text.contains("check that it is the SMTP submission host and port"), text)
        XCTAssertTrue(failure.isRetryable)
        XCTAssertFalse("\(failure)".contains("reconnect to retry"), "\(failure)")
        XCTAssertEqual(try peer.clientLines(), [])
    }

    func testAGreetingOverTheReplyBoundIsARetryableProtocolError() throws {
        let line = "220-" + String(repeating: "g", count: 8_000) + "\r\n"
        let peer = try ScriptedServer([.send(String(repeating: line, count: 10) + "220 ok\r\n"), .waitForClose])
        let failure = try XCTUnwrap(smtpError(try SMTPConnection.connect(endpoint(peer))))
        guard case .protocolError(let text) = failure else { return XCTFail("got \(failure)") }
        XCTAssertTrue(text.contains("longer than \(SMTPReplyParser.maxReplyBytes) bytes"), text)
        XCTAssertTrue(failure.isRetryable)
        _ = try? peer.clientLines()
    }

    /// An extra reply after EHLO would be taken for the next command's: it is refused before that command is sent.
    func testAReplyNobodyAskedForIsRefusedBeforeTheNextCommand() throws {
        let peer = try ScriptedServer([
            .send("220 peer ESMTP\r\n"), .readLine, .send("250-peer\r\n250 8BITMIME\r\n250 2.0.0 unsolicited extra\r\n"), .waitForClose,
        ])
        let smtp = try SMTPConnection.connect(endpoint(peer))
        let failure = try XCTUnwrap(smtpError(try smtp.send(from: "a@example.com", recipients: ["b@example.com"], message: Array("x\r\n".utf8))))
        guard case .protocolError(let text) = failure else { return XCTFail("got \(failure)") }
        XCTAssertTrue(text.contains("nobody asked for"), text)
        XCTAssertTrue(failure.isRetryable)
        XCTAssertEqual(try peer.clientLines(), ["EHLO [127.0.0.1]"], "MAIL FROM went out")
    }

    /// Garbage for the reply to the whole message: it may have been delivered, and the error says so.
    func testGarbageForTheMessagesReplyIsAnUnconfirmedDelivery() throws {
        let peer = try ScriptedServer([
            .send("220 peer ESMTP\r\n"), .readLine, .send("250 peer\r\n"), .readLine, .send("250 ok\r\n"), .readLine,
            .send("250 ok\r\n"), .readLine, .send("354 go\r\n"), .readLine, .readLine, .send("queued, thanks\r\n"), .waitForClose,
        ])
        let smtp = try SMTPConnection.connect(endpoint(peer))
        let failure = try XCTUnwrap(smtpError(try smtp.send(from: "a@example.com", recipients: ["b@example.com"], message: Array("x\r\n".utf8))))
        guard case .deliveryUnconfirmed(let text) = failure else { return XCTFail("got \(failure)") }
        XCTAssertTrue(text.contains("could not be read"), text)
        XCTAssertTrue("\(failure)".contains("may have been delivered"))
        XCTAssertEqual(try peer.clientLines(), ["EHLO [127.0.0.1]", "MAIL FROM:<a@example.com>", "RCPT TO:<b@example.com>", "DATA", "x", "."])
    }
}
