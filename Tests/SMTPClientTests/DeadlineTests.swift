import SecureTransport
import SMTPClient
import TestSupport
import XCTest

/// A trickling SMTP server cannot keep a command alive past its deadline. A scripted fake server on
/// loopback: the real test server never trickles.
final class DeadlineTests: XCTestCase {
    func testATricklingGreetingFailsAtTheCommandDeadline() throws {
        let peer = try ScriptedServer([.trickle("220 " + String(repeating: "slow ", count: 40) + "\r\n", interval: 0.2)])
        let endpoint = ServerEndpoint(host: "127.0.0.1", port: peer.port, security: .plain, timeoutSeconds: 5, commandTimeoutSeconds: 1)
        XCTAssertThrowsError(try SMTPConnection.connect(endpoint)) { error in
            guard case .transport(.deadlinePassed)? = error as? SMTPClientError else { return XCTFail("got \(error)") }
            XCTAssertTrue((error as? SMTPClientError)?.isRetryable ?? false)
        }
        _ = try peer.clientLines()
    }
}
