import IMAPClient
import IMAPProtocol
import SecureTransport
import XCTest

/// Logging in with each mechanism, and failing to.
final class AuthenticationTests: IMAPTestCase {
    func testAWrongPasswordIsAnAuthenticationFailure() throws {
        for mechanism in [AuthMechanism.plain, .login] {
            let imap = try connect(endpoint(.tls))
            XCTAssertThrowsError(try imap.authenticate(username: user, credential: .password("wrong-" + password), mechanism: mechanism)) { error in
                guard case .authenticationFailed(let text)? = error as? IMAPClientError else { return XCTFail("got \(error)") }
                XCTAssertTrue(text.lowercased().contains("authentication failed"), text)
                XCTAssertFalse("\(error)".contains(password))
            }
        }
    }

    func testLoginCommandOverTLS() throws {
        var lines: [String] = []
        let imap = try connect(endpoint(.tls)) { lines.append($0) }
        try imap.authenticate(username: user, credential: .password(password), mechanism: .login)
        XCTAssertTrue(imap.has("MOVE"))
        XCTAssertTrue(lines.contains { $0.hasSuffix("LOGIN <credentials redacted>") })
        XCTAssertFalse(lines.joined(separator: "\n").contains(password), "the password reached the trace")
    }

    func testPlainOverStartTLSRedactsTheTrace() throws {
        var lines: [String] = []
        _ = try loggedIn(.starttls) { lines.append($0) }
        XCTAssertTrue(lines.contains { $0.hasSuffix("AUTHENTICATE PLAIN <redacted>") })
        let trace = lines.joined(separator: "\n")
        XCTAssertFalse(trace.contains(password))
        XCTAssertFalse(trace.contains(SASL.plain(user: user, password: password)))
    }

    func testXOAuth2NeedsTheServerToOfferIt() throws {
        let imap = try connect(endpoint(.tls))
        XCTAssertThrowsError(try imap.authenticate(username: user, credential: .oauth2Token("token"), mechanism: .xoauth2)) { error in
            guard case .mechanismUnavailable(let text)? = error as? IMAPClientError else { return XCTFail("got \(error)") }
            XCTAssertTrue(text.contains("AUTH=XOAUTH2"), text)
        }
        XCTAssertThrowsError(try imap.authenticate(username: user, credential: .oauth2Token("token"), mechanism: .plain)) { error in
            guard case .mechanismUnavailable? = error as? IMAPClientError else { return XCTFail("got \(error)") }
        }
        try imap.authenticate(username: user, credential: .password(password), mechanism: .plain)
    }

    func testIDAndEnable() throws {
        let imap = try loggedIn()
        let fields = try XCTUnwrap(imap.id(["name": "mailstore-tests", "version": "1"]))
        XCTAssertEqual(fields["name"], "Dovecot")
        XCTAssertEqual(try imap.enable(["QRESYNC"]), ["QRESYNC"])
    }
}
