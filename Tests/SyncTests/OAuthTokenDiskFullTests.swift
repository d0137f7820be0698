import Foundation
@testable import MailStore
import TestSupport
import XCTest

/// A rotated refresh token on a full disk, against the local OAuth server rotating refresh tokens with reuse detection
/// (a rotated-out token used again revokes the whole sign-in): room for the new token is set aside before the refresh
/// goes out, so a full disk fails before the server rotates anything, and a disk that fills while the server answers
/// still takes the token. It had refreshed first and then failed to write: the rotated token lost, the next refresh
/// (with the old one) revoked the sign-in, and the error said "cannot read the account's secret".
final class OAuthTokenDiskFullTests: XCTestCase {
    private var server: OAuthServer!
    private var fs: SmallFilesystem!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try TestServers.oauth()
        do { fs = try SmallFilesystem(megabytes: 4) } catch {
            if ProcessInfo.processInfo.environment["CI"] == "true" { throw error }  // CI can mount: a failure stands
            throw XCTSkip("\(error)")
        }
    }

    override func tearDown() {
        fs = nil
        super.tearDown()
    }

    /// `STORE/secrets/work.oauth` on the small file system, signed in at the server (rotating, with reuse detection),
    /// refreshed once (its lock file made, as an account used for a while has), its access token then due.
    private func signedIn() throws -> (path: String, first: String) {
        let path = fs.path + "/store/secrets/work.oauth"
        let (access, refresh) = try server.tokens()
        try server.family(of: refresh, rotate: true, reuseDetection: true, delay: 0)
        var file = OAuthTokenFile(config: OAuthConfig(authorizationEndpoint: server.issuer + "/authorize",
                                                      tokenEndpoint: server.issuer + "/token",
                                                      deviceAuthorizationEndpoint: server.issuer + "/device",
                                                      revocationEndpoint: server.issuer + "/revoke", clientID: server.clientID,
                                                      scopes: ["mail"], emailSource: .user),
                                  refreshToken: refresh)
        file.accessToken = access
        file.accessTokenExpires = 1000
        try file.write(path)
        _ = try CredentialSource.oauth(path).secret()
        try makeDue(path)
        return (path, refresh)
    }

    private func makeDue(_ path: String) throws {
        var file = try OAuthTokenFile.read(path)
        file.accessTokenExpires = 1000
        try file.write(path)
    }

    /// The token file at `path` refreshed (its sign-in's refresh answered 2 s late) while `meanwhile` runs, once the
    /// request is at the server; its access token.
    private func refresh(_ path: String, _ first: String, meanwhile: () throws -> Void) throws -> String {
        try server.family(of: first, delay: 2)
        defer { _ = try? server.family(of: first, delay: 0) }
        let result = Locked<Result<String, any Error>?>(nil)
        let refresher = Thread {
            let got = Result<String, any Error>(catching: { try CredentialSource.oauth(path).secret(caFile: nil, timeoutSeconds: 30) })
            result.withLock { $0 = got }
        }
        refresher.start()
        let deadline = Date().addingTimeInterval(20)
        while try server.family(of: first).pending == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        try meanwhile()
        while result.withLock({ $0 }) == nil && Date() < deadline.addingTimeInterval(20) { Thread.sleep(forTimeInterval: 0.05) }
        return try XCTUnwrap(result.withLock { $0 }).get()
    }

    private func secretsFolder() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: fs.path + "/store/secrets").sorted()
    }

    /// A refresh due on a full disk is not made: the sign-in's refresh token is not spent, the error says the disk is full
    /// (not "cannot read"), and once space is freed the refresh goes through with the same sign-in.
    func testARefreshOnAFullDiskIsNotMadeAndTheSignInStaysValid() throws {
        let (path, first) = try signedIn()
        XCTAssertEqual(try server.family(of: first).refreshes, 1)
        let before = try OAuthTokenFile.read(path)
        try fs.fill(leaving: 0)
        XCTAssertThrowsError(try CredentialSource.oauth(path).secret()) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("the disk is full"), text)
            XCTAssertTrue(text.contains("free space and run the command again"), text)
            XCTAssertFalse(text.contains("cannot read the account's secret"), text)
            XCTAssertTrue(SyncWatcher.isDiskFull(SyncError.credential(error as! AccountError)), "a watch waits it out")
            XCTAssertEqual(ErrorCategory(of: error), .data, "exit 3, as every full disk")
        }
        XCTAssertEqual(try server.family(of: first).refreshes, 1, "nothing sent to the OAuth server")
        XCTAssertEqual(try OAuthTokenFile.read(path), before, "the token file as it was")
        XCTAssertEqual(try secretsFolder(), ["work.oauth", "work.oauth.lock"], "nothing left beside it")
        fs.free()
        let token = try CredentialSource.oauth(path).secret()
        let family = try server.family(of: first)
        XCTAssertFalse(family.revoked, "the sign-in is still valid: no `account login` needed")
        XCTAssertEqual(family.refreshes, 2)
        XCTAssertEqual(try OAuthTokenFile.read(path).accessToken, token)
        // And the refresh after it, with the token rotated then.
        try makeDue(path)
        _ = try CredentialSource.oauth(path).secret()
        XCTAssertFalse(try server.family(of: first).revoked)
    }

    /// The disk fills while the server answers the refresh: the rotated token is written into the room set aside before
    /// the request, and the next refresh (using it) keeps the sign-in.
    func testATokenRotatedWhileTheDiskFillsIsWrittenIntoTheRoomSetAsideBeforeTheRefresh() throws {
        let (path, first) = try signedIn()
        let token = try refresh(path, first) { try fs.fill(leaving: 0) }
        XCTAssertEqual(try OAuthTokenFile.read(path).accessToken, token, "the new tokens are in the file")
        XCTAssertEqual(try secretsFolder(), ["work.oauth", "work.oauth.lock"], "no temporary left")
        fs.free()
        try makeDue(path)
        _ = try CredentialSource.oauth(path).secret()
        let family = try server.family(of: first)
        XCTAssertFalse(family.revoked, "the rotated token was kept: no `account login` needed")
        XCTAssertEqual(family.refreshes, 3)
    }

    /// Tokens that cannot be written after the refresh although their room was set aside (here the room's temporary
    /// file removed while the server answers; a copy-on-write file system out of space alike): the access token is used,
    /// a warning says the new refresh token is kept in memory and what to do, and the next time the token is asked for
    /// it is written; the sign-in is kept.
    func testTokensThatCannotBeWrittenAfterTheRefreshAreKeptInMemoryWithAWarningAndWrittenNextTime() throws {
        let (path, first) = try signedIn()
        let before = try OAuthTokenFile.read(path)
        let warnings = Locked<[String]>([])
        CredentialSource.setWarningHandler { message in warnings.withLock { $0.append(message) } }
        defer { CredentialSource.setWarningHandler { FileHandle.standardError.write(Data("mailstore: warning: \($0)\n".utf8)) } }
        let token = try refresh(path, first) {
            for name in try secretsFolder() where name.hasPrefix("work.oauth.tmp-") { unlink(fs.path + "/store/secrets/" + name) }
        }
        XCTAssertEqual(try OAuthTokenFile.read(path), before, "not written")
        let said = warnings.withLock { $0 }
        XCTAssertEqual(said.count, 1, "\(said)")
        let text = said.first ?? ""
        XCTAssertTrue(text.contains("writing the new one to \(path) failed (No such file or directory)"), text)
        XCTAssertTrue(text.contains("it is kept in memory and used while this command runs"), text)
        XCTAssertTrue(text.contains("run `mailstore account login work` then"), text)
        XCTAssertEqual(try CredentialSource.oauth(path).secret(), token, "the token kept in memory is used")
        XCTAssertEqual(try OAuthTokenFile.read(path).accessToken, token, "and written now")
        XCTAssertEqual(try secretsFolder(), ["work.oauth", "work.oauth.lock"])
        try makeDue(path)
        _ = try CredentialSource.oauth(path).secret()
        let family = try server.family(of: first)
        XCTAssertFalse(family.revoked, "the rotated token was kept: no `account login` needed")
        XCTAssertEqual(family.refreshes, 3)
        XCTAssertEqual(warnings.withLock { $0 }.count, 1)
    }
}
