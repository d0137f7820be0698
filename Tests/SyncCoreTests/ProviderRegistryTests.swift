import SyncCore
import XCTest

final class ProviderRegistryTests: XCTestCase {
    func testKnownDomainsAndHosts() {
        XCTAssertEqual(ProviderRegistry.provider(forEmail: "a@gmail.com").id, "gmail")
        XCTAssertEqual(ProviderRegistry.provider(forEmail: "a@Outlook.com").id, "outlook")
        XCTAssertEqual(ProviderRegistry.provider(forEmail: "a@yahoo.com").id, "yahoo")
        XCTAssertEqual(ProviderRegistry.provider(forEmail: "a@me.com").id, "icloud")
        XCTAssertEqual(ProviderRegistry.provider(forEmail: "a@example.org").id, "custom")
        XCTAssertEqual(ProviderRegistry.provider(forHost: "imap.gmail.com")?.id, "gmail")
        XCTAssertEqual(ProviderRegistry.provider(forHost: "outlook.office365.com")?.id, "outlook")
        XCTAssertNil(ProviderRegistry.provider(forHost: "127.0.0.1"))
        XCTAssertNil(ProviderRegistry.provider(forHost: "notgmail.com"))
    }

    func testSpecNumbers() {
        XCTAssertEqual(ProviderRegistry.gmail.idleRefreshSeconds, 25 * 60)
        XCTAssertEqual(ProviderRegistry.outlook.idleRefreshSeconds, 25 * 60)
        XCTAssertEqual(ProviderRegistry.yahoo.idleRefreshSeconds, 4 * 60)
        XCTAssertEqual(ProviderRegistry.custom.idleRefreshSeconds, 20 * 60)
        XCTAssertEqual(ProviderRegistry.custom.maxConnections, 5)
        XCTAssertFalse(ProviderRegistry.gmail.requiresSentAppend)
        XCTAssertTrue(ProviderRegistry.yahoo.requiresSentAppend)
        XCTAssertEqual(ProviderRegistry.gmail.auth, "xoauth2")
        XCTAssertEqual(ProviderRegistry.icloud.auth, "plain")
    }

    /// AC-MP-01: every field for every built-in provider.
    func testEveryFieldOfTheBuiltInProviders() {
        typealias S = Provider.Server
        let expected: [(String, S, S, String, Bool)] = [
            ("gmail.com", S(host: "imap.gmail.com", port: 993, security: .tls), S(host: "smtp.gmail.com", port: 465, security: .tls), "xoauth2", false),
            ("googlemail.com", S(host: "imap.gmail.com", port: 993, security: .tls), S(host: "smtp.gmail.com", port: 465, security: .tls), "xoauth2", false),
            ("outlook.com", S(host: "outlook.office365.com", port: 993, security: .tls), S(host: "smtp.office365.com", port: 587, security: .starttls), "xoauth2", false),
            ("hotmail.com", S(host: "outlook.office365.com", port: 993, security: .tls), S(host: "smtp.office365.com", port: 587, security: .starttls), "xoauth2", false),
            ("live.com", S(host: "outlook.office365.com", port: 993, security: .tls), S(host: "smtp.office365.com", port: 587, security: .starttls), "xoauth2", false),
            ("yahoo.com", S(host: "imap.mail.yahoo.com", port: 993, security: .tls), S(host: "smtp.mail.yahoo.com", port: 465, security: .tls), "plain", true),
            ("icloud.com", S(host: "imap.mail.me.com", port: 993, security: .tls), S(host: "smtp.mail.me.com", port: 587, security: .starttls), "plain", true),
            ("me.com", S(host: "imap.mail.me.com", port: 993, security: .tls), S(host: "smtp.mail.me.com", port: 587, security: .starttls), "plain", true),
        ]
        for (domain, imap, smtp, auth, append) in expected {
            let p = ProviderRegistry.provider(forEmail: "bob@" + domain)
            XCTAssertEqual(p.imap, imap, domain)
            XCTAssertEqual(p.smtp, smtp, domain)
            XCTAssertEqual(p.auth, auth, domain)
            XCTAssertEqual(p.requiresSentAppend, append, domain)
            XCTAssertEqual(p.maxConnections, 5, domain)
            XCTAssertEqual(p.oauthConfig != nil, auth == "xoauth2", domain)
        }
        XCTAssertEqual(ProviderRegistry.gmail.mappedRole("[Gmail]/Sent Mail"), .sent)
        XCTAssertTrue(ProviderRegistry.gmail.excludes("[Gmail]/All Mail", delimiter: "/"))
        XCTAssertEqual(ProviderRegistry.outlook.mappedRole("Sent Items"), .sent)
        XCTAssertEqual(ProviderRegistry.yahoo.mappedRole("Bulk Mail"), .junk)
        XCTAssertEqual(ProviderRegistry.icloud.mappedRole("Sent Messages"), .sent)
        XCTAssertTrue(ProviderRegistry.icloud.excludes("Notes", delimiter: "/"))
        XCTAssertEqual(ProviderRegistry.icloud.idleRefreshSeconds, 20 * 60)
        XCTAssertNil(ProviderRegistry.custom.imap)
        XCTAssertNil(ProviderRegistry.custom.oauthConfig)
    }

    /// AC-MP-05, AC-MP-07: the OAuth settings as data.
    func testOAuthConfigs() throws {
        let g = try XCTUnwrap(ProviderRegistry.gmail.oauthConfig)
        XCTAssertEqual(g.scopes, ["https://mail.google.com/"])
        XCTAssertEqual(g.emailResolution, .userProvided)
        XCTAssertTrue(g.authorizationEndpoint.hasPrefix("https://accounts.google.com/"))
        let o = try XCTUnwrap(ProviderRegistry.outlook.oauthConfig)
        XCTAssertEqual(o.scopes, ["https://outlook.office365.com/IMAP.AccessAsUser.All", "https://outlook.office365.com/SMTP.Send",
                                  "offline_access", "openid", "email", "profile"])
        XCTAssertEqual(o.emailResolution, .idTokenClaims)
        XCTAssertTrue(o.authorizationEndpoint.contains("/common/") && o.tokenEndpoint.contains("/common/"))
        XCTAssertFalse(o.clientID.isEmpty)
        XCTAssertNil(ProviderRegistry.yahoo.oauthConfig)
        XCTAssertNil(ProviderRegistry.icloud.oauthConfig)
    }

    /// E-22: ProtonMail is recognised and refused with what to do.
    func testProtonMailIsUnsupported() {
        XCTAssertEqual(ProviderRegistry.unsupported(forEmail: "a@ProtonMail.com")?.id, "protonmail")
        XCTAssertTrue(ProviderRegistry.unsupported(forEmail: "a@proton.me")?.reason.contains("ProtonMail requires their Bridge app") ?? false)
        XCTAssertNil(ProviderRegistry.unsupported(forEmail: "a@gmail.com"))
    }
}
