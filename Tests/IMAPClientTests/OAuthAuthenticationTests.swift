import IMAPClient
import SecureTransport
import TestSupport
import XCTest

/// XOAUTH2 and OAUTHBEARER (RFC 7628) against the real Dovecot of Tools/test-server/oauth-server, whose
/// `oauth2` passdb introspects tokens at the local OAuth server.
final class OAuthAuthenticationTests: XCTestCase {
    private var server: OAuthServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try TestServers.oauth()
    }

    private func connect() throws -> IMAPConnection {
        let c = try IMAPConnection.connect(ServerEndpoint(host: server.imap.host, port: server.imap.tlsPort, security: .tls,
                                                          caFile: server.imap.caFile, timeoutSeconds: 30))
        addTeardownBlock { c.logout() }
        return c
    }

    func testBothOAuthMechanismsLogInWithAnIssuedToken() throws {
        let token = try server.tokens().access
        for mechanism in [AuthMechanism.xoauth2, .oauthbearer] {
            let c = try connect()
            XCTAssertTrue(c.has("AUTH=\(mechanism.saslName)"))
            try c.authenticate(username: server.user, credential: .oauth2Token(token), mechanism: mechanism)
            XCTAssertFalse(try c.list().isEmpty, "logged in with \(mechanism)")
        }
    }

    func testTheStandardMechanismIsChosenFromTheCapabilities() throws {
        let c = try connect()
        let offered = c.capabilities.filter { $0.hasPrefix("AUTH=") }.map { String($0.dropFirst(5)) }
        XCTAssertEqual(AuthMechanism.oauth(offered: offered), .oauthbearer)
        XCTAssertEqual(AuthMechanism.oauth(offered: ["PLAIN", "XOAUTH2"]), .xoauth2)
        XCTAssertNil(AuthMechanism.oauth(offered: ["PLAIN"]))
    }

    func testAnExpiredOrRevokedTokenIsRefusedAndTheConnectionStaysUsable() throws {
        let (access, refresh) = try server.tokens()
        try server.revoke(refresh)
        let c = try connect()
        XCTAssertThrowsError(try c.authenticate(username: server.user, credential: .oauth2Token(access), mechanism: .oauthbearer)) {
            guard case .authenticationFailed(let text) = $0 as? IMAPClientError else { return XCTFail("\($0)") }
            XCTAssertFalse(text.contains(access), "the token is never in an error")
        }
        let fresh = try server.tokens().access
        try c.authenticate(username: server.user, credential: .oauth2Token(fresh), mechanism: .xoauth2)
    }

    func testATokenOfAnotherUserIsRefused() throws {
        let bobs = try server.tokens(for: "bob@example.com").access
        let c = try connect()
        XCTAssertThrowsError(try c.authenticate(username: server.user, credential: .oauth2Token(bobs), mechanism: .xoauth2))
    }
}
