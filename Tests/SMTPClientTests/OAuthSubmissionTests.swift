import SecureTransport
import SMTPClient
import TestSupport
import XCTest

/// SMTP AUTH XOAUTH2 and OAUTHBEARER against the aiosmtpd of Tools/test-server/oauth-server, which
/// introspects tokens at the local OAuth server.
final class OAuthSubmissionTests: XCTestCase {
    private func connect(_ server: OAuthServer) throws -> SMTPConnection {
        let c = try SMTPConnection.connect(ServerEndpoint(host: server.smtp.host, port: server.smtp.tlsPort, security: .tls,
                                                          caFile: server.smtp.caFile, timeoutSeconds: 30))
        addTeardownBlock { c.quit() }
        return c
    }

    func testBothMechanismsAuthenticateAndTheFailureJSONIsInTheError() throws {
        let server = try TestServers.oauth()
        let token = try server.tokens().access
        for mechanism in [AuthMechanism.xoauth2, .oauthbearer] {
            let c = try connect(server)
            XCTAssertEqual(AuthMechanism.oauth(offered: c.extensions.authMechanisms), .oauthbearer)
            try c.authenticate(username: server.user, credential: .oauth2Token(token), mechanism: mechanism)
        }
        for mechanism in [AuthMechanism.xoauth2, .oauthbearer] {
            let c = try connect(server)
            XCTAssertThrowsError(try c.authenticate(username: server.user, credential: .oauth2Token("not-a-token"), mechanism: mechanism)) {
                guard case .authenticationFailed(let reply) = $0 as? SMTPClientError else { return XCTFail("\($0)") }
                XCTAssertEqual(reply.code, 535)
                XCTAssertTrue(reply.text.contains("invalid_token"), reply.text)
            }
        }
    }
}
