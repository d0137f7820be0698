import Foundation
@testable import MailStore
import TestSupport
import XCTest

/// Token handling against the local OAuth server: refresh before expiry, retries with backoff when the
/// token endpoint cannot be reached, the token file's mode and atomic replacement.
final class OAuthTokenTests: XCTestCase {
    private func config(_ issuer: String, clientID: String = "mailstore-test") -> OAuthConfig {
        OAuthConfig(authorizationEndpoint: issuer + "/authorize", tokenEndpoint: issuer + "/token",
                    deviceAuthorizationEndpoint: issuer + "/device", revocationEndpoint: issuer + "/revoke",
                    clientID: clientID, scopes: ["mail"], emailSource: .user)
    }

    func testRefreshIsRetriedThreeTimesWithExponentialBackoff() throws {
        // Port 1 on loopback: nothing listens there, every try fails to connect.
        var client = OAuthClient(config: config("http://127.0.0.1:1"), account: "work")
        let waits = Locked<[Double]>([])
        client.sleep = { s in waits.withLock { $0.append(s) } }
        XCTAssertThrowsError(try client.refresh("r")) {
            guard case .unreachable = $0 as? OAuthError else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(waits.withLock { $0 }, [1, 2, 4])
    }

    func testATokenCloseToItsExpiryIsReplacedAndTheFileStays0600() throws {
        let server = try TestServers.oauth()
        let dir = TemporaryDirectory("oauth")
        let path = dir.file("secrets/work.oauth")
        let (access, refresh) = try server.tokens()
        var file = OAuthTokenFile(config: config(server.issuer), refreshToken: refresh)
        file.accessToken = access
        file.accessTokenExpires = Date().addingTimeInterval(3600).timeIntervalSince1970
        try file.write(path)
        let source = CredentialSource.oauth(path)
        XCTAssertEqual(try source.secret(), access, "a token with an hour left is used as it is")

        file.accessTokenExpires = Date().addingTimeInterval(5).timeIntervalSince1970
        try file.write(path)
        let fresh = try source.secret()
        XCTAssertNotEqual(fresh, access, "a token about to expire is replaced before use")
        XCTAssertEqual(try OAuthTokenFile.read(path).accessToken, fresh)
        var st = stat()
        XCTAssertEqual(stat(path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.file("secrets")), ["work.oauth"], "no temporary left")

        try server.revoke(refresh)
        XCTAssertThrowsError(try source.oauthAccessToken(forceRefresh: true)) {
            XCTAssertTrue("\($0)".contains("run `mailstore account login work` again"), "\($0)")
        }
    }

    /// A token file is read with its bound (256 KiB), not read whole and then measured: a huge one is refused.
    func testAnOversizedTokenFileIsRefusedWithoutBeingReadWhole() throws {
        let dir = TemporaryDirectory("oauth")
        let path = dir.file("big.oauth")
        try Data(repeating: 0x20, count: OAuthTokenFile.maxBytes + 1).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        XCTAssertThrowsError(try OAuthTokenFile.read(path)) {
            XCTAssertTrue("\($0)".contains("a regular file of at most 256 KiB"), "\($0)")
        }
        try Data(repeating: 0x20, count: 10).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try OAuthTokenFile.read(path)) { XCTAssertTrue("\($0)".contains("is not an OAuth token file"), "\($0)") }
    }

    func testTheIDTokenGivesTheEmail() {
        func jwt(_ claims: String) -> String {
            "e30." + Data(claims.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "") + ".sig"
        }
        XCTAssertEqual(OAuthTokenResponse.email(fromIDToken: jwt(#"{"email":"a@example.com","preferred_username":"b@example.com"}"#)),
                       "a@example.com")
        XCTAssertEqual(OAuthTokenResponse.email(fromIDToken: jwt(#"{"preferred_username":"b@example.com"}"#)), "b@example.com")
        XCTAssertNil(OAuthTokenResponse.email(fromIDToken: jwt(#"{"preferred_username":"not an address"}"#)))
        XCTAssertNil(OAuthTokenResponse.email(fromIDToken: "garbage"))
    }

    func testProviderSettings() throws {
        let gmail = try XCTUnwrap(OAuthConfig.provider("gmail", clientID: "id"))
        XCTAssertEqual(gmail.scopes, ["https://mail.google.com/"])
        XCTAssertEqual(gmail.emailSource, .user)
        let outlook = try XCTUnwrap(OAuthConfig.provider("outlook", clientID: "id"))
        XCTAssertTrue(outlook.authorizationEndpoint.hasPrefix("https://login.microsoftonline.com/common/"))
        XCTAssertEqual(Set(outlook.scopes), ["https://outlook.office365.com/IMAP.AccessAsUser.All",
                                             "https://outlook.office365.com/SMTP.Send", "offline_access", "openid", "email", "profile"])
        XCTAssertEqual(outlook.emailSource, .idToken)
        XCTAssertNil(OAuthConfig.provider("custom", clientID: "id"))
    }
}

extension OAuthTokenTests {
    func testTokenAnswersWithNumbersAsStringsAndGooglesDeviceField() throws {
        let body = #"{"device_code":"d","user_code":"U","verification_url":"https://www.google.com/device","expires_in":"1800","interval":5}"#
        let r = try OAuthTokenResponse.decode(OAuthHTTP.Response(status: 200, headers: [:], body: Array(body.utf8)))
        XCTAssertEqual(r.verificationURI, "https://www.google.com/device")
        XCTAssertEqual(r.expiresIn, 1800)
        XCTAssertEqual(r.interval, 5)
        XCTAssertThrowsError(try OAuthTokenResponse.decode(OAuthHTTP.Response(status: 502, headers: [:], body: Array("<html>".utf8))))
    }
}
