import SyncCore
import XCTest

/// What an autoconfig document says about logging in (`<username>`, `<authentication>`), plaintext-only servers,
/// and the TC bit of a DNS answer.
final class AutoconfigLoginTests: XCTestCase {
    private func document(_ servers: String) -> [UInt8] {
        Array("<?xml version=\"1.0\"?><clientConfig version=\"1.1\"><emailProvider id=\"x\">\(servers)</emailProvider></clientConfig>".utf8)
    }

    func testUsernameAndAuthenticationAreRead() throws {
        let doc = try XCTUnwrap(AutoconfigParser.read(document("""
        <incomingServer type="imap"><hostname>imap.x.org</hostname><port>993</port><socketType>SSL</socketType>
          <authentication>OAuth2</authentication><authentication> password-cleartext </authentication>
          <username>%EMAILLOCALPART%</username><username>second</username></incomingServer>
        <outgoingServer type="smtp"><hostname>smtp.x.org</hostname><port>587</port><socketType>STARTTLS</socketType>
          <username></username></outgoingServer>
        """)))
        XCTAssertEqual(doc.imap?.server, Provider.Server(host: "imap.x.org", port: 993, security: .tls))
        XCTAssertEqual(doc.imap?.username, "%EMAILLOCALPART%", "the first, unexpanded")
        XCTAssertEqual(doc.imap?.authentication, ["OAuth2", "password-cleartext"])
        XCTAssertNil(doc.smtp?.username, "an empty username is none")
        XCTAssertEqual(doc.smtp?.authentication, [])
        XCTAssertFalse(doc.plaintextSeen)
    }

    func testAuthenticationValuesAreBounded() throws {
        let many = String(repeating: "<authentication>x</authentication>", count: 100)
        let doc = try XCTUnwrap(AutoconfigParser.read(document(
            "<incomingServer type=\"imap\"><hostname>h.x</hostname><port>1</port><socketType>SSL</socketType>\(many)</incomingServer>")))
        XCTAssertEqual(doc.imap?.authentication.count, AutoconfigParser.maxAuthenticationValues)
    }

    func testPlaintextOnlyServersAreSeenButNotTaken() throws {
        let plain = try XCTUnwrap(AutoconfigParser.read(document("""
        <incomingServer type="imap"><hostname>imap.x.org</hostname><port>143</port><socketType>plain</socketType></incomingServer>
        <outgoingServer type="smtp"><hostname>smtp.x.org</hostname><port>25</port><socketType>plain</socketType></outgoingServer>
        """)))
        XCTAssertNil(plain.imap)
        XCTAssertNil(plain.smtp)
        XCTAssertTrue(plain.plaintextSeen)
        XCTAssertNil(AutoconfigParser.parse(document("""
        <incomingServer type="imap"><hostname>imap.x.org</hostname><port>143</port><socketType>plain</socketType></incomingServer>
        """)), "parse still finds no server")
        let unknown = try XCTUnwrap(AutoconfigParser.read(document(
            "<incomingServer type=\"imap\"><hostname>imap.x.org</hostname><port>143</port><socketType>weird</socketType></incomingServer>")))
        XCTAssertFalse(unknown.plaintextSeen, "only `plain` is plaintext")
    }

    func testTheTruncatedBitOfADNSAnswer() throws {
        var answer = try XCTUnwrap(DNSMessage.query(id: 1, name: "x.org", type: .srv))
        answer[2] = 0x81
        XCTAssertFalse(DNSMessage.isTruncated(answer))
        answer[2] |= 0x02
        XCTAssertTrue(DNSMessage.isTruncated(answer))
        XCTAssertFalse(DNSMessage.isTruncated([0, 1]))
    }
}
