import Foundation
import SecureTransport
import SMTPClient
import TestSupport
import XCTest

/// What AUTH does when the server does not take the mechanism asked for (Tools/test-server/hostile-smtp.py over
/// TLS): a password goes with the other password mechanism it offers; what cannot work says what to do, and a
/// refusal of the mechanism is not called a wrong password; a server that keeps asking is a retryable glitch.
final class AuthFallbackTests: SMTPTestCase {
    private func hostile(_ mode: String) throws -> (HostileSMTPServer, SMTPConnection) {
        let peer = try HostileSMTPServer(mode: mode, caFile: server.caFile)
        let smtp = try SMTPConnection.connect(ServerEndpoint(host: "127.0.0.1", port: peer.port, security: .tls, caFile: server.caFile,
                                                             timeoutSeconds: Self.timeout))
        // The server lives until the test ends, whether the test keeps it or not, and no longer.
        addTeardownBlock {
            smtp.quit()
            peer.stop()
        }
        return (peer, smtp)
    }

    func testAPasswordGoesWithLoginWhenTheServerOffersOnlyLogin() throws {
        let (peer, smtp) = try hostile("login-only")
        try smtp.authenticate(username: "u", credential: .password("secret-pw"), mechanism: .plain)
        XCTAssertTrue(smtp.isAuthenticated)
        XCTAssertEqual(peer.transcript(), ["AUTH LOGIN"], "PLAIN is not offered: LOGIN alone was tried")
    }

    func testA504ToPlainFallsBackToLogin() throws {
        let (peer, smtp) = try hostile("plain-504")
        try smtp.authenticate(username: "u", credential: .password("pw"), mechanism: .plain)
        XCTAssertTrue(smtp.isAuthenticated)
        XCTAssertEqual(peer.transcript(), ["AUTH PLAIN", "AUTH LOGIN"])
    }

    func testA504WithNothingElseOfferedIsNotCalledAWrongPassword() throws {
        let (_, smtp) = try hostile("plain-504-only")
        let failure = try XCTUnwrap(smtpError(try smtp.authenticate(username: "u", credential: .password("pw"), mechanism: .plain)))
        guard case .authenticationFailed(let reply) = failure else { return XCTFail("got \(failure)") }
        XCTAssertEqual(reply.code, 504)
        XCTAssertFalse("\(failure)".contains("password"), "\(failure)")
        XCTAssertTrue("\(failure)".contains("refused the authentication mechanism, not the login"), "\(failure)")
        XCTAssertFalse(failure.isRetryable)
    }

    func testNoMechanismOrNoAUTHSaysWhatToDo() throws {
        let (_, gssapi) = try hostile("gssapi-only")
        let unknown = "\(try XCTUnwrap(smtpError(try gssapi.authenticate(username: "u", credential: .password("pw"), mechanism: .plain))))"
        XCTAssertTrue(unknown.contains("the server offers AUTH GSSAPI NTLM, none of which mailstore does"), unknown)
        let (_, relay) = try hostile("no-auth")
        let none = "\(try XCTUnwrap(smtpError(try relay.authenticate(username: "u", credential: .password("pw"), mechanism: .plain))))"
        XCTAssertTrue(none.contains("offers no AUTH"), none)
        XCTAssertTrue(none.contains("use your provider's submission server"), none)
        let (_, passwords) = try hostile("login-only")
        let token = "\(try XCTUnwrap(smtpError(try passwords.authenticate(username: "u", credential: .oauth2Token("t"), mechanism: .xoauth2))))"
        XCTAssertTrue(token.contains("it takes a password"), token)
    }

    func testAServerThatKeepsAskingIsARetryableProtocolError() throws {
        let (_, smtp) = try hostile("auth-loop")
        let failure = try XCTUnwrap(smtpError(try smtp.authenticate(username: "u", credential: .password("pw"), mechanism: .plain)))
        guard case .protocolError(let text) = failure else { return XCTFail("got \(failure)") }
        XCTAssertTrue(text.contains("kept asking"), text)
        XCTAssertTrue(failure.isRetryable)
    }
}
