import Foundation
import TestSupport
import XCTest

/// OAuth 2.0 end to end with real parts on loopback (Tools/test-server/oauth-server: the OAuth server, a
/// Dovecot introspecting its tokens): `account add --auth oauth2` through the browser flow (this test is
/// the browser: it opens the printed URL and follows the redirect to mailstore's loopback listener), sync,
/// expiry, revocation, `account login --device`; tokens never outside STORE/secrets; admin consent; a kill
/// during the sign-in.
final class OAuthCommandTests: CLITestCase {
    private var server: OAuthServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try TestServers.oauth()
    }

    private func addArguments(_ name: String, email: String) -> [String] {
        ["account", "add", name, "--email", email, "--host", server.imap.host, "--port", String(server.imap.tlsPort),
         "--security", "tls", "--ca-file", server.imap.caFile, "--auth", "oauth2", "--oauth-issuer", server.issuer,
         "--client-id", server.clientID, "--no-browser", "--sign-in-timeout", "60",
         "--smtp-host", server.smtp.host, "--smtp-port", String(server.smtp.tlsPort), "--smtp-security", "tls"]
    }

    /// Plays the browser: opens the authorization URL mailstore printed and follows the redirect to its listener.
    private func approveInBrowser(_ running: BackgroundMailstore) throws {
        let url = try running.line(containing: "/authorize?")
        let answer = try server.get(url.trimmingCharacters(in: .whitespaces))
        XCTAssertEqual(answer.status, 302)
        let redirect = try XCTUnwrap(answer.location)
        XCTAssertTrue(redirect.hasPrefix("http://127.0.0.1:"), "a loopback redirect (RFC 8252): \(redirect)")
        _ = try server.get(redirect)
    }

    private func tokenFile(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: store + "/secrets/\(name).oauth"))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func testSignInSyncExpireRefreshRevokeAndSignInAgain() throws {
        try mailstore("init")
        let add = try BackgroundMailstore(addArguments("work", email: server.user), home: store)
        try approveInBrowser(add)
        let added = add.finish()
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(added.stdout.contains("auth oauth2"), added.stdout)

        let path = store + "/secrets/work.oauth"
        var st = stat()
        XCTAssertEqual(stat(path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        let first = try tokenFile("work")
        let refresh = try XCTUnwrap(first["refreshToken"] as? String)
        let access = try XCTUnwrap(first["accessToken"] as? String)

        try mailstore("sync")
        // `account test` logs in with the token by an OAuth mechanism, as sync does (it had sent it by PLAIN).
        let tested = try mailstore("account", "test", "work", "--json")
        XCTAssertTrue(tested.stdout.contains("\"step\":\"imap-auth\"") && !tested.stdout.contains("\"failed\""), tested.stdout)
        // The server expires every access token early: the login is refused, the token refreshed, the login retried.
        try server.expireAccessTokens()
        try mailstore("sync")
        let refreshed = try XCTUnwrap(try tokenFile("work")["accessToken"] as? String)
        XCTAssertNotEqual(refreshed, access, "a new access token after the refusal")

        // Revoked: a clear error saying what to run.
        try server.revoke(refresh)
        let refused = try mailstore("sync", expect: 6)
        XCTAssertTrue(refused.stderr.contains("run `mailstore account login work` again"), refused.stderr)

        // Signed in again with the device grant: the test approves the code as the user would.
        let login = try BackgroundMailstore(["account", "login", "work", "--device", "--sign-in-timeout", "60"], home: store)
        let prompt = try login.line(containing: "enter the code")
        let words = prompt.split(separator: " ")
        let uri = try XCTUnwrap(words.first { $0.hasPrefix("http") })
        let code = try XCTUnwrap(words.last)
        _ = try server.get("\(uri)?user_code=\(code)&login_hint=\(server.user)")
        let loggedIn = login.finish()
        XCTAssertEqual(loggedIn.status, 0, loggedIn.stderr)
        try mailstore("sync")

        // No token anywhere in the store but the token file, nor in any output.
        let now = try tokenFile("work")
        let tokens = [refresh, access, refreshed] + [now["refreshToken"], now["accessToken"]].compactMap { $0 as? String }
        let outputs = [added.stdout, added.stderr, refused.stdout, refused.stderr, loggedIn.stdout, loggedIn.stderr,
                       try mailstore("log", "--json").stdout, try mailstore("account", "list", "--json").stdout]
        for token in tokens {
            let files = try ChildProcess.run("/bin/grep", ["-r", "-l", "-F", token, store])
            XCTAssertTrue(files.stdout.split(separator: "\n").allSatisfy { $0.hasSuffix("/secrets/work.oauth") },
                          "a token is in a store file: \(files.stdout)")
            for output in outputs { XCTAssertFalse(output.contains(token), "a token leaked into output") }
        }
    }

    /// Signs account `work` in through the browser flow; returns its refresh token.
    private func signIn() throws -> String {
        try mailstore("init")
        let add = try BackgroundMailstore(addArguments("work", email: server.user), home: store)
        try approveInBrowser(add)
        let added = add.finish()
        XCTAssertEqual(added.status, 0, added.stderr)
        return try XCTUnwrap(try tokenFile("work")["refreshToken"] as? String)
    }

    /// Several processes needing a refresh at once (here four `account test`s; a `sync --watch` and a `send` alike)
    /// against a server that rotates refresh tokens and, like the OAuth 2.0 Security BCP's reuse detection, revokes
    /// the whole sign-in when a rotated-out one is used again: one refreshes, the others wait for its lock on the
    /// token file and use its token. All succeed, the server saw one refresh, the rotated refresh token is kept, and
    /// later syncs (and refreshes) work. Without the lock every process refreshed with the same token: the sign-in
    /// was revoked and each was told to sign in again.
    func testRefreshesOfSeveralProcessesAtOnceMakeOneRotationAndKeepTheSignIn() throws {
        let first = try signIn()
        // Each refresh answered 1 s late: refreshes started together overlap.
        try server.family(of: first, rotate: true, reuseDetection: true, delay: 1)
        let path = store + "/secrets/work.oauth"
        try editTokenFile(path) { $0["accessTokenExpires"] = 1000 }
        let runs = try (0..<4).map { _ in try BackgroundMailstore(["account", "test", "work", "--json"], home: store) }
        for r in runs.map({ $0.finish() }) {
            XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        }
        let family = try server.family(of: first, delay: 0)
        XCTAssertFalse(family.revoked, "no refresh token used twice")
        XCTAssertEqual(family.refreshes, 1, "one process refreshed; the others used its token")
        let rotated = try XCTUnwrap(try tokenFile("work")["refreshToken"] as? String)
        XCTAssertNotEqual(rotated, first, "the rotated refresh token is kept")
        try mailstore("sync")
        try editTokenFile(path) { $0["accessTokenExpires"] = 1000 }
        try mailstore("sync")
        XCTAssertEqual(try server.family(of: first).refreshes, 2)
        XCTAssertNotEqual(try tokenFile("work")["refreshToken"] as? String, rotated)
    }

    /// A refresh refused with `invalid_grant` because the refresh token was rotated meanwhile by someone not taking
    /// the lock (an older build, another client of the same sign-in) and written to the token file: the file is read
    /// again and the refresh tried once with the new token, not "sign in again".
    func testARefreshRefusedAfterTheTokenWasRotatedMeanwhileTriesTheNewOneOnce() throws {
        let first = try signIn()
        // Rotating, a rotated-out token refused (no reuse detection), each refresh answered 2 s late.
        try server.family(of: first, rotate: true, reuseDetection: false, delay: 2)
        let path = store + "/secrets/work.oauth"
        try editTokenFile(path) { $0["accessTokenExpires"] = 1000 }
        let sync = try BackgroundMailstore(["sync"], home: store)
        // Its refresh with `first` is at the server: another client rotates the token now and writes it in the file.
        let deadline = Date().addingTimeInterval(30)
        while try server.family(of: first).pending == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let other = try XCTUnwrap(try server.family(of: first, delay: 0, rotateNow: true).refreshToken)
        try editTokenFile(path) { $0["refreshToken"] = other }
        let r = sync.finish()
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try server.family(of: first).refreshes, 1, "refused with `first`, granted with the new one")
        let now = try XCTUnwrap(try tokenFile("work")["refreshToken"] as? String)
        XCTAssertFalse([first, other].contains(now), "the token rotated from the new one is kept")
        try mailstore("sync")
    }

    func testSendingLogsInToSMTPWithTheOAuthToken() throws {
        try mailstore("init")
        let add = try BackgroundMailstore(addArguments("work", email: server.user), home: store)
        try approveInBrowser(add)
        XCTAssertEqual(add.finish().status, 0)
        try mailstore("sync")
        // Expired early: SMTP refuses the token, mailstore refreshes it and logs in again.
        try server.expireAccessTokens()
        let marker = "oauth-send-\(UUID().uuidString)"
        let draft = try mailstore("draft", "new", "--account", "work", "--to", "bob@example.com", "--subject", marker,
                                  "--body", "sent with an OAuth token")
        let id = try XCTUnwrap(draft.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).last.map(String.init))
        try mailstore("send", id, "--undo-delay", "0s")
        let spooled = try XCTUnwrap(try server.smtp.spooledMessage(containing: marker))
        XCTAssertEqual(spooled.entry.authUser, server.user)
    }

    func testAdminConsentRefusalSaysWhatToDoAndAddsNothing() throws {
        try mailstore("init")
        let add = try BackgroundMailstore(addArguments("corp", email: "consent-required@example.com"), home: store)
        try approveInBrowser(add)
        let r = add.finish()
        XCTAssertEqual(r.status, 6, r.stderr)
        XCTAssertTrue(r.stderr.contains("Your organization requires admin consent"), r.stderr)
        XCTAssertFalse(try mailstore("account", "list").stdout.contains("corp"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store + "/secrets/corp.oauth"))
    }

    func testAKillDuringTheSignInLeavesNoHalfAccount() throws {
        try mailstore("init")
        let add = try BackgroundMailstore(addArguments("work", email: server.user), home: store)
        _ = try add.line(containing: "/authorize?")
        kill(add.process.processIdentifier, SIGKILL)
        _ = add.finish()
        XCTAssertTrue(try mailstore("account", "list").stdout.hasPrefix("No accounts"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store + "/secrets/work.oauth"))
        // The name is free: signing in again works.
        let again = try BackgroundMailstore(addArguments("work", email: server.user), home: store)
        try approveInBrowser(again)
        XCTAssertEqual(again.finish().status, 0)
        try mailstore("sync")
    }
}
