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

    /// `dir`'s `secrets/work.oauth` holding a new sign-in's tokens at `server`, the access token expiring at `expires`
    /// (seconds since 1970).
    private func signIn(_ server: OAuthServer, in dir: TemporaryDirectory, expires: Double) throws
        -> (path: String, file: OAuthTokenFile, access: String, refresh: String) {
        let path = dir.file("secrets/work.oauth")
        let (access, refresh) = try server.tokens()
        var file = OAuthTokenFile(config: config(server.issuer), refreshToken: refresh)
        file.accessToken = access
        file.accessTokenExpires = expires
        try file.write(path)
        return (path, file, access, refresh)
    }

    func testATokenCloseToItsExpiryIsReplacedAndTheFileStays0600() throws {
        let server = try TestServers.oauth()
        let dir = TemporaryDirectory("oauth")
        let (path, signedIn, access, refresh) = try signIn(server, in: dir, expires: Date().addingTimeInterval(3600).timeIntervalSince1970)
        var file = signedIn
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
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.file("secrets")).sorted(), ["work.oauth", "work.oauth.lock"],
                       "no temporary left (the refresh lock stays, 0600)")
        XCTAssertEqual(stat(dir.file("secrets/work.oauth.lock"), &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)

        try server.revoke(refresh)
        XCTAssertThrowsError(try source.oauthAccessToken(forceRefresh: true)) {
            XCTAssertTrue("\($0)".contains("run `mailstore account login work` again"), "\($0)")
        }
    }

    /// A refresh takes the token file's lock (`NAME.oauth.lock`) within its time limit and reads the file again under
    /// it: a token another process refreshed while it waited is used as it is (a forced refresh: when it is not the
    /// token refused), not refreshed again. A lock held past the time limit is a clear error, in time; the lock is
    /// released after an error too.
    func testARefreshWaitsForTheLockWithinItsTimeAndUsesATokenRefreshedMeanwhile() throws {
        let server = try TestServers.oauth()
        let dir = TemporaryDirectory("oauth")
        let (path, signedIn, _, refresh) = try signIn(server, in: dir, expires: 1000)
        var file = signedIn
        let source = CredentialSource.oauth(path)

        // Held, as by another process (two open files' flock locks exclude each other in one process too).
        var held: OAuthRefreshLock? = try OAuthRefreshLock(tokenFile: path, account: "work", deadline: Date())
        let start = Date()
        XCTAssertThrowsError(try source.oauthAccessToken(forceRefresh: false, timeoutSeconds: 1)) {
            guard case .oauth(.refreshInProgress(let account, let holder, _))? = $0 as? AccountError else { return XCTFail("\($0)") }
            XCTAssertEqual(account, "work")
            XCTAssertEqual(holder, getpid())
            XCTAssertTrue("\($0)".contains("run the command again"), "\($0)")
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.9)
        XCTAssertLessThan(Date().timeIntervalSince(start), 3, "bounded by the refresh's time limit")

        // The holder refreshes (here: puts a token there) and lets go: the waiting refresh uses that token.
        let got = Locked<String?>(nil)
        let waiting = BackgroundTask { got.withLock { $0 = try? source.oauthAccessToken(forceRefresh: false, timeoutSeconds: 10) } }
        Thread.sleep(forTimeInterval: 0.3)
        file.accessToken = "refreshed-by-the-holder"
        file.accessTokenExpires = Date().addingTimeInterval(3600).timeIntervalSince1970
        try file.write(path)
        held = nil
        try waiting.wait(seconds: 15)
        XCTAssertEqual(got.withLock { $0 }, "refreshed-by-the-holder")
        XCTAssertNil(held)
        // Forced after a refusal: a token other than the refused one is used; the refused one is replaced.
        XCTAssertEqual(try source.oauthAccessToken(forceRefresh: true, refused: "refused-before"), "refreshed-by-the-holder")
        let fresh = try source.oauthAccessToken(forceRefresh: true, refused: "refreshed-by-the-holder")
        XCTAssertNotEqual(fresh, "refreshed-by-the-holder")
        XCTAssertEqual(try OAuthTokenFile.read(path).accessToken, fresh)

        // An error on the way (a revoked sign-in) releases the lock.
        try server.revoke(refresh)
        XCTAssertThrowsError(try source.oauthAccessToken(forceRefresh: true))
        XCTAssertNoThrow(try OAuthRefreshLock(tokenFile: path, account: "work", deadline: Date()))
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
