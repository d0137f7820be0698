import IMAPClient
import IMAPProtocol
import SecureTransport
import TestSupport
import XCTest

/// What the client does when a server misbehaves, against scripted loopback peers.
final class FailureModeTests: XCTestCase {
    private func endpoint(_ server: ScriptedServer, _ security: ConnectionSecurity = .plain, timeout: Double = 30) -> ServerEndpoint {
        ServerEndpoint(host: "127.0.0.1", port: server.port, security: security, timeoutSeconds: timeout)
    }

    func testStartTLSIsRequiredAndNothingIsSentWithoutIt() throws {
        let server = try ScriptedServer([.send("* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN LOGIN] plaintext only\r\n"), .waitForClose])
        XCTAssertThrowsError(try IMAPConnection.connect(endpoint(server, .starttls))) { error in
            XCTAssertEqual(error as? IMAPClientError, .startTLSUnavailable(host: "127.0.0.1"))
            XCTAssertTrue("\(error)".contains("refusing to continue without TLS"))
        }
        XCTAssertEqual(try server.clientLines(), [], "the client sent something without TLS")
    }

    func testBytesInjectedBehindTheStartTLSAnswerAreRefused() throws {
        let server = try ScriptedServer([
            .send("* OK [CAPABILITY IMAP4rev1 STARTTLS] hi\r\n"), .readLine,
            .send("A1 OK Begin TLS negotiation now\r\n* OK [ALERT] injected before TLS\r\n"), .waitForClose,
        ])
        XCTAssertThrowsError(try IMAPConnection.connect(endpoint(server, .starttls))) { error in
            guard case .protocolError(let text)? = error as? IMAPClientError else { return XCTFail("got \(error)") }
            XCTAssertTrue(text.contains("injection"), text)
        }
        XCTAssertEqual(try server.clientLines(), ["A1 STARTTLS"])
    }

    func testGarbageBreaksTheConnectionForGood() throws {
        let server = try ScriptedServer([
            .send("* OK [CAPABILITY IMAP4rev1] hi\r\n"), .readLine,
            .send("* 1 FETCH (UID notanumber)\r\nA1 OK done\r\n"), .waitForClose,
        ])
        let imap = try IMAPConnection.connect(endpoint(server))
        XCTAssertThrowsError(try imap.noop()) { error in
            guard case .protocolError? = error as? IMAPClientError else { return XCTFail("got \(error)") }
        }
        XCTAssertThrowsError(try imap.noop()) { error in
            guard case .protocolError? = error as? IMAPClientError else { return XCTFail("got \(error)") }
        }
        XCTAssertEqual(try server.clientLines(), ["A1 NOOP"])
    }

    func testByeExplainsTheClosedConnection() throws {
        let server = try ScriptedServer([
            .send("* OK [CAPABILITY IMAP4rev1] hi\r\n"), .readLine, .send("* BYE Server shutting down\r\n"),
        ])
        let imap = try IMAPConnection.connect(endpoint(server))
        XCTAssertThrowsError(try imap.noop()) { error in
            guard case .transport(.connectionClosed(let text))? = error as? IMAPClientError else { return XCTFail("got \(error)") }
            XCTAssertTrue(text.contains("Server shutting down"), text)
        }
        _ = try server.clientLines()
    }

    func testASilentServerTimesOut() throws {
        let server = try ScriptedServer([.send("* OK [CAPABILITY IMAP4rev1] hi\r\n"), .readLine, .waitForClose])
        let imap = try IMAPConnection.connect(endpoint(server, timeout: 0.5))
        XCTAssertThrowsError(try imap.noop()) { error in
            XCTAssertEqual(error as? IMAPClientError, .transport(.timeout(seconds: 0.5)))
        }
        imap.logout()
        XCTAssertEqual(try server.clientLines(), ["A1 NOOP"], "logout must not talk to a broken connection")
    }

    func testUnsolicitedResponsesReachTheHandler() throws {
        let server = try ScriptedServer([
            .send("* OK [CAPABILITY IMAP4rev1] hi\r\n"), .readLine,
            .send("* 4 EXISTS\r\n* OK [ALERT] Mailbox almost full\r\n* 2 FETCH (UID 9 FLAGS (\\Seen))\r\nA1 OK [UIDNEXT 10] x\r\n"),
            .readLine, .send("A2 OK done\r\n"), .readLine, .send("* BYE Logging out\r\nA3 OK bye\r\n"), .waitForClose,
        ])
        let imap = try IMAPConnection.connect(endpoint(server))
        var unsolicited: [UntaggedResponse] = []
        imap.onUnsolicited = { unsolicited.append($0) }
        XCTAssertEqual(try imap.uidSearch([.uid(UIDSet(1))]), [])
        XCTAssertEqual(unsolicited, [
            .exists(4), .condition(.ok, code: .alert, text: "Mailbox almost full"),
            .fetch(seq: 2, attributes: [.uid(9), .flags(["\\Seen"])]),
        ])
        XCTAssertEqual(try imap.noop(), [])
        imap.logout()
        XCTAssertEqual(try server.clientLines(), ["A1 UID SEARCH UID 1", "A2 NOOP", "A3 LOGOUT"])
    }
}
