import Foundation
import SecureTransport
import SMTPClient
import TestSupport
import XCTest

/// A session's deadline (`ServerEndpoint.sessionDeadline`, an outbox attempt's) bounds all of a send, whose commands
/// each answer within their own deadline.
final class SessionDeadlineTests: XCTestCase {
    private let greeting: [ScriptedServer.Step] = [.send("220 peer ESMTP\r\n"), .readLine, .send("250 peer\r\n")]

    private func endpoint(_ port: UInt16, session seconds: Double) -> ServerEndpoint {
        var endpoint = ServerEndpoint(host: "127.0.0.1", port: port, security: .plain, timeoutSeconds: 10, commandTimeoutSeconds: 10)
        endpoint.sessionDeadline = Deadline(secondsFromNow: seconds)
        return endpoint
    }

    func testATricklingServerFailsAtTheSessionDeadlineBeforeTheMessageAsRetryable() throws {
        // Each reply takes about 2 s (under each command's 10 s): MAIL, then RCPT, pass the session's 3 s.
        let slow = ScriptedServer.Step.trickle("250 2.0.0 ok\r\n", interval: 0.15)
        let peer = try ScriptedServer(greeting + [.readLine, slow, .readLine, slow, .readLine, slow, .readLine, slow])
        let start = Date()
        let smtp = try SMTPConnection.connect(endpoint(peer.port, session: 3))
        XCTAssertThrowsError(try smtp.send(from: "a@example.com", recipients: ["b@example.com", "c@example.com"],
                                           message: Array("Subject: x\r\n\r\nhi\r\n".utf8))) { error in
            guard case .transport(.deadlinePassed)? = error as? SMTPClientError else { return XCTFail("got \(error)") }
            XCTAssertTrue((error as? SMTPClientError)?.isRetryable ?? false)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "the session's 3 s, not each command's 10 s")
        smtp.quit()
    }

    func testAReplyToTheMessageThatNeverComesIsUnconfirmedAtTheSessionDeadline() throws {
        let ok = ScriptedServer.Step.send("250 ok\r\n")
        let peer = try ScriptedServer(greeting + [.readLine, ok, .readLine, ok, .readLine, .send("354 go\r\n"),
                                                  .readLine, .readLine, .readLine, .readLine, .waitForClose])
        let start = Date()
        let smtp = try SMTPConnection.connect(endpoint(peer.port, session: 1.5))
        XCTAssertThrowsError(try smtp.send(from: "a@example.com", recipients: ["b@example.com"],
                                           message: Array("Subject: x\r\n\r\nhi\r\n".utf8))) { error in
            guard case .deliveryUnconfirmed? = error as? SMTPClientError else { return XCTFail("got \(error)") }
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "the session's 1.5 s, not the message's 10 s")
        smtp.quit()
    }
}
