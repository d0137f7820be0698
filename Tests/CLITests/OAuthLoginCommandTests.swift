import Foundation
import TestSupport
import XCTest

/// `account login` and `account remove` of OAuth accounts, end to end against the local OAuth server: this test
/// plays the browser (and, for a refusal or a forged request, the server) on mailstore's loopback listener.
final class OAuthLoginCommandTests: CLITestCase {
    private var server: OAuthServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try TestServers.oauth()
    }

    private func addArguments(_ name: String) -> [String] {
        ["account", "add", name, "--email", server.user, "--host", server.imap.host, "--port", String(server.imap.tlsPort),
         "--security", "tls", "--ca-file", server.imap.caFile, "--auth", "oauth2", "--oauth-issuer", server.issuer,
         "--client-id", server.clientID, "--no-browser", "--sign-in-timeout", "60"]
    }

    /// Opens the printed authorization URL at the server and follows its redirect to the listener; returns the page.
    @discardableResult
    private func approveInBrowser(_ running: BackgroundMailstore) throws -> (status: Int, location: String?, body: String) {
        let url = try running.line(containing: "/authorize?")
        let answer = try server.get(url.trimmingCharacters(in: .whitespaces))
        return try server.get(try XCTUnwrap(answer.location))
    }

    private func addAccount(_ name: String, home: String) throws {
        let add = try BackgroundMailstore(addArguments(name), home: home)
        try approveInBrowser(add)
        let r = add.finish()
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    private func tokenFile(_ path: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    private func refreshRefused(_ refresh: String) throws -> Bool {
        let answer = try server.post("/token", ["client_id": server.clientID, "grant_type": "refresh_token", "refresh_token": refresh])
        return answer["error"] as? String == "invalid_grant"
    }

    /// Requests to the listener without this sign-in's state get an error page, not "Signed in" nor "Sign-in
    /// refused", and the sign-in goes on; the user's refusal then ends it with exit 6 and the server's words,
    /// form-decoded (`+` is a space).
    func testOnlyTheRealRedirectCountsAndAUserRefusalExitsSix() throws {
        try mailstore("init")
        try addAccount("work", home: store)
        let before = try tokenFile(store + "/secrets/work.oauth")

        let login = try BackgroundMailstore(["account", "login", "work", "--no-browser", "--sign-in-timeout", "60"], home: store)
        let url = try XCTUnwrap(URLComponents(string: try login.line(containing: "/authorize?").trimmingCharacters(in: .whitespaces)))
        let state = try XCTUnwrap(url.queryItems?.first { $0.name == "state" }?.value)
        let redirect = try XCTUnwrap(url.queryItems?.first { $0.name == "redirect_uri" }?.value)
        for forged in ["", "?code=forged&state=wrong", "?code=forged", "?error=access_denied&state=wrong", "favicon.ico"] {
            let page = try server.get(redirect + forged)
            XCTAssertEqual(page.status, 400, forged)
            XCTAssertFalse(page.body.contains("Signed in") || page.body.contains("refused"), "\(forged): \(page.body)")
        }
        XCTAssertTrue(login.process.isRunning, "still waiting for the real redirect")
        let refused = try server.get(redirect + "?error=access_denied&error_description=The+user+said+no%21&state=" + state)
        XCTAssertEqual(refused.status, 400)
        XCTAssertTrue(refused.body.contains("Sign-in refused"), refused.body)
        let r = login.finish()
        XCTAssertEqual(r.status, 6, r.stderr)
        XCTAssertTrue(r.stderr.contains("access_denied: The user said no!"), r.stderr)
        XCTAssertEqual(try tokenFile(store + "/secrets/work.oauth")["refreshToken"] as? String, before["refreshToken"] as? String)

        // The real redirect: the page says "Signed in" once the code was exchanged.
        let again = try BackgroundMailstore(["account", "login", "work", "--no-browser", "--sign-in-timeout", "60"], home: store)
        let page = try approveInBrowser(again)
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.body.hasPrefix("Signed in."), page.body)
        XCTAssertEqual(again.finish().status, 0)
    }

    /// The documented restore (`backup --include-secrets`, then a copy back with `backup --store BACKUP
    /// --include-secrets NEW`), the original store moved away: `account login --store NEW` replaces NEW's own
    /// token file.
    func testALoginInARestoredStoreWritesItsOwnTokenFile() throws {
        try mailstore("init")
        try addAccount("work", home: store)
        let backup = dir.file("bk"), restored = dir.file("restored"), away = dir.file("away")
        try mailstore("backup", "--include-secrets", backup)
        try mailstore("backup", "--store", backup, "--include-secrets", restored)
        try FileManager.default.moveItem(atPath: store, toPath: away)

        let before = try XCTUnwrap(try tokenFile(restored + "/secrets/work.oauth")["refreshToken"] as? String)
        let login = try BackgroundMailstore(["account", "login", "work", "--store", restored, "--no-browser", "--sign-in-timeout", "60"],
                                home: dir.file("unused"))
        try approveInBrowser(login)
        let r = login.finish()
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertNotEqual(try tokenFile(restored + "/secrets/work.oauth")["refreshToken"] as? String, before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store + "/secrets/work.oauth"), "the original path is not written")
        XCTAssertEqual(try tokenFile(away + "/secrets/work.oauth")["refreshToken"] as? String, before, "the original store's file is untouched")
    }

    func testRemovingAnOAuthAccountRevokesItsSignInAndDeletesItsTokenFile() throws {
        try mailstore("init")
        try addAccount("work", home: store)
        let path = store + "/secrets/work.oauth"
        let refresh = try XCTUnwrap(try tokenFile(path)["refreshToken"] as? String)
        let r = try mailstore("account", "remove", "work")
        XCTAssertEqual(r.stdout, "Removed account work and its OAuth sign-in\n")
        XCTAssertEqual(r.stderr, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertTrue(try refreshRefused(refresh), "the refresh token was revoked")
        let backup = try mailstore("backup", "--include-secrets", "--json", dir.file("bk"))
        XCTAssertTrue(backup.stdout.contains(#""secretsCopied":0"#), backup.stdout)
    }
}
