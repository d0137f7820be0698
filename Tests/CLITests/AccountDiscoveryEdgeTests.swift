import Foundation
import MailStore
import TestSupport
import XCTest

/// Account discovery against answers the shared test servers do not give, from a resolver and an autoconfig server in
/// the test process (`FakeDiscoveryServer`): an SRV answer too big for a UDP datagram, SRV records with port 0,
/// autoconfig logins and authentication methods, plaintext-only autoconfig, a malformed MAILSTORE_DNS_SERVER, and
/// domains that are not host names or are internationalised.
final class AccountDiscoveryEdgeTests: CLITestCase {
    private var server: FakeDiscoveryServer?

    override func tearDownWithError() throws {
        server?.stop()
        try super.tearDownWithError()
    }

    /// An autoconfig document with one IMAP and one SMTP server.
    static func document(domain: String, socketType: String = "SSL", username: String = "%EMAILADDRESS%",
                         authentication: [String] = ["password-cleartext"]) -> String {
        let auth = authentication.map { "<authentication>\($0)</authentication>" }.joined()
        return """
        <?xml version="1.0"?><clientConfig version="1.1"><emailProvider id="\(domain)">
        <incomingServer type="imap"><hostname>imap.\(domain)</hostname><port>993</port><socketType>\(socketType)</socketType>
        \(auth)<username>\(username)</username></incomingServer>
        <outgoingServer type="smtp"><hostname>smtp.\(domain)</hostname><port>465</port><socketType>\(socketType)</socketType>
        \(auth)<username>\(username)</username></outgoingServer>
        </emailProvider></clientConfig>
        """
    }

    @discardableResult
    func start(srv: [String: [FakeDiscoveryServer.SRV]] = [:], documents: [String: String] = [:],
               answersOverTCP: Bool = true) throws -> FakeDiscoveryServer {
        let s = try FakeDiscoveryServer(srv: srv, documents: documents, answersOverTCP: answersOverTCP)
        server = s
        return s
    }

