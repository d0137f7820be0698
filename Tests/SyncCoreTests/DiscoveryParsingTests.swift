import SyncCore
import XCTest

/// The pure parts of account discovery: DNS SRV/MX answers and autoconfig documents, hostile ones included.
final class DiscoveryParsingTests: XCTestCase {
    /// A response to `query` with the given answer records (type, rdata), names compressed to the question.
    private func response(to query: [UInt8], _ records: [(UInt16, [UInt8])], rcode: UInt8 = 0) -> [UInt8] {
        var r = query
        r[2] = 0x81
        r[3] = 0x80 | rcode
        r[7] = UInt8(records.count)
        for (type, rdata) in records {
            r += [0xc0, 12, UInt8(type >> 8), UInt8(type & 0xff), 0, 1, 0, 0, 0, 60, UInt8(rdata.count >> 8), UInt8(rdata.count & 0xff)]
            r += rdata
        }
        return r
    }

    private func name(_ s: String) -> [UInt8] {
        s.split(separator: ".").flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) } + [0]
    }

    func testSRVAndMXAnswers() throws {
        let q = try XCTUnwrap(DNSMessage.query(id: 0x1234, name: "_imaps._tcp.example.org", type: .srv))
        XCTAssertEqual(Array(q[0..<2]), [0x12, 0x34])
        let srv = response(to: q, [(33, [0, 20, 0, 5, 0x03, 0xe1] + name("b.example.org")),
                                   (33, [0, 10, 0, 5, 0x03, 0xe1] + name("A.Example.org"))])
        XCTAssertEqual(try DNSMessage.srv(srv, id: 0x1234).map(\.target), ["a.example.org", "b.example.org"])
        XCTAssertEqual(try DNSMessage.srv(srv, id: 0x1234).first?.port, 993)
        let mq = try XCTUnwrap(DNSMessage.query(id: 7, name: "example.org", type: .mx))
        let mx = response(to: mq, [(15, [0, 10] + name("aspmx.l.google.com"))])
        XCTAssertEqual(try DNSMessage.mx(mx, id: 7).map(\.exchange), ["aspmx.l.google.com"])
        XCTAssertEqual(try DNSMessage.mx(mx, id: 7).map(\.preference), [10])
        XCTAssertEqual(try DNSMessage.mx(response(to: mq, [], rcode: 3), id: 7), [], "NXDOMAIN is no answer")
    }

    func testHostileResponsesAreRefused() throws {
        let q = try XCTUnwrap(DNSMessage.query(id: 9, name: "example.org", type: .mx))
        XCTAssertThrowsError(try DNSMessage.mx(response(to: q, []), id: 10), "another query's id")
        XCTAssertThrowsError(try DNSMessage.mx(Array(q.prefix(5)), id: 9), "cut short")
        // A compression pointer to itself must not loop.
        var loop = response(to: q, [(15, [0, 10, 0xc0, 0])])
        let at = loop.count - 2
        loop[at + 1] = UInt8(at)
        XCTAssertThrowsError(try DNSMessage.mx(loop, id: 9))
        XCTAssertThrowsError(try DNSMessage.mx(response(to: q, [(15, [0, 10, 40, 1])]), id: 9), "a label past the end")
        XCTAssertNil(DNSMessage.query(id: 1, name: String(repeating: "a", count: 64) + ".org", type: .mx))
    }

    func testAutoconfigDocuments() throws {
        let valid = """
        <?xml version="1.0"?><clientConfig version="1.1"><emailProvider id="x">
        <incomingServer type="pop3"><hostname>pop.x.org</hostname><port>995</port><socketType>SSL</socketType></incomingServer>
        <incomingServer type="imap"><hostname>imap.x.org</hostname><port>143</port><socketType>STARTTLS</socketType></incomingServer>
        <outgoingServer type="smtp"><hostname>smtp.x.org</hostname><port>465</port><socketType>SSL</socketType></outgoingServer>
        </emailProvider></clientConfig>
        """
        let found = try XCTUnwrap(AutoconfigParser.parse(Array(valid.utf8)))
        XCTAssertEqual(found.imap, Provider.Server(host: "imap.x.org", port: 143, security: .starttls))
        XCTAssertEqual(found.smtp, Provider.Server(host: "smtp.x.org", port: 465, security: .tls))
        XCTAssertNil(AutoconfigParser.parse(Array("<clientConfig><incomingServer".utf8)), "invalid XML")
        XCTAssertNil(AutoconfigParser.parse(Array("<html>not found</html>".utf8)))
        let plain = valid.replacingOccurrences(of: "STARTTLS", with: "plain").replacingOccurrences(of: "SSL", with: "plain")
        XCTAssertNil(AutoconfigParser.parse(Array(plain.utf8)), "plaintext servers are never used")
    }

    /// Documents Foundation's XMLParser trapped or crashed on (found by fuzz-discovery): a name that is not UTF-8, a
    /// processing instruction with no data. Read with libxml2's tree they parse or are refused; entities are not
    /// expanded (an entity's text is not a host name), and a document declared in Latin-1 still reads.
    func testHostileAutoconfigDocumentsAreReadOrRefusedNeverCrashedOn() throws {
        let server = "<incomingServer type=\"imap\"><hostname>imap.x.org</hostname><port>993</port><socketType>SSL</socketType></incomingServer>"
        let broken = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?><clientConfig>\(server)<usern".utf8)
            + [0xFF, 0xFF] + Array("ame>x</usern".utf8) + [0xFF, 0xFF] + Array("ame></clientConfig>".utf8)
        XCTAssertNil(AutoconfigParser.parse(broken), "not UTF-8: not well-formed")
        let instruction = "<?xml version=\"1.0\"?><?x?><clientConfig><?y?>\(server)</clientConfig>"
        XCTAssertEqual(AutoconfigParser.parse(Array(instruction.utf8))?.imap?.host, "imap.x.org")
        let latin1 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><clientConfig><displayName>Soci".utf8) + [0xE9]
            + Array("t\(server.dropFirst(0))</displayName>\(server)</clientConfig>".utf8)
        XCTAssertEqual(AutoconfigParser.parse(latin1)?.imap?.host, "imap.x.org")
        let entities = """
        <?xml version="1.0"?><!DOCTYPE clientConfig [<!ENTITY a "imap.x.org"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">
        <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY x SYSTEM "file:///etc/passwd">]><clientConfig>
        <incomingServer type="imap"><hostname>&c;</hostname><port>993</port><socketType>SSL</socketType></incomingServer>
        <outgoingServer type="smtp"><hostname>&x;</hostname><port>465</port><socketType>SSL</socketType></outgoingServer>
        </clientConfig>
        """
        XCTAssertNil(AutoconfigParser.parse(Array(entities.utf8)), "no entity is expanded into a host name")
        XCTAssertNil(AutoconfigParser.parse([0xFF, 0xFE, 0x3C, 0x00]), "a UTF-16 fragment")
        XCTAssertNil(AutoconfigParser.parse([]))
    }

    /// The bounds: a field keeps at most `maxFieldBytes` of its text, and a document over `maxDocumentBytes` is not read.
    func testAutoconfigBounds() throws {
        func doc(host: String, padding: Int = 0) -> [UInt8] {
            Array("<clientConfig><!--\(String(repeating: "p", count: padding))--><incomingServer type=\"imap\"><hostname>\(host)</hostname>".utf8)
                + Array("<port>993</port><socketType>SSL</socketType></incomingServer></clientConfig>".utf8)
        }
        let long = String(repeating: "a", count: 5_000)
        XCTAssertEqual(AutoconfigParser.parse(doc(host: long))?.imap?.host.utf8.count, AutoconfigParser.maxFieldBytes)
        XCTAssertNotNil(AutoconfigParser.parse(doc(host: "imap.x.org", padding: AutoconfigParser.maxDocumentBytes - 300)))
        XCTAssertNil(AutoconfigParser.parse(doc(host: "imap.x.org", padding: AutoconfigParser.maxDocumentBytes)))
    }
}
