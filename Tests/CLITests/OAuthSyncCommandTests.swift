import Foundation
import TestSupport
import XCTest

/// `sync` of an OAuth account: a restored store syncs with its own token file; a revoked sign-in is exit 6, a
/// token endpoint that never answers is exit 5 within the sync's `--timeout`.
final class OAuthSyncCommandTests: CLITestCase {
    private var server: OAuthServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try TestServers.oauth()
    }

    /// Adds OAuth account `work` (the test plays the browser).
    private func addAccount() throws {
        let add = try BackgroundMailstore(["account", "add", "work", "--email", server.user, "--host", server.imap.host,
                                           "--port", String(server.imap.tlsPort), "--security", "tls", "--ca-file", server.imap.caFile,
                                           "--auth", "oauth2", "--oauth-issuer", server.issuer, "--client-id", server.clientID,
                                           "--no-browser", "--sign-in-timeout", "60"], home: store)
        let url = try add.line(containing: "/authorize?").trimmingCharacters(in: .whitespaces)
        _ = try server.get(try XCTUnwrap(try server.get(url).location))
        let r = add.finish()
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func testARestoredStoreSyncsWithItsOwnTokenFile() throws {
        try mailstore("init")
        try addAccount()
        let restored = dir.file("restored")
        try mailstore("backup", "--include-secrets", dir.file("bk"))
        try mailstore("backup", "--store", dir.file("bk"), "--include-secrets", restored)
        try FileManager.default.moveItem(atPath: store, toPath: dir.file("away"))
        try editTokenFile(restored + "/secrets/work.oauth") { $0["accessTokenExpires"] = 1000 }
        try mailstore("sync", "--store", restored)
    }

    func testARevokedSignInIsExitSixAndAnUnansweredTokenEndpointExitFiveWithinTheTimeout() throws {
        try mailstore("init")
        try addAccount()
        let path = store + "/secrets/work.oauth"
        let refresh = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])?["refreshToken"] as? String)
        try server.revoke(refresh)
        let revoked = try mailstore("sync", expect: 6)
        XCTAssertTrue(revoked.stderr.contains("run `mailstore account login work` again"), revoked.stderr)

        // A listener that never accepts: the connection is made (the kernel's backlog), no answer ever comes.
        let (fd, port) = try XCTUnwrap(LoopbackSocket.listen(backlog: 8))
        defer { close(fd) }
        try editTokenFile(path) {
            var config = $0["config"] as? [String: Any] ?? [:]
            config["tokenEndpoint"] = "http://127.0.0.1:\(port)/token"
            $0["config"] = config
            $0["accessTokenExpires"] = 1000
        }
        let start = Date()
        let hung = try mailstore("sync", "--timeout", "2", expect: 5)
        XCTAssertLessThan(Date().timeIntervalSince(start), 6, "bounded by --timeout 2")
        XCTAssertTrue(hung.stderr.contains("cannot reach the OAuth server"), hung.stderr)
    }
}