    /// `mailstore ARGS` with the fake servers (and `extra`) in its environment.
    @discardableResult
    func run(_ args: [String], env extra: [String: String] = [:], expect status: Int32 = 0,
             file: StaticString = #filePath, line: UInt = #line) throws -> ChildProcess.Result {
        var env = ProcessInfo.processInfo.environment.merging(server?.environment ?? [:]) { _, b in b }
        env["MAILSTORE_HOME"] = store
        env.removeValue(forKey: "MAILSTORE_DISCOVERY_STEP_SECONDS")
        let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), args, environment: env.merging(extra) { _, b in b })
        XCTAssertEqual(r.status, status, "mailstore \(args.joined(separator: " ")): \(r.stdout) \(r.stderr)", file: file, line: line)
        return r
    }

    func discover(_ email: String, env: [String: String] = [:], expect status: Int32 = 0,
                  file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let r = try run(["account", "discover", email, "--json", "--no-cache"], env: env, expect: status, file: file, line: line)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout, file: file, line: line)
    }

    func step(_ result: [String: Any], _ name: String) -> [String: Any]? {
        (result["steps"] as? [[String: Any]])?.first { $0["step"] as? String == name }
    }

    func passwordFile() throws -> String {
        let path = dir.file("pw")
        try Data("pw".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        return path
    }

    /// The accounts of `account list --json`, by name.
    func accounts() throws -> [String: [String: Any]] {
        let lines = try run(["account", "list", "--json"]).stdout.split(separator: "\n")
        let list = try lines.compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        return Dictionary(list.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    }

    // MARK: - DNS

    /// RFC 7766: 40 SRV records do not fit a UDP answer; it comes truncated (TC) with the worst 20-odd, and the
    /// query is asked again over TCP, which gives all 40: the priority-1 server is taken.
    func testATruncatedSRVAnswerIsAskedForAgainOverTCP() throws {
        let records = (1...40).map { FakeDiscoveryServer.SRV(priority: UInt16($0), port: 993, target: "imap\($0).big.test") }
        let s = try start(srv: ["_imaps._tcp.big.test": records])
        let r = try discover("u@big.test")
        XCTAssertEqual(r["imapHost"] as? String, "imap1.big.test", "\(r)")
        XCTAssertEqual(r["source"] as? String, "dns-srv")
        XCTAssertGreaterThanOrEqual(s.queryCounts.tcp, 1, "the truncated answer was asked for again over TCP")
    }

    /// A truncated answer is never used as if complete: when TCP fails too, the step fails and says why.
    func testATruncatedAnswerWithoutTCPFailsTheStep() throws {
        let records = (1...40).map { FakeDiscoveryServer.SRV(priority: UInt16($0), port: 993, target: "imap\($0).big.test") }
        try start(srv: ["_imaps._tcp.big.test": records], answersOverTCP: false)
        let r = try discover("u@big.test", expect: 4)
        XCTAssertNil(r["imapHost"], "no server of the partial answer is taken: \(r)")
        let srv = try XCTUnwrap(step(r, "dns-srv"))
        XCTAssertEqual(srv["status"] as? String, "failed")
        XCTAssertTrue((srv["detail"] as? String ?? "").contains("did not fit a UDP datagram"), "\(srv)")
    }

    /// An SRV record with port 0 (or target ".") names no server: the next record or service is taken, and with
    /// none left nothing is found (not a server at port 0 that `account add` then refuses).
    func testSRVRecordsWithPortZeroAreNoServer() throws {
        try start(srv: ["_imaps._tcp.port0.test": [.init(priority: 1, port: 0, target: "imap.port0.test"),
                                                    .init(priority: 2, port: 0, target: "")],
                        "_imap._tcp.port0.test": [.init(priority: 1, port: 143, target: "imap2.port0.test")],
                        "_imaps._tcp.zero.test": [.init(priority: 1, port: 0, target: "imap.zero.test")],
                        "_submission._tcp.zero.test": [.init(priority: 1, port: 0, target: "smtp.zero.test")]])
        let r = try discover("u@port0.test")
        XCTAssertEqual(r["imapHost"] as? String, "imap2.port0.test", "\(r)")
        XCTAssertEqual(r["imapPort"] as? Int, 143)
        XCTAssertEqual(r["imapSecurity"] as? String, "starttls")
        let zero = try discover("u@zero.test", expect: 4)
        XCTAssertNil(zero["imapHost"])
        XCTAssertNil(zero["smtpHost"])
        XCTAssertEqual(step(zero, "dns-srv")?["status"] as? String, "nothing", "\(zero)")
        try run(["init"])
        let add = try run(["account", "add", "z", "--email", "u@zero.test", "--password-file", try passwordFile()], expect: 6)
        XCTAssertTrue(add.stderr.contains("no IMAP server was found"), add.stderr)
        XCTAssertFalse(add.stderr.contains("--port must be"), add.stderr)
    }

    /// MAILSTORE_DNS_SERVER that is not IPV4[:PORT] is refused with why, never replaced by the system's resolver.
    func testAMalformedDNSServerIsRefused() throws {
        let s = try start(srv: ["_imaps._tcp.prio.test": [.init(priority: 1, port: 993, target: "imap.prio.test")]])
        XCTAssertEqual(try discover("u@prio.test")["imapHost"] as? String, "imap.prio.test", "the well-formed one works")
        for bad in ["127.0.0.1:\(s.dnsPort) ", "127.0.0.1:\(s.dnsPort)x", "127.0.0.1:99999", "127.0.0.1:0", "[::1]:53", "::1",
                    " 127.0.0.1", "127.0.0.1:", "1.2.3:53", "foo"] {
            let r = try discover("u@prio.test", env: ["MAILSTORE_DNS_SERVER": bad], expect: 4)
            let srv = try XCTUnwrap(step(r, "dns-srv"), bad)
            XCTAssertEqual(srv["status"] as? String, "failed", bad)
            XCTAssertTrue((srv["detail"] as? String ?? "").contains("MAILSTORE_DNS_SERVER"), "\(bad): \(srv)")
        }
        let v6 = try discover("u@prio.test", env: ["MAILSTORE_DNS_SERVER": "[::1]:53"], expect: 4)
        XCTAssertTrue((step(v6, "dns-srv")?["detail"] as? String ?? "").contains("IPv6"), "\(v6)")
    }

    // MARK: - Autoconfig

    /// Thunderbird's placeholders in `<username>`: %EMAILLOCALPART% is the part before the @, a fixed name is
    /// taken as given; the account logs in with it.
    func testTheAutoconfigUsernameIsTheLogin() throws {
        try start(documents: ["localpart.test": Self.document(domain: "localpart.test", username: "%EMAILLOCALPART%"),
                              "fixed.test": Self.document(domain: "fixed.test", username: "mailbox-7"),
                              "both.test": Self.document(domain: "both.test", username: "%EMAILLOCALPART%+%EMAILDOMAIN%"),
                              "hostile.test": Self.document(domain: "hostile.test", username: "x\u{202E}y"),
                              "unknown.test": Self.document(domain: "unknown.test", username: "%REALNAME%")])
        let r = try discover("john.doe@localpart.test")
        XCTAssertEqual(r["imapUsername"] as? String, "john.doe")
        XCTAssertEqual(r["imapAuthentication"] as? [String], ["password-cleartext"])
        try run(["init"])
        let pw = try passwordFile()
        try run(["account", "add", "lp", "--email", "john.doe@localpart.test", "--password-file", pw])
        try run(["account", "add", "fx", "--email", "john.doe@fixed.test", "--password-file", pw])
        try run(["account", "add", "bo", "--email", "john.doe@both.test", "--password-file", pw])
        try run(["account", "add", "ho", "--email", "john.doe@hostile.test", "--password-file", pw])
        try run(["account", "add", "un", "--email", "a%b@unknown.test", "--password-file", pw])
        try run(["account", "add", "pc", "--email", "a%b@localpart.test", "--password-file", pw, "--no-cache"])
        try run(["account", "add", "given", "--email", "john.doe@fixed.test", "--username", "me", "--password-file", pw, "--no-cache"])
        let list = try accounts()
        XCTAssertEqual(list["lp"]?["username"] as? String, "john.doe")
        XCTAssertEqual(list["lp"]?["auth"] as? String, "plain")
        XCTAssertEqual(list["fx"]?["username"] as? String, "mailbox-7")
        XCTAssertEqual(list["bo"]?["username"] as? String, "john.doe+both.test")
        XCTAssertEqual(list["ho"]?["username"] as? String, "john.doe@hostile.test", "a login with a bidi control is not taken")
        XCTAssertEqual(list["given"]?["username"] as? String, "me", "--username wins")
        XCTAssertEqual(list["un"]?["username"] as? String, "a%b@unknown.test", "a placeholder not known: the address")
        XCTAssertEqual(list["pc"]?["username"] as? String, "a%b", "a % in the address itself is kept")
        XCTAssertNil(list["lp"]?["smtpUsername"] as? String, "the SMTP login is the IMAP one")

        // Another address of the same domains: the cached lookup fills the document's placeholders in for it (it had
        // logged in with the whole address, whatever the document said).
        let requests = server?.requestedPaths.count ?? 0
        try run(["account", "add", "lp2", "--email", "jane@localpart.test", "--password-file", pw])
        try run(["account", "add", "bo2", "--email", "x.y@both.test", "--password-file", pw])
        // A fixed login names one mailbox whatever the address: a second account of it is refused.
        let fx2 = try run(["account", "add", "fx2", "--email", "jane@fixed.test", "--password-file", pw], expect: 6)
        XCTAssertTrue(fx2.stderr.contains("the account \"fx\" reads this mailbox already"), fx2.stderr)
        try run(["account", "add", "ho2", "--email", "jane@hostile.test", "--password-file", pw])
        XCTAssertEqual(server?.requestedPaths.count ?? 0, requests, "from the cache, nothing asked")
        let again = try accounts()
        XCTAssertEqual(again["lp2"]?["username"] as? String, "jane")
        XCTAssertEqual(again["bo2"]?["username"] as? String, "x.y+both.test")
        XCTAssertEqual(again["ho2"]?["username"] as? String, "jane@hostile.test")
        let cached = try run(["history", "--account", "lp2", "--json"]).stdout
        XCTAssertTrue(cached.contains("\"imapUsernameTemplate\":\"%EMAILLOCALPART%\""), cached)
    }

    /// `<authentication>`: password-cleartext is a password (plain); OAuth2 alone is not recorded as a password
    /// account, nor is a method mailstore does not do: `account add` says what to give.
    func testAutoconfigAuthenticationIsMapped() throws {
        try start(documents: ["oauth.test": Self.document(domain: "oauth.test", authentication: ["OAuth2"]),
                              "either.test": Self.document(domain: "either.test", authentication: ["OAuth2", "password-cleartext"]),
                              "cram.test": Self.document(domain: "cram.test", authentication: ["password-encrypted"])])
        try run(["init"])
        let pw = try passwordFile()
        XCTAssertEqual(try discover("u@oauth.test")["imapAuthentication"] as? [String], ["OAuth2"])
        let oauth = try run(["account", "add", "o", "--email", "u@oauth.test", "--password-file", pw], expect: 6)
        XCTAssertTrue(oauth.stderr.contains("offers only OAuth2") && oauth.stderr.contains("--auth oauth2"), oauth.stderr)
        let cram = try run(["account", "add", "c", "--email", "u@cram.test", "--password-file", pw], expect: 6)
        XCTAssertTrue(cram.stderr.contains("password-encrypted") && cram.stderr.contains("--auth plain"), cram.stderr)
        try run(["account", "add", "e", "--email", "u@either.test", "--password-file", pw])
        try run(["account", "add", "c2", "--email", "u@cram.test", "--password-file", pw, "--auth", "plain"])
        let list = try accounts()
        XCTAssertNil(list["o"])
        XCTAssertEqual(list["e"]?["auth"] as? String, "plain")
        XCTAssertEqual(list["c2"]?["auth"] as? String, "plain", "--auth given wins")

        // The cached lookups keep the methods: a second address of the OAuth2-only domain is told the same.
        try run(["account", "add", "o1", "--email", "u@oauth.test", "--password-file", pw, "--auth", "plain"])
        let asked = server?.requestedPaths.count ?? 0
        let o2 = try run(["account", "add", "o2", "--email", "v@oauth.test", "--password-file", pw], expect: 6)
        XCTAssertTrue(o2.stderr.contains("offers only OAuth2") && o2.stderr.contains("--auth oauth2"), o2.stderr)
        let c3 = try run(["account", "add", "c3", "--email", "v@cram.test", "--password-file", pw], expect: 6)
        XCTAssertTrue(c3.stderr.contains("password-encrypted"), c3.stderr)
        XCTAssertEqual(server?.requestedPaths.count ?? 0, asked, "both refused from the cache, nothing asked")
    }

    /// An autoconfig offering plaintext connections only: said so, by discover and by add.
    func testAPlaintextOnlyAutoconfigSaysThereIsNoEncryptedConnection() throws {
        try start(documents: ["plain.test": Self.document(domain: "plain.test", socketType: "plain")])
        let r = try discover("u@plain.test", expect: 4)
        let ispdb = try XCTUnwrap(step(r, "ispdb"))
        XCTAssertEqual(ispdb["status"] as? String, "failed")
        XCTAssertTrue((ispdb["detail"] as? String ?? "").contains("offers no encrypted connection"), "\(ispdb)")
        try run(["init"])
        let add = try run(["account", "add", "p", "--email", "u@plain.test", "--password-file", try passwordFile()], expect: 6)
        XCTAssertTrue(add.stderr.contains("no IMAP server was found") && add.stderr.contains("offers no encrypted connection"), add.stderr)
    }

    // MARK: - Domains

    /// A domain that is not a host name is refused (exit 64) before anything is asked, by discover and by add.
    func testDomainsThatAreNotHostNamesAreRefused() throws {
        let s = try start()
        try run(["init"])
        let pw = try passwordFile()
        for (email, why) in [("u@ispdb.test?x=1", "\"?\""), ("u@ispdb..test", "empty label"), ("u@ispdb.test.", "empty label"),
                             ("u@-x.test", "starts or ends with '-'"), ("u@\(String(repeating: "a", count: 64)).test", "over 63 bytes"),
                             ("u@a b.test", "U+0020"), ("u@x\u{200B}.test", "U+200B")] {
            let d = try run(["account", "discover", email], expect: 64)
            XCTAssertTrue(d.stderr.contains(why), "\(email): \(d.stderr)")
            let a = try run(["account", "add", "x", "--email", email, "--host", "h.example", "--password-file", pw], expect: 64)
            XCTAssertTrue(a.stderr.contains(why), "\(email): \(a.stderr)")
        }
        XCTAssertEqual(s.requestedPaths, [], "nothing was asked")
        XCTAssertEqual(s.queryCounts.udp, 0)
        XCTAssertEqual(try accounts().count, 0)
    }

    /// An internationalised domain is asked for as IDNA's A-label (Punycode), in DNS and of the autoconfig server.
    func testAnInternationalisedDomainIsAskedForInPunycode() throws {
        let s = try start(srv: ["_imaps._tcp.xn--bcher-kva.test": [.init(priority: 1, port: 993, target: "imap.xn--bcher-kva.test")]])
        let r = try discover("u@Bücher.test")
        XCTAssertEqual(r["domain"] as? String, "xn--bcher-kva.test")
        XCTAssertEqual(r["imapHost"] as? String, "imap.xn--bcher-kva.test", "\(r)")
        XCTAssertEqual(s.requestedPaths, ["/v1.1/xn--bcher-kva.test"])
        // Decomposed (u + U+0308) is the same domain once composed (NFC).
        XCTAssertEqual(try discover("u@bu\u{0308}cher.test")["domain"] as? String, "xn--bcher-kva.test")
    }
}

extension AccountDiscoveryEdgeTests {
    /// RFC 6186 section 6: an SRV target that is not the address's domain or under it (a spoofed answer naming the
    /// attacker's host, `localhost` here; `smtp.notvictim.test`, which only ends like the domain) is not used: discover
    /// shows it as unconfirmed; `account add --test` stops (exit 6) before connecting anywhere, naming it and the
    /// options that confirm it; nothing is recorded, so nothing is cached for the domain's other addresses.
    func testAnSRVTargetOutsideTheDomainIsNotUsedWithoutConfirmation() throws {
        try start(srv: ["_imaps._tcp.victim.test": [.init(priority: 1, port: 993, target: "localhost")],
                        "_submission._tcp.victim.test": [.init(priority: 1, port: 465, target: "smtp.notvictim.test")]])
        let r = try discover("alice@victim.test", expect: 4)
        XCTAssertNil(r["imapHost"], "\(r)")
        XCTAssertNil(r["smtpHost"], "\(r)")
        XCTAssertEqual(step(r, "dns-srv")?["status"] as? String, "unconfirmed", "\(r)")
        let held = try XCTUnwrap(r["unconfirmed"] as? [[String: Any]], "\(r)")
        XCTAssertEqual(held.compactMap { $0["host"] as? String }, ["localhost", "smtp.notvictim.test"])
        XCTAssertEqual(held.compactMap { $0["service"] as? String }, ["imap", "smtp"])
        let shown = try run(["account", "discover", "alice@victim.test", "--no-cache"], expect: 4)
        XCTAssertTrue(shown.stdout.contains("Not used: DNS (SRV) names IMAP tls://localhost:993, outside victim.test"), shown.stdout)
        try run(["init"])
        let pw = try passwordFile()
        let add = try run(["account", "add", "v", "--email", "alice@victim.test", "--username", "alice", "--password-file", pw, "--test"],
                          expect: 6)
        XCTAssertTrue(add.stderr.contains("DNS (SRV) names the IMAP server tls://localhost:993 and SMTP server tls://smtp.notvictim.test:465"),
                      add.stderr)
        XCTAssertTrue(add.stderr.contains("--host localhost --port 993 --security tls --smtp-host smtp.notvictim.test --smtp-port 465 "
                                          + "--smtp-security tls"), add.stderr)
        XCTAssertFalse(add.stdout.contains("imap-connect"), "no connection test was run: \(add.stdout)")
        XCTAssertEqual(try accounts().count, 0)
        XCTAssertNil(try MailStore.open(at: store, readOnly: true).cachedDiscovery(email: "bob@victim.test"), "nothing cached")
        // Given by hand, it is the user's choice: nothing is looked up.
        try run(["account", "add", "v", "--email", "alice@victim.test", "--host", "localhost", "--password-file", pw])
        XCTAssertEqual(try accounts()["v"]?["imapHost"] as? String, "localhost")
    }

    /// A domain whose IMAP SRV target is under it but whose submission target is elsewhere: the IMAP server is used,
    /// the SMTP one must be given (`--smtp-host`), and with it the account is added; the lookup cached then holds no
    /// server outside the domain.
    func testAnSRVSubmissionTargetOutsideTheDomainMustBeGiven() throws {
        try start(srv: ["_imaps._tcp.ok.test": [.init(priority: 1, port: 993, target: "imap.mail.ok.test")],
                        "_submission._tcp.ok.test": [.init(priority: 1, port: 587, target: "smtp.elsewhere.test")]])
        let r = try discover("bob@ok.test")
        XCTAssertEqual(r["imapHost"] as? String, "imap.mail.ok.test", "\(r)")
        XCTAssertNil(r["smtpHost"], "\(r)")
        XCTAssertEqual(step(r, "dns-srv")?["status"] as? String, "found")
        XCTAssertTrue((step(r, "dns-srv")?["detail"] as? String ?? "").contains("smtp.elsewhere.test is not under ok.test"), "\(r)")
        try run(["init"])
        let pw = try passwordFile()
        let add = try run(["account", "add", "o", "--email", "bob@ok.test", "--password-file", pw], expect: 6)
        XCTAssertTrue(add.stderr.contains("give it by hand: --smtp-host smtp.elsewhere.test --smtp-port 587 --smtp-security starttls"),
                      add.stderr)
        XCTAssertFalse(add.stderr.contains("--host "), add.stderr)
        try run(["account", "add", "o", "--email", "bob@ok.test", "--password-file", pw, "--smtp-host", "smtp.elsewhere.test"])
        let o = try XCTUnwrap(try accounts()["o"])
        XCTAssertEqual([o["imapHost"] as? String, o["smtpHost"] as? String], ["imap.mail.ok.test", "smtp.elsewhere.test"])
        let cached = try XCTUnwrap(try MailStore.open(at: store, readOnly: true).cachedDiscovery(email: "carol@ok.test"))
        XCTAssertEqual(cached.imapHost, "imap.mail.ok.test")
        XCTAssertNil(cached.smtpHost, "the unconfirmed server was not cached")
    }

    /// A timeout in the connection test says its limit in tenths of a second at most ("0.9 seconds"), never as
    /// 0.9999781847000122: the limit handed to each step is rounded down to a tenth.
    func testAConnectionTestTimeoutIsSaidRounded() throws {
        // A listener that never accepts: the connection is made (the backlog) and the TLS handshake is never answered.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        XCTAssertTrue(bound)
        let settings = AccountSettings(name: "t", email: "u@example.com", host: "127.0.0.1", port: UInt16(bigEndian: addr.sin_port),
                                       security: "tls", credential: .environment("PATH"))
        let report = ConnectionTest(account: try settings.validated(), budgetSeconds: 1).run()
        let connect = try XCTUnwrap(report.checks.first { $0.step == "imap-connect" })
        XCTAssertEqual(connect.status, "failed")
        let detail = connect.detail ?? ""
        XCTAssertTrue(detail.contains("second"), detail)
        XCTAssertNil(detail.range(of: #"[0-9]\.[0-9]{2,}"#, options: .regularExpression), "rounded: \(detail)")
    }
}
