import Foundation
@testable import MailStore
import TestSupport
import XCTest

/// An OAuth account's token file belongs to the store in use (`STORE/secrets/NAME.oauth`), whatever store path
/// `AccountAdded` recorded: a restored or moved store reads, refreshes and replaces its own tokens. Removing the
/// account revokes the refresh token and deletes the file. Against the local OAuth server and its Dovecot.
final class OAuthStoreTokenTests: XCTestCase {
    private var server: OAuthServer!
    private var dir: TemporaryDirectory!

    override func setUpWithError() throws {
        server = try TestServers.oauth()
        dir = TemporaryDirectory("oauth-store")
    }

    private func config(_ issuer: String) -> OAuthConfig {
        OAuthConfig(authorizationEndpoint: issuer + "/authorize", tokenEndpoint: issuer + "/token",
                    deviceAuthorizationEndpoint: issuer + "/device", revocationEndpoint: issuer + "/revoke",
                    clientID: server.clientID, scopes: ["mail"], emailSource: .user)
    }

    /// A store with account `work` signed in (tokens straight from the server's device grant).
    private func storeWithAccount(at path: String, issuer: String? = nil) throws -> (MailStore, refresh: String) {
        let store = try MailStore.create(at: path)
        let (access, refresh) = try server.tokens()
        let settings = AccountSettings(name: "work", email: server.user, host: server.imap.host, port: server.imap.tlsPort,
                                       security: "tls", auth: "oauth2", credential: .environment("PATH"), caFile: server.imap.caFile)
        _ = try store.addOAuthAccount(settings, config: config(issuer ?? server.issuer)) { _ in
            OAuthClient.Tokens(accessToken: access, expires: Date().addingTimeInterval(3600), refreshToken: refresh, email: nil)
        }
        return (store, refresh)
    }

    private func refreshRefused(_ refresh: String) throws -> Bool {
        let answer = try server.post("/token", ["client_id": server.clientID, "grant_type": "refresh_token", "refresh_token": refresh])
        return answer["error"] as? String == "invalid_grant"
    }

    func testOldAbsoluteAndStoreRelativeTokenPathsAreTakenInTheStoreInUse() {
        let old = CredentialSource.oauth("/home/bob/mail/old-store/secrets/work.oauth")
        XCTAssertEqual(old.inStore("/srv/restored"), .oauth("/srv/restored/secrets/work.oauth"))
        XCTAssertEqual(old.inStore("/srv/restored/"), .oauth("/srv/restored/secrets/work.oauth"))
        XCTAssertEqual(CredentialSource(stored: "oauth:secrets/work.oauth")?.inStore("/srv/s"), .oauth("/srv/s/secrets/work.oauth"))
        // A relative path names only a file in this store's secrets folder: `..` leads nowhere outside it.
        XCTAssertEqual(CredentialSource(stored: "oauth:secrets/../../x.oauth")?.inStore("/srv/s"), .oauth("/srv/s/secrets/x.oauth"))
        // Only token files under a secrets folder move with the store; other sources stay as they are.
        XCTAssertEqual(CredentialSource.oauth("/etc/keys/work.oauth").inStore("/srv/s"), .oauth("/etc/keys/work.oauth"))
        XCTAssertEqual(CredentialSource.file("/home/bob/secrets/pw").inStore("/srv/s"), .file("/home/bob/secrets/pw"))
    }

    /// The documented restore (a backup with its secrets, copied back), the original store then moved away:
    /// the restored store's connection test refreshes its own token file, and `account login` there replaces
    /// its own, never recreating the original's.
    func testARestoredStoreUsesAndReplacesItsOwnTokenFile() throws {
        let (original, _) = try storeWithAccount(at: dir.file("orig"))
        _ = try original.backup(to: dir.file("bk"), includeSecrets: true)
        _ = try MailStore.open(at: dir.file("bk")).backup(to: dir.file("restored"), includeSecrets: true)
        let originalPath = dir.file("orig/secrets/work.oauth")
        XCTAssertTrue(try XCTUnwrap(original.account(named: "work")).credentialSource.hasSuffix(originalPath), "as recorded")
        try FileManager.default.moveItem(atPath: dir.file("orig"), toPath: dir.file("orig.away"))

        let restored = try MailStore.open(at: dir.file("restored"))
        let own = dir.file("restored/secrets/work.oauth")
        XCTAssertEqual(restored.credentialSource(of: try XCTUnwrap(restored.account(named: "work"))), .oauth(own))
        var file = try OAuthTokenFile.read(own)
        file.accessTokenExpires = Date().addingTimeInterval(-1).timeIntervalSince1970
        try file.write(own)
        // ConnectionTest logs in with PLAIN for an `oauth2` account (its own matter); what counts here is that
        // the secret was read, and refreshed, from the restored store's token file (the original is gone).
        let report = try restored.testAccount(named: "work")
        let auth = try XCTUnwrap(report.checks.first { $0.step == "imap-auth" })
        XCTAssertFalse(auth.detail?.contains("cannot read the account's secret") == true, "\(report.checks)")
        XCTAssertGreaterThan(try XCTUnwrap(OAuthTokenFile.read(own).accessTokenExpires), Date().timeIntervalSince1970,
                             "the restored store's token file was refreshed")

        let (access, refresh) = try server.tokens()
        try restored.loginOAuthAccount(named: "work") { _ in
            OAuthClient.Tokens(accessToken: access, expires: Date().addingTimeInterval(3600), refreshToken: refresh, email: nil)
        }
        XCTAssertEqual(try OAuthTokenFile.read(own).refreshToken, refresh)
        XCTAssertFalse(FileManager.default.fileExists(atPath: originalPath), "the original store's token file is not written")
    }

    func testRemovingAnOAuthAccountRevokesItsRefreshTokenAndDeletesTheFile() throws {
        let (store, refresh) = try storeWithAccount(at: dir.file("s"))
        let path = dir.file("s/secrets/work.oauth")
        XCTAssertFalse(try refreshRefused(refresh))
        let notes = try store.removeAccount(named: "work")
        XCTAssertEqual(notes, [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "the token file is deleted")
        XCTAssertTrue(try refreshRefused(refresh), "the refresh token was revoked at the provider")
        XCTAssertNil(try store.account(named: "work"))
    }

    /// A revocation endpoint that never answers: a warning after the stated time, and the account and its file
    /// are removed all the same. (A fake server: the real one always answers.)
    func testARevocationThatCannotBeDoneWarnsAndRemovesAnyway() throws {
        let hanging = try FakeOAuthHTTPServer { path, _ in
            path.hasSuffix("/token") ? (200, #"{"access_token":"a","expires_in":3600}"#) : nil
        }
        defer { hanging.stop() }
        let (store, _) = try storeWithAccount(at: dir.file("s"), issuer: hanging.base)
        let start = Date()
        let notes = try store.removeAccount(named: "work", revokeTimeoutSeconds: 2)
        XCTAssertLessThan(Date().timeIntervalSince(start), 4, "bounded by the revocation's time limit")
        XCTAssertEqual(notes.count, 1)
        XCTAssertTrue(notes.first?.contains("could not be revoked") == true, "\(notes)")
        XCTAssertEqual(hanging.requested, ["/revoke"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("s/secrets/work.oauth")))
        XCTAssertNil(try store.account(named: "work"))
    }
}
