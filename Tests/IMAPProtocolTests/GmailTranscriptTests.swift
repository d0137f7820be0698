import XCTest
@testable import IMAPProtocol

/// A session as Gmail's IMAP server answers it.
final class GmailTranscriptTests: XCTestCase {
    static let message = trickyMessage(subject: "Your order has shipped", size: 6000)

    static var transcript: [UInt8] {
        var t = crlf("""
        * OK Gimap ready for requests from 198.51.100.7 h5mb123456vdq
        * CAPABILITY IMAP4rev1 UNSELECT IDLE NAMESPACE QUOTA ID XLIST CHILDREN X-GM-EXT-1 UIDPLUS COMPRESS=DEFLATE ENABLE MOVE CONDSTORE ESEARCH UTF8=ACCEPT LIST-EXTENDED LIST-STATUS LITERAL- SPECIAL-USE APPENDLIMIT=35651584
        a1 OK Thats all she wrote! h5mb123456vdq
        + eyJzdGF0dXMiOiI0MDAiLCJzY2hlbWVzIjoiQmVhcmVyIiwic2NvcGUiOiJodHRwczovL21haWwuZ29vZ2xlLmNvbS8ifQ==
        a2 NO [AUTHENTICATIONFAILED] Invalid credentials (Failure)
        a3 OK user@gmail.com authenticated (Success)
        * ID ("name" "GImap" "vendor" "Google, Inc." "support-url" NIL)
        a4 OK Success
        * LIST (\\HasNoChildren) "/" "INBOX"
        * LIST (\\HasChildren \\Noselect) "/" "[Gmail]"
        * LIST (\\All \\HasNoChildren) "/" "[Gmail]/All Mail"
        * LIST (\\HasNoChildren \\Important) "/" "[Gmail]/Important"
        * LIST (\\HasNoChildren \\Sent) "/" "[Gmail]/Sent Mail"
        * LIST (\\HasNoChildren \\Junk) "/" "[Gmail]/Spam"
        * LIST (\\Flagged \\HasNoChildren) "/" "[Gmail]/Starred"
        * LIST (\\HasNoChildren \\Trash) "/" "[Gmail]/Trash"
        * LIST (\\Drafts \\HasNoChildren) "/" "[Gmail]/Drafts"
        * LIST (\\HasNoChildren) "/" "&ZeVnLIqe-"
        * LIST (\\HasNoChildren) "/" "Receipts \\"2024\\""
        a5 OK Success
        * FLAGS (\\Answered \\Flagged \\Draft \\Deleted \\Seen $NotPhishing $Phishing)
        * OK [PERMANENTFLAGS ()] Flags permitted.
        * OK [UIDVALIDITY 11] UIDs valid.
        * 1234 EXISTS
        * 0 RECENT
        * OK [UIDNEXT 98765] Predicted next UID.
        * OK [HIGHESTMODSEQ 9876543]
        a6 OK [READ-ONLY] [Gmail]/All Mail selected. (Success)
        * 1230 FETCH (X-GM-THRID 1798123456789012345 X-GM-MSGID 1798123456789012399 X-GM-LABELS ("\\\\Important" "\\\\Inbox" "Work/Project X" &ZeVnLIqe-) UID 98760 MODSEQ (9876500) FLAGS (\\Seen))
        * 1231 FETCH (X-GM-THRID 1798123456789012345 X-GM-MSGID 1798123456789012400 X-GM-LABELS () UID 98761 MODSEQ (9876501) FLAGS ())

        """)
        t += raw("* 1232 FETCH (X-GM-MSGID 1798123456789012401 UID 98762 RFC822.SIZE \(message.count) BODY[] ")
        t += literal(message)
        t += raw(" X-GM-LABELS (\\Inbox))\r\n")
        t += crlf("""
        a7 OK Success
        * SEARCH 98760 98761
        a8 OK SEARCH completed (Success)
        * OK [COPYUID 11 98760 5] (Success)
        * 1230 EXPUNGE
        a9 OK Success
        + go ahead
        a10 OK [APPENDUID 11 98766] (Success)
        + idling
        * 1235 EXISTS
        a11 OK IDLE terminated (Success)
        * BYE LOGOUT Requested
        a12 OK 73 good day (Success)

        """)
        return t
    }

    func testWholeSessionParsesTheSameAtEveryChunking() throws {
        XCTAssertEqual(try parseEveryWay(Self.transcript).count, 44)
    }

