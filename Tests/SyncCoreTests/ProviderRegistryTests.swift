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
}
