import XCTest
@testable import IMAPProtocol

/// Echoed `BODY[HEADER.FIELDS (...)]` sections in every form RFC 3501's grammar allows
/// (`header-fld-name = astring`: atom, quoted string or literal, any case), with the real answers of
/// Courier-IMAP 5.0, Cyrus IMAP 3.6 and Dovecot 2.3 to the sync engine's Message-ID fetch
/// (`UID FETCH 1:* (UID FLAGS RFC822.SIZE BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])`), taken from the
/// servers Tools/test-server starts.
final class EchoedSectionTests: XCTestCase {
    private static let header = crlf("Message-ID: <x1@example.com>\n\n")

    /// The FETCH items of the one untagged FETCH in `bytes`.
    private func fetched(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws -> [FetchAttribute] {
        let responses = try parseEveryWay(bytes, file: file, line: line)
        for case .untagged(.fetch(_, let attributes)) in responses { return attributes }
        XCTFail("no FETCH in \(responses)", file: file, line: line)
        return []
    }

    private func assertMessageIDFound(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws {
        let attributes = try fetched(bytes, file: file, line: line)
        XCTAssertEqual(attributes.bodyData(section: "HEADER.FIELDS (MESSAGE-ID)"), Self.header, file: file, line: line)
        XCTAssertEqual(attributes.bodyData(section: "header.fields (message-id)"), Self.header, "any case", file: file, line: line)
        XCTAssertEqual(attributes.bodyData(section: "HEADER.FIELDS (\"MESSAGE-ID\")"), Self.header, "asked in quoted form",
                       file: file, line: line)
    }

    func testCourierQuotesTheFieldName() throws {
        // Courier-IMAP 5.0.13 (Debian 12), as Tools/test-server/courier runs it.
        let bytes = raw("* 1 FETCH (UID 1 FLAGS () RFC822.SIZE 69 BODY[HEADER.FIELDS (\"MESSAGE-ID\")] {32}\r\n")
            + Self.header + raw(")\r\n")
        try assertMessageIDFound(bytes)
        let attributes = try fetched(bytes)
        XCTAssertTrue(attributes.contains { if case .body("HEADER.FIELDS (MESSAGE-ID)", nil, _) = $0 { true } else { false } },
                      "the parser gives the canonical spelling: \(attributes)")
    }

    func testCourierKeepsTheCaseOfSeveralQuotedNames() throws {
        // Courier echoes names as they were asked, each quoted.
        let header = crlf("Subject: t\nMessage-ID: <x1@example.com>\n\n")
        let bytes = raw("* 1 FETCH (UID 1 BODY[HEADER.FIELDS (\"Message-ID\" \"Subject\")] {44}\r\n") + header + raw(")\r\n")
        let attributes = try fetched(bytes)
        XCTAssertEqual(attributes.bodyData(section: "HEADER.FIELDS (MESSAGE-ID SUBJECT)"), header)
        XCTAssertEqual(attributes.bodyData(section: "HEADER.FIELDS (Message-ID Subject)"), header)
        XCTAssertNil(attributes.bodyData(section: "HEADER.FIELDS (SUBJECT MESSAGE-ID)"), "the order of the names is kept")
    }

    func testCyrusEchoesAtoms() throws {
        // Cyrus IMAP 3.6.1 (Debian 12), as Tools/test-server/cyrus runs it: FLAGS first, atoms as asked.
        let bytes = raw("* 1 FETCH (FLAGS (\\Recent) UID 1 RFC822.SIZE 69 BODY[HEADER.FIELDS (MESSAGE-ID)] {32}\r\n")
            + Self.header + raw(")\r\n")
        try assertMessageIDFound(bytes)
    }

    func testDovecotEchoesAtoms() throws {
        // Dovecot 2.3.19 (Debian 12), as Tools/test-server/dovecot runs it.
        let bytes = raw("* 1 FETCH (UID 1 FLAGS (\\Seen) RFC822.SIZE 69 BODY[HEADER.FIELDS (MESSAGE-ID)] {32}\r\n")
            + Self.header + raw(")\r\n")
        try assertMessageIDFound(bytes)
    }

    func testALiteralFieldNameAndLowerCaseKeywords() throws {
        // Grammar allows a literal for a field name and any case for the keywords.
        let bytes = raw("* 1 FETCH (UID 1 BODY[header.fields ({10}\r\nmessage-id)] {32}\r\n") + Self.header + raw(")\r\n")
        try assertMessageIDFound(bytes)
    }

    func testANameThatIsNotAnAtomStaysQuoted() throws {
        let bytes = raw("* 1 FETCH (UID 1 BODY[HEADER.FIELDS (\"X Odd\" \"\")] {0}\r\n)\r\n")
        let attributes = try fetched(bytes)
        XCTAssertTrue(attributes.contains { if case .body("HEADER.FIELDS (\"X Odd\" \"\")", nil, _) = $0 { true } else { false } },
                      "\(attributes)")
        XCTAssertEqual(attributes.bodyData(section: "HEADER.FIELDS (\"X Odd\" \"\")"), [])
    }

    func testCanonicalTextOfAWantedSection() {
        XCTAssertEqual(BodySection.canonicalText("HEADER.FIELDS (\"MESSAGE-ID\" DATE)"), "HEADER.FIELDS (MESSAGE-ID DATE)")
        XCTAssertEqual(BodySection.canonicalText("HEADER.FIELDS (MESSAGE-ID)"), "HEADER.FIELDS (MESSAGE-ID)")
        XCTAssertEqual(BodySection.canonicalText("HEADER.FIELDS (\"unterminated"), "HEADER.FIELDS (\"unterminated", "left alone")
        XCTAssertEqual(BodySection.canonicalText(""), "")
    }
}
