import Foundation
@testable import MailStore
import TestSupport
import XCTest

/// A lookup cached in the log by an older mailstore, which took an SRV target outside the domain on DNS's word
/// (RFC 6186 section 6): reused for another address of the domain, that server is held back as unconfirmed, and
/// adding the address stops with the options that confirm it, rather than sending its password there.
final class DiscoveryCacheTrustTests: XCTestCase {
    private var dir: TemporaryDirectory!

    override func setUpWithError() throws {
        dir = TemporaryDirectory("discovery-trust")
    }

    func testACachedSRVTargetOutsideTheDomainIsHeldBack() throws {
        let store = try MailStore.create(at: dir.file("store"))
        // What an older build recorded for a spoofed answer: IMAP and SMTP from dns-srv, on the attacker's host.
        var poisoned = AccountDiscovery.Result(email: "alice@victim.test", domain: "victim.test", steps: [], seconds: 0)
        (poisoned.imapHost, poisoned.imapPort, poisoned.imapSecurity, poisoned.source) = ("imap.attacker.test", 993, "tls", "dns-srv")
        (poisoned.smtpHost, poisoned.smtpPort, poisoned.smtpSecurity, poisoned.smtpSource) = ("smtp.victim.test", 587, "starttls", "dns-srv")
        poisoned.steps = [AccountDiscovery.Step(step: "dns-srv", status: "found", seconds: 0)]
        var old = AccountSettings(name: "a", email: "alice@victim.test", host: nil, security: nil, credential: .environment("PATH"))
        old.discovery = poisoned
        _ = try store.addAccount(old)

        let cached = try XCTUnwrap(try store.cachedDiscovery(email: "bob@victim.test"))
        XCTAssertNil(cached.imapHost, "the server outside the domain is not taken from the cache")
        XCTAssertEqual(cached.unconfirmedServer("imap")?.host, "imap.attacker.test")
        XCTAssertEqual(cached.smtpHost, "smtp.victim.test", "a target under the domain is still used")
        var bob = AccountSettings(name: "b", email: "bob@victim.test", host: nil, security: nil, credential: .environment("PATH"))
        bob.discovery = try store.discoverServers(email: "bob@victim.test")
        XCTAssertThrowsError(try store.addAccount(bob)) { error in
            XCTAssertTrue("\(error)".contains("give it by hand: --host imap.attacker.test --port 993 --security tls"), "\(error)")
        }
        XCTAssertEqual(try store.accounts().map(\.name), ["a"])
    }
}