    func testGreetingAuthAndID() throws {
        let r = try session()
        XCTAssertEqual(r[0], .untagged(.condition(.ok, code: nil, text: "Gimap ready for requests from 198.51.100.7 h5mb123456vdq")))
        guard case .untagged(.capability(let caps)) = r[1] else { return XCTFail("\(r[1])") }
        XCTAssertTrue(caps.contains("X-GM-EXT-1"))
        XCTAssertTrue(caps.contains("LITERAL-"))
        XCTAssertEqual(caps.last, "APPENDLIMIT=35651584")
        XCTAssertEqual(r[3], .continuation("eyJzdGF0dXMiOiI0MDAiLCJzY2hlbWVzIjoiQmVhcmVyIiwic2NvcGUiOiJodHRwczovL21haWwuZ29vZ2xlLmNvbS8ifQ=="))
        XCTAssertEqual(r[4], .tagged(tag: "a2", status: .no, code: .other(name: "AUTHENTICATIONFAILED", raw: nil), text: "Invalid credentials (Failure)"))
        XCTAssertEqual(r[6], .untagged(.id(["name": "GImap", "vendor": "Google, Inc.", "support-url": String?.none])))
    }

    func testLabelsAsMailboxes() throws {
        let r = try session()
        let items: [ListItem] = r.compactMap {
            if case .untagged(.list(let item)) = $0 { return item }
            return nil
        }
        XCTAssertEqual(items.map(\.mailbox.name), [
            "INBOX", "[Gmail]", "[Gmail]/All Mail", "[Gmail]/Important", "[Gmail]/Sent Mail", "[Gmail]/Spam",
            "[Gmail]/Starred", "[Gmail]/Trash", "[Gmail]/Drafts", "日本語", "Receipts \"2024\"",
        ])
        XCTAssertEqual(items.map(\.specialUse), [nil, nil, .all, .important, .sent, .junk, .flagged, .trash, .drafts, nil, nil])
        XCTAssertTrue(items.allSatisfy { $0.delimiter == "/" })
        XCTAssertFalse(items[1].isSelectable)
    }

    func testExamineAndGmailAttributes() throws {
        let r = try session()
        XCTAssertEqual(r[21], .untagged(.condition(.ok, code: .permanentFlags([]), text: "Flags permitted.")))
        XCTAssertEqual(r[26], .untagged(.condition(.ok, code: .highestModSeq(9_876_543), text: "")))
        XCTAssertEqual(r[27], .tagged(tag: "a6", status: .ok, code: .readOnly, text: "[Gmail]/All Mail selected. (Success)"))
        XCTAssertEqual(r[28], .untagged(.fetch(seq: 1230, attributes: [
            .gmailThreadID(1_798_123_456_789_012_345), .gmailMessageID(1_798_123_456_789_012_399),
            .gmailLabels(["\\Important", "\\Inbox", "Work/Project X", "日本語"]),
            .uid(98760), .modSeq(9_876_500), .flags(["\\Seen"]),
        ])))
        XCTAssertEqual(r[29], .untagged(.fetch(seq: 1231, attributes: [
            .gmailThreadID(1_798_123_456_789_012_345), .gmailMessageID(1_798_123_456_789_012_400),
            .gmailLabels([]), .uid(98761), .modSeq(9_876_501), .flags([]),
        ])))
        let (seq, attributes) = fetchAttributes(r[30])
        XCTAssertEqual(seq, 1232)
        XCTAssertEqual(attributes.gmailMessageID, 1_798_123_456_789_012_401)
        XCTAssertEqual(attributes.bodyData(), Self.message)
        XCTAssertEqual(attributes.last, .gmailLabels(["\\Inbox"]))
    }

    func testSearchMoveAppendIdleLogout() throws {
        let r = try session()
        XCTAssertEqual(r[32], .untagged(.search([98760, 98761], modSeq: nil)))
        XCTAssertEqual(r[34], .untagged(.condition(.ok, code: .copyUID(uidValidity: 11, source: UIDSet(98760), destination: UIDSet(5)), text: "(Success)")))
        XCTAssertEqual(r[35], .untagged(.expunge(1230)))
        XCTAssertEqual(r[37], .continuation("go ahead"))
        XCTAssertEqual(r[38], .tagged(tag: "a10", status: .ok, code: .appendUID(uidValidity: 11, uids: UIDSet(98766)), text: "(Success)"))
        XCTAssertEqual(r[39], .continuation("idling"))
        XCTAssertEqual(r[40], .untagged(.exists(1235)))
        XCTAssertEqual(r[42], .untagged(.condition(.bye, code: nil, text: "LOGOUT Requested")))
        XCTAssertEqual(r[43], .tagged(tag: "a12", status: .ok, code: nil, text: "73 good day (Success)"))
    }

    /// The session's responses; fails (instead of trapping on an index) when the count is off.
    private func session() throws -> [IMAPResponse] {
        let r = try parseAll(Self.transcript)
        guard r.count == 44 else {
            XCTFail("expected 44 responses, got \(r.count)")
            throw IMAPParseError.malformed("unexpected response count", at: 0)
        }
        return r
    }
}
