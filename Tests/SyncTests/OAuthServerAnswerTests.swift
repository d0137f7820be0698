import Foundation
@testable import MailStore
import SecureTransport
import TestSupport
import XCTest

/// What mailstore does with OAuth answers it must not trust or wait for: metadata of another issuer (RFC 8414
/// 3.3), a token endpoint that never answers (bounded by the caller's time limit), `slow_down` near the
/// deadline, a verification URI that is not a web address, and the loopback redirect's requests that are not
/// the sign-in's. Fake servers where the real one (Tools/test-server/oauth_server.py) cannot misbehave so.
final class OAuthServerAnswerTests: XCTestCase {
    private func config(_ issuer: String) -> OAuthConfig {
        OAuthConfig(authorizationEndpoint: issuer + "/authorize", tokenEndpoint: issuer + "/token",
                    deviceAuthorizationEndpoint: issuer + "/device", revocationEndpoint: issuer + "/revoke",
                    clientID: "mailstore-test", scopes: ["mail"], emailSource: .user)
    }

    private func metadata(issuer: String, base: String) -> String {
        #"{"issuer":"\#(issuer)","authorization_endpoint":"\#(base)/authorize","token_endpoint":"\#(base)/token"}"#
    }

    func testMetadataOfAnotherIssuerIsRefused() throws {
        let evil = try FakeOAuthHTTPServer { path, _ in
            path.hasPrefix("/.well-known/") ? (200, #"{"issuer":"https://evil.example","authorization_endpoint":"https://evil.example/a","token_endpoint":"https://evil.example/t"}"#) : nil
        }
        defer { evil.stop() }
        XCTAssertThrowsError(try OAuthConfig.discover(issuer: evil.base, clientID: "c", scopes: ["mail"])) {
            guard case .invalidConfiguration(let m)? = $0 as? OAuthError else { return XCTFail("\($0)") }
            XCTAssertTrue(m.contains("issuer \"https://evil.example\", not of \(evil.base)"), m)
        }
        let missing = try FakeOAuthHTTPServer { _, _ in (200, #"{"authorization_endpoint":"https://a/a","token_endpoint":"https://a/t"}"#) }
        defer { missing.stop() }
        XCTAssertThrowsError(try OAuthConfig.discover(issuer: missing.base, clientID: "c", scopes: ["mail"])) {
            XCTAssertTrue("\($0)".contains("names no issuer"), "\($0)")
        }
    }

    func testMetadataOfTheIssuerAskedForIsUsedWithOrWithoutATrailingSlash() throws {
        let port = Locked<String>("")
        let good = try FakeOAuthHTTPServer { _, _ in
            let base = port.withLock { $0 }
            return (200, #"{"issuer":"\#(base)/","authorization_endpoint":"\#(base)/authorize","token_endpoint":"\#(base)/token"}"#)
        }
        defer { good.stop() }
        port.withLock { $0 = good.base }
        let c = try OAuthConfig.discover(issuer: good.base, clientID: "c", scopes: ["mail"])
        XCTAssertEqual(c.tokenEndpoint, good.base + "/token")
    }

    /// A token endpoint that accepts and never answers: the refresh ends within the caller's limit (sync's
    /// `--timeout`), and within a bound deadline (account test's 10 s budget), not after 4 tries of 30 s.
    func testARefreshFromATokenEndpointThatNeverAnswersEndsWithinTheTimeLimit() throws {
        let hanging = try FakeOAuthHTTPServer { _, _ in nil }
        defer { hanging.stop() }
        let dir = TemporaryDirectory("oauth")
        let path = dir.file("secrets/work.oauth")
        try OAuthTokenFile(config: config(hanging.base), refreshToken: "r").write(path)
        let source = CredentialSource.oauth(path)

        var start = Date()
        XCTAssertThrowsError(try source.oauthAccessToken(forceRefresh: true, timeoutSeconds: 2)) {
            XCTAssertTrue("\($0)".contains("cannot reach the OAuth server"), "\($0)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 3.5)

        start = Date()
        XCTAssertThrowsError(try CredentialSource.$refreshDeadline.withValue(Date().addingTimeInterval(1.5)) {
            try source.secret()
        })
        XCTAssertLessThan(Date().timeIntervalSince(start), 3)
    }

    /// Retries back off 1, 2, 4 s, but no wait goes past the deadline: the retry that would is not made.
    func testRetriesStopAtTheDeadline() throws {
        var client = OAuthClient(config: config("http://127.0.0.1:1"), account: "work")
        let waits = Locked<[Double]>([])
        client.sleep = { s in waits.withLock { $0.append(s) } }
        XCTAssertThrowsError(try client.refresh("r", deadline: Date().addingTimeInterval(1.5))) {
            guard case .unreachable(let m)? = $0 as? OAuthError else { return XCTFail("\($0)") }
            XCTAssertTrue(m.contains("no time left"), m)
        }
        XCTAssertEqual(waits.withLock { $0 }, [1], "the 2 s wait would end past the deadline")
    }

    /// A server answering `slow_down` to every poll: the wait grows by 5 s each time, but the sign-in ends at
    /// its timeout, never after it.
    func testDeviceSignInWithSlowDownEndsAtItsTimeout() throws {
        let server = try FakeOAuthHTTPServer { path, _ in
            path == "/device"
                ? (200, #"{"device_code":"d","user_code":"ABCD","verification_uri":"https://example.com/device","interval":1}"#)
                : (400, #"{"error":"slow_down"}"#)
        }
        defer { server.stop() }
        let client = OAuthClient(config: config(server.base), account: "work")
        let start = Date()
        var said: [String] = []
        XCTAssertThrowsError(try OAuthSignIn.device(client, timeoutSeconds: 3) { said.append($0) }) {
            guard case .timedOut? = $0 as? OAuthError else { return XCTFail("\($0)") }
        }
        let took = Date().timeIntervalSince(start)
        XCTAssertLessThan(took, 3.6, "the sign-in waited past its timeout")
        XCTAssertGreaterThan(took, 2.5)
        XCTAssertEqual(said, ["On any device, open https://example.com/device and enter the code ABCD"])
    }

    func testAVerificationURIThatIsNotAWebAddressIsRefusedNotShown() throws {
        for uri in ["javascript:alert(1)", "http://example.com/device", "file:///etc/passwd"] {
            let server = try FakeOAuthHTTPServer { _, _ in
                (200, #"{"device_code":"d","user_code":"ABCD","verification_uri":"\#(uri)","interval":1}"#)
            }
            defer { server.stop() }
            var said: [String] = []
            XCTAssertThrowsError(try OAuthSignIn.device(OAuthClient(config: config(server.base), account: "w"), timeoutSeconds: 5) {
                said.append($0)
            }) {
                XCTAssertTrue("\($0)".contains("verification_uri is not an https URL"), "\($0)")
            }
            XCTAssertEqual(said, [], uri)
        }
    }

    func testTheRedirectQueryIsFormDecoded() {
        let q = LoopbackListener.formDecode(query: "/?error=access_denied&error_description=AADSTS90094:+An+administrator%2Bmore&state=a%3Db")
        XCTAssertEqual(q["error_description"], "AADSTS90094: An administrator+more")
        XCTAssertEqual(q["state"], "a=b")
        XCTAssertEqual(LoopbackListener.formDecode(query: "/"), [:])
    }

    /// A token endpoint that is not https is refused before the sign-in URL is shown.
    func testAnInsecureTokenEndpointIsRefusedBeforeTheUserSignsIn() {
        var c = config("http://127.0.0.1:1")
        c.tokenEndpoint = "http://oauth.example.com/token"
        var said: [String] = []
        XCTAssertThrowsError(try OAuthSignIn.browser(OAuthClient(config: c, account: "w"), loginHint: nil, openBrowser: false,
                                                     timeoutSeconds: 5) { said.append($0) }) {
            guard case .invalidConfiguration(let m)? = $0 as? OAuthError else { return XCTFail("\($0)") }
            XCTAssertTrue(m.contains("must be https"), m)
        }
        XCTAssertEqual(said, [])
    }

    // MARK: - The loopback listener against local clients that stall

    /// A blocking socket connected to 127.0.0.1:`port`.
    private func connectLoopback(_ port: UInt16) throws -> Int32 {
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = port.bigEndian
        let r = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard r == 0 else {
            close(s)
            throw NSError(domain: "connect", code: Int(errno))
        }
        return s
    }

    /// A local client sending a byte every 0.3 s cannot hold the sign-in past its deadline (each read was bounded
    /// by 10 s only, so a sign-in of 5 s was held 47 s): the wait ends at the deadline, not later.
    func testATricklingConnectionDoesNotHoldTheSignInPastItsDeadline() throws {
        let listener = try LoopbackListener()
        defer { listener.close() }
        let fd = try connectLoopback(listener.port)
        let done = DispatchSemaphore(value: 0)
        Thread {
            for _ in 0..<40 {
                guard send(fd, "G", 1, Int32(MSG_NOSIGNAL)) == 1 else { break }
                Thread.sleep(forTimeInterval: 0.3)
            }
            done.signal()
        }.start()
        let start = Date()
        XCTAssertThrowsError(try listener.nextRequest(deadline: Deadline(secondsFromNow: 2))) {
            guard case .timedOut? = $0 as? OAuthError else { return XCTFail("\($0)") }
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 3.5, "the deadline bounds every read")
        shutdown(fd, Int32(SHUT_RDWR))
        done.wait()
        close(fd)
    }

    /// Connections that connect and send nothing do not keep the browser's redirect out: it is read beside them
    /// and handed over at once (they were read one at a time, 10 s each); the stalled ones are dropped unanswered.
    func testStalledConnectionsDoNotKeepTheRedirectOut() throws {
        let listener = try LoopbackListener()
        defer { listener.close() }
        let stalled = try (0..<3).map { _ in try connectLoopback(listener.port) }
        defer { stalled.forEach { close($0) } }
        Thread.sleep(forTimeInterval: 0.2)
        let browser = try connectLoopback(listener.port)
        defer { close(browser) }
        let get = "GET /?state=s1&code=c1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        XCTAssertEqual(get.withCString { send(browser, $0, strlen($0), Int32(MSG_NOSIGNAL)) }, get.utf8.count)
        let start = Date()
        let request = try listener.nextRequest(deadline: Deadline(secondsFromNow: 30))
        XCTAssertLessThan(Date().timeIntervalSince(start), 2, "not behind the stalled connections")
        XCTAssertEqual(request.query["state"], "s1")
        XCTAssertEqual(request.query["code"], "c1")
        request.answer(status: 200, "ok")
        var answer = [UInt8](repeating: 0, count: 256)
        XCTAssertGreaterThan(read(browser, &answer, answer.count), 0, "the browser got its page")
        // The stalled connections get nothing and are closed after their 5 s.
        var tv = timeval(tv_sec: 8, tv_usec: 0)
        setsockopt(stalled[0], SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        XCTAssertThrowsError(try listener.nextRequest(deadline: Deadline(secondsFromNow: 6)))
        XCTAssertEqual(read(stalled[0], &answer, answer.count), 0, "closed unanswered")
    }
}
