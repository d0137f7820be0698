import Foundation
import MailStore
import TestSupport
import XCTest

/// Account discovery end to end (AC-MP-08, E-23, E-31) against real servers on loopback, no mocks: dnsmasq serving
/// SRV and MX records and an autoconfig HTTP server in the ISPDB layout (Tools/test-server/discovery), reached
/// through MAILSTORE_DNS_SERVER and MAILSTORE_AUTOCONFIG_URL; and the discovery cache in the log.
final class AccountDiscoveryTests: CLITestCase {
    private let secret = "d1sc0very-s3cret"
    var servers: DiscoveryServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        servers = try TestServers.discovery()
    }

    /// `mailstore ARGS` on this test's store with the discovery servers (and `extra`) in its environment.
    @discardableResult
    func run(_ args: [String], env extra: [String: String] = [:], expect status: Int32 = 0,
             file: StaticString = #filePath, line: UInt = #line) throws -> ChildProcess.Result {
        var env = ProcessInfo.processInfo.environment.merging(servers.environment) { _, b in b }
        env["MAILSTORE_HOME"] = store
        env.removeValue(forKey: "MAILSTORE_DISCOVERY_STEP_SECONDS")
        let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), args, environment: env.merging(extra) { _, b in b })
        XCTAssertEqual(r.status, status, "mailstore \(args.joined(separator: " ")): \(r.stdout) \(r.stderr)", file: file, line: line)
        return r
    }

    /// `account discover EMAIL --json` as an object.
    func discover(_ email: String, _ extra: [String] = [], env: [String: String] = [:], expect status: Int32 = 0,
                  file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let r = try run(["account", "discover", email, "--json"] + extra, env: env, expect: status, file: file, line: line)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout, file: file, line: line)
    }

    func steps(_ result: [String: Any]) -> [String: [String: Any]] {
        let list = result["steps"] as? [[String: Any]] ?? []
        return Dictionary(list.map { ($0["step"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    }

    func passwordFile() throws -> String {
        let path = dir.file("pw")
        try Data(secret.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        return path
    }

    /// The autoconfig requests for `domain` so far.
    func requests(for domain: String) -> Int { servers.autoconfigRequests().filter { $0 == "/v1.1/\(domain)" }.count }

    // MARK: - The chain

    func testISPDBDocumentGivesTheServersAndOnlyTheDomainIsSent() throws {
        let r = try discover("bob.private@ispdb.test")
        XCTAssertEqual(r["source"] as? String, "ispdb")
        XCTAssertEqual(r["imapHost"] as? String, "imap.ispdb.test")
        XCTAssertEqual(r["imapPort"] as? Int, 993)
        XCTAssertEqual(r["imapSecurity"] as? String, "tls")
        XCTAssertEqual(r["smtpHost"] as? String, "smtp.ispdb.test")
        XCTAssertEqual(r["smtpPort"] as? Int, 587)
        XCTAssertEqual(r["smtpSecurity"] as? String, "starttls")
        XCTAssertEqual(r["smtpSource"] as? String, "ispdb")
        XCTAssertNil(steps(r)["dns-srv"], "the chain stops when IMAP and SMTP are known")
        XCTAssertLessThan(r["seconds"] as? Double ?? 99, 5, "NFR-MPROV-01: a known ISPDB domain within 5 s")
        // P-01: the server saw the domain, never the address.
        XCTAssertGreaterThan(requests(for: "ispdb.test"), 0)
        XCTAssertFalse(servers.autoconfigRequests().contains { $0.contains("bob") || $0.contains("@") }, "\(servers.autoconfigRequests())")
        let text = try run(["account", "discover", "bob@ispdb.test"]).stdout
        XCTAssertTrue(text.contains("ispdb     found"), text)
        XCTAssertTrue(text.contains("IMAP tls://imap.ispdb.test:993 (from ispdb), SMTP starttls://smtp.ispdb.test:587 (from ispdb)"), text)
    }

    /// E-23: invalid XML is a failed step, not an error, and DNS SRV answers.
    func testInvalidAutoconfigXMLFallsThroughToSRV() throws {
        let r = try discover("bob@badxml.test")
        let s = steps(r)
        XCTAssertEqual(s["ispdb"]?["status"] as? String, "failed")
        XCTAssertTrue((s["ispdb"]?["detail"] as? String ?? "").contains("invalid"), "\(s)")
        XCTAssertEqual(s["dns-srv"]?["status"] as? String, "found")
        XCTAssertEqual(r["source"] as? String, "dns-srv")
        XCTAssertEqual(r["imapHost"] as? String, "imap.badxml.test", "nothing of the broken document is used")
    }

    /// RFC 6186: _imaps is TLS, _imap STARTTLS; submission on 465 is TLS, on 587 STARTTLS.
    func testSRVRecordsGiveHostPortAndSecurity() throws {
        let tls = try discover("bob@srv.test")
        XCTAssertEqual(steps(tls)["ispdb"]?["status"] as? String, "failed", "404: no autoconfig")
        XCTAssertEqual(tls["source"] as? String, "dns-srv")
        XCTAssertEqual([tls["imapHost"] as? String, tls["imapSecurity"] as? String], ["imap.srv.test", "tls"])
        XCTAssertEqual(tls["imapPort"] as? Int, 993)
        XCTAssertEqual([tls["smtpHost"] as? String, tls["smtpSecurity"] as? String], ["smtp.srv.test", "tls"])
        XCTAssertEqual(tls["smtpPort"] as? Int, 465)
        let starttls = try discover("bob@starttls.test")
        XCTAssertEqual([starttls["imapHost"] as? String, starttls["imapSecurity"] as? String], ["imap.starttls.test", "starttls"])
        XCTAssertEqual(starttls["imapPort"] as? Int, 143)
        XCTAssertEqual([starttls["smtpSecurity"] as? String], ["starttls"])
        XCTAssertEqual(starttls["smtpPort"] as? Int, 587)
    }

    func testMXOnlyDomainGetsTheProviderByTheMXHeuristic() throws {
        let r = try discover("bob@mx.test")
        let s = steps(r)
        XCTAssertEqual(s["dns-srv"]?["status"] as? String, "nothing")
        XCTAssertEqual(s["mx"]?["status"] as? String, "found")
        XCTAssertEqual(r["source"] as? String, "mx")
        XCTAssertEqual(r["imapHost"] as? String, "imap.gmail.com", "MX at aspmx.l.google.com: Google's servers")
        XCTAssertEqual(r["smtpHost"] as? String, "smtp.gmail.com")
    }

    /// E-31: with no IMAP server found, the SMTP server found is kept, and `account add` says what to give
    /// with it filled in; nothing is recorded.
    func testPartialResultsPrefillTheManualPath() throws {
        try run(["init"])
        let r = try discover("bob@partial.test", expect: 4)
        XCTAssertNil(r["imapHost"])
        XCTAssertEqual(r["smtpHost"] as? String, "smtp.partial.test")
        XCTAssertEqual(r["smtpPort"] as? Int, 587)
        XCTAssertEqual(steps(r)["mx"]?["status"] as? String, "nothing", "an unknown exchanger says nothing")
        let pw = try passwordFile()
        let add = try run(["account", "add", "p", "--email", "bob@partial.test", "--password-file", pw], expect: 6)
        XCTAssertTrue(add.stderr.contains("--host HOST") && add.stderr.contains("--smtp-host smtp.partial.test --smtp-port 587 --smtp-security starttls"),
                      add.stderr)
        XCTAssertTrue(add.stdout.contains("dns-srv   found"), "the steps are shown: \(add.stdout)")
        XCTAssertFalse(try run(["account", "list"]).stdout.contains("p\t"))
        // The prefilled command works as given.
        let manual = try run(["account", "add", "p", "--email", "bob@partial.test", "--password-file", pw, "--host", "imap.partial.test",
                              "--smtp-host", "smtp.partial.test", "--smtp-port", "587", "--smtp-security", "starttls"])
        XCTAssertTrue(manual.stdout.contains("tls imap.partial.test:993") && manual.stdout.contains("SMTP starttls smtp.partial.test:587"),
                      manual.stdout)
    }

    /// A step that never answers ends at its limit and the chain goes on (the limit shortened for the test
    /// through MAILSTORE_DISCOVERY_STEP_SECONDS; `testTheRealLimitsAreTenAndThirtySeconds` runs the real one).
    func testASlowAutoconfigServerTimesOutAndTheChainGoesOn() throws {
        let started = Date()
        let r = try discover("bob@slow.test", env: ["MAILSTORE_DISCOVERY_STEP_SECONDS": "1.5"])
        let ispdb = try XCTUnwrap(steps(r)["ispdb"])
        XCTAssertEqual(ispdb["status"] as? String, "failed")
        let detail = ispdb["detail"] as? String ?? ""
        XCTAssertTrue(detail.contains("no answer within 2 s") || detail.contains("timed out"), detail)
        let seconds = ispdb["seconds"] as? Double ?? 0
        XCTAssertGreaterThanOrEqual(seconds, 1.4)
        XCTAssertLessThan(seconds, 3)
        XCTAssertEqual(r["source"] as? String, "dns-srv")
        XCTAssertEqual(r["imapHost"] as? String, "imap.slow.test")
        XCTAssertLessThan(Date().timeIntervalSince(started), servers.slowSeconds, "nobody waited for the slow server")
    }

    /// The autoconfig GET over HTTP/1.1 as servers send it: a redirect is followed (a relative Location) and
    /// chunked coding is read; a redirect loop ends after 5, a redirect to plain http on a host that is not
    /// loopback is refused, and a body over 1 MiB is refused as it arrives: each a failed step, never an error.
    func testTheAutoconfigRequestFollowsRedirectsReadsChunksAndKeepsItsBounds() throws {
        let ispdbBefore = requests(for: "ispdb.test"), loopBefore = requests(for: "loop.test")
        for domain in ["moved.test", "chunked.test"] {
            let r = try discover("bob@\(domain)")
            XCTAssertEqual(r["source"] as? String, "ispdb", domain)
            XCTAssertEqual(r["imapHost"] as? String, "imap.ispdb.test", domain)
        }
        XCTAssertEqual(requests(for: "ispdb.test") - ispdbBefore, 1, "moved.test's redirect was followed")
        func failed(_ domain: String, _ why: String) throws {
            let r = try discover("bob@\(domain)", expect: 4)
            let ispdb = try XCTUnwrap(steps(r)["ispdb"], domain)
            XCTAssertEqual(ispdb["status"] as? String, "failed", domain)
            XCTAssertTrue((ispdb["detail"] as? String ?? "").contains(why), "\(domain): \(ispdb)")
            XCTAssertNil(r["imapHost"], domain)
        }
        try failed("loop.test", "more than 5 redirects")
        XCTAssertEqual(requests(for: "loop.test") - loopBefore, 6, "the first request and 5 redirects")
        try failed("downgrade.test", "only https is allowed")
        XCTAssertFalse(servers.autoconfigRequests().contains { $0.contains("autoconfig.example.com") })
        try failed("huge.test", "more than 1048576 bytes")
    }

    /// The real limits: 10 s per step, 30 s in all (AC-MP-08), and the 30 s budget ends the chain early.
    func testTheRealLimitsAreTenAndThirtySeconds() throws {
        XCTAssertEqual(AccountDiscovery.defaultStepSeconds, 10)
        XCTAssertEqual(AccountDiscovery.defaultTotalSeconds, 30)
        var chain = AccountDiscovery(stepSeconds: 10, totalSeconds: 30)
        if ProcessInfo.processInfo.environment["MAILSTORE_DISCOVERY_STEP_SECONDS"] == nil {
            XCTAssertEqual(AccountDiscovery().stepSeconds, 10)
            XCTAssertEqual(AccountDiscovery().totalSeconds, 30)
        }
        chain.autoconfigBase = servers.autoconfigURL
        let dns = servers.dnsServer.split(separator: ":")
        chain.dnsServer = (String(dns[0]), UInt16(dns[1])!)
        chain.stepSeconds = 10
        XCTAssertGreaterThan(servers.slowSeconds, 10, "the slow server must outlast the real step limit")
        let r = chain.run(email: "bob@slow.test")
        let ispdb = try XCTUnwrap(r.steps.first { $0.step == "ispdb" })
        XCTAssertEqual(ispdb.status, "failed")
        XCTAssertGreaterThanOrEqual(ispdb.seconds, 9.5)
        XCTAssertLessThan(ispdb.seconds, 12)
        XCTAssertEqual(r.source, "dns-srv", "the chain went on")
        XCTAssertLessThan(r.seconds, 30)
        // A spent budget: the steps after it are skipped, and what was found so far stands (nothing here).
        chain.stepSeconds = 1
        chain.totalSeconds = 1.05
        let short = chain.run(email: "bob@slow.test")
        XCTAssertEqual(short.steps.map(\.status), ["nothing", "failed", "skipped", "skipped"])
        XCTAssertNil(short.imapHost)
        XCTAssertLessThan(short.seconds, 2)
    }

    /// Host names from DNS and autoconfig answers are taken only when they are host names.
    func testOnlyHostNamesAreTaken() throws {
        let r = try discover("bob@hostile.test", expect: 4)
        XCTAssertEqual(steps(r)["ispdb"]?["status"] as? String, "failed")
        XCTAssertEqual(steps(r)["ispdb"]?["detail"] as? String, "the answer names no valid host name")
        XCTAssertNil(r["imapHost"])
        XCTAssertNil(r["smtpHost"])
        for good in ["imap.example.org", "a", "mail-1.example.org", "xn--bcher-kva.example"] {
            XCTAssertTrue(AccountDiscovery.isHostName(good), good)
        }
        for bad in ["", "imap..example.org", "-imap.example.org", "imap-.example.org", "imap.example.org\u{1b}[2J", "bücher.example",
                    "a b.org", "a/b.org", String(repeating: "a", count: 64) + ".org", String(repeating: "a.", count: 127) + "ab"] {
            XCTAssertFalse(AccountDiscovery.isHostName(bad), bad)
        }
    }

    // MARK: - Recorded with the account, and cached

    func testAddRecordsWhereEachSettingCameFromAndReusesTheLookup() throws {
        try run(["init"])
        let pw = try passwordFile()
        let before = requests(for: "srv.test")
        let added = try run(["account", "add", "a1", "--email", "bob@srv.test", "--password-file", pw, "--smtp-port", "2525"])
        XCTAssertTrue(added.stdout.contains("tls imap.srv.test:993") && added.stdout.contains("SMTP tls smtp.srv.test:2525"), added.stdout)
        XCTAssertTrue(added.stderr.contains("servers found by dns-srv"), added.stderr)
        XCTAssertEqual(requests(for: "srv.test"), before + 1)
        let history = try run(["history", "--account", "a1"]).stdout
        XCTAssertTrue(history.contains("AccountAdded") && history.contains("AccountSettingsDiscovered"), history)
        XCTAssertTrue(history.contains("IMAP tls://imap.srv.test:993 from dns-srv, SMTP tls://smtp.srv.test:465 from dns-srv; by hand: smtpPort"),
                      history)
        let lines = try run(["history", "--account", "a1", "--json"]).stdout.split(separator: "\n")
        let found = try lines.compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .first { $0["type"] as? String == "AccountSettingsDiscovered" }
        let payload = try XCTUnwrap(found?["payload"] as? [String: Any])
        XCTAssertEqual(payload["imapSource"] as? String, "dns-srv")
        XCTAssertEqual(payload["domain"] as? String, "srv.test")
        XCTAssertEqual(payload["manual"] as? [String], ["smtpPort"])
        XCTAssertEqual(payload["steps"] as? [String], ["registry:nothing", "ispdb:failed", "dns-srv:found"])
        XCTAssertNil(payload["cachedFrom"])
        let log = try run(["log", "--json"]).stdout
        XCTAssertFalse(log.contains(secret) || history.contains(secret), "no secret in the log")

        // The same domain again: the cached lookup, no request; the record says so.
        let again = try run(["account", "add", "a2", "--email", "carol@srv.test", "--password-file", pw])
        XCTAssertTrue(again.stderr.contains("servers found by dns-srv (cached from"), again.stderr)
        XCTAssertTrue(again.stdout.contains("SMTP tls smtp.srv.test:465"), "the cache holds what was found, not a1's port: \(again.stdout)")
        XCTAssertEqual(requests(for: "srv.test"), before + 1, "no new lookup")
        let h2 = try run(["history", "--account", "a2"]).stdout
        XCTAssertTrue(h2.contains("from dns-srv (cached, looked up at #"), h2)
        let d = try discover("dan@srv.test")
        XCTAssertEqual(steps(d).keys.sorted(), ["cache"])
        XCTAssertNotNil(d["cachedAt"] as? String)
        XCTAssertEqual(d["source"] as? String, "dns-srv")
        XCTAssertEqual(requests(for: "srv.test"), before + 1)
        // --no-cache asks again; removing the accounts keeps the cache (it is about the domain).
        let fresh = try discover("dan@srv.test", ["--no-cache"])
        XCTAssertNil(fresh["cachedAt"])
        XCTAssertEqual(requests(for: "srv.test"), before + 2)
        try run(["account", "remove", "a1"])
        try run(["account", "remove", "a2"])
        XCTAssertNotNil(try discover("dan@srv.test")["cachedAt"])

        // A cache entry is trusted for 30 days from the lookup.
        let opened = try MailStore.open(at: store, readOnly: true)
        XCTAssertNotNil(try opened.cachedDiscovery(email: "x@srv.test", now: Date().addingTimeInterval(29 * 86_400)))
        XCTAssertNil(try opened.cachedDiscovery(email: "x@srv.test", now: Date().addingTimeInterval(31 * 86_400)))
        XCTAssertNil(try opened.cachedDiscovery(email: "x@ispdb.test"), "a domain never added is not cached")
    }

    /// Registry domains are recorded as such but never cached (the registry is local); servers given by hand
    /// record no discovery.
    func testRegistryAndManualAccountsSayWhereTheirServersCameFrom() throws {
        try run(["init"])
        let pw = try passwordFile()
        try run(["account", "add", "y", "--email", "bob@yahoo.com", "--password-file", pw])
        let y = try run(["history", "--account", "y"]).stdout
        XCTAssertTrue(y.contains("IMAP tls://imap.mail.yahoo.com:993 from registry, SMTP tls://smtp.mail.yahoo.com:465 from registry"), y)
        try run(["account", "add", "m", "--email", "bob@srv.test", "--host", "imap.example.org", "--password-file", pw])
        let m = try run(["history", "--account", "m"]).stdout
        XCTAssertTrue(m.contains("AccountAdded") && !m.contains("AccountSettingsDiscovered"), m)
        let opened = try MailStore.open(at: store, readOnly: true)
        XCTAssertNil(try opened.cachedDiscovery(email: "x@yahoo.com"))
        XCTAssertNil(try opened.cachedDiscovery(email: "x@srv.test"), "nothing was looked up")
        try run(["history", "--account", "nope"], expect: 4)
    }
}
