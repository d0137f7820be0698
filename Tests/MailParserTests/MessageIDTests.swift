import XCTest
@testable import MailParser

final class MessageIDTests: XCTestCase {
    func testMessageID() {
        XCTAssertEqual(MessageIDs.parseID("<abc@example.com>"), "abc@example.com")
        XCTAssertEqual(MessageIDs.parseID("  < abc@ex ample.com >  "), "abc@example.com")
        XCTAssertEqual(MessageIDs.parseID("abc@example.com"), "abc@example.com")
        XCTAssertEqual(MessageIDs.parseID("(comment) <x@y>"), "x@y")
        XCTAssertEqual(MessageIDs.parseID("garbage text"), "garbage")
        XCTAssertNil(MessageIDs.parseID("   "))
        XCTAssertNil(MessageIDs.parseID("<>"))
    }

    func testInReplyToWithGarbage() {
        XCTAssertEqual(MessageIDs.parseList("Your message of Mon, 1 Jan 2024 <a@b.c> and <d@e.f>"), ["a@b.c", "d@e.f"])
        XCTAssertEqual(MessageIDs.parseList("a@b.c"), [], "bare ids are not msg-ids (notmuch ignores them too)")
        XCTAssertTrue(MessageIDs.hasOnlyBareIDs("a@b.c"))
        XCTAssertFalse(MessageIDs.hasOnlyBareIDs("<a@b.c>"))
        XCTAssertEqual(MessageIDs.parseList("no ids here"), [])
    }

    func testReferencesOrderedAndDeduplicated() {
        let refs = MessageIDs.parseList("<1@x>\r\n <2@x> <1@x>,<3@x>\t<2@x>")
        XCTAssertEqual(refs, ["1@x", "2@x", "3@x"])
    }

    func testMessageFields() {
        let m = parse("""
        Message-ID: <root@example.com>
        In-Reply-To: Message from Bob <parent@example.com>
        References: <grand@example.com>
         <parent@example.com> <grand@example.com>
        X-GM-THRID: 1234567890123456789
        List-Id: Example discussion <discuss.example.com>

        x
        """)
        XCTAssertEqual(m.messageID, "root@example.com")
        XCTAssertEqual(m.inReplyTo, ["parent@example.com"])
        XCTAssertEqual(m.references, ["grand@example.com", "parent@example.com"])
        XCTAssertNil(m.gmailThreadID, "a sender's X-GM-THRID is not Gmail's")
        XCTAssertEqual(m.listID, "discuss.example.com")
        XCTAssertFalse(hasWarning(m, .malformedMessageID))
    }

    func testUnbracketedMessageIDWarns() {
        let m = parse("Message-ID: CY4PR10MB1528@outlook.com\nX-GM-THRID: nope\nList-Id: plain-list\n\nx")
        XCTAssertEqual(m.messageID, "CY4PR10MB1528@outlook.com")
        XCTAssertTrue(hasWarning(m, .malformedMessageID))
        XCTAssertNil(m.gmailThreadID)
        XCTAssertEqual(m.listID, "plain-list")
    }

    /// Gmail's thread id is read from a message's header only where a Takeout export writes it: at the top, beside
    /// X-Gmail-Labels. Anywhere else any sender could have written it.
    func testOnlyATakeoutExportsGmailThreadIDIsRead() {
        let takeout = parse("X-GM-THRID: 1798123456789012345\nX-Gmail-Labels: Inbox,Important\nMessage-ID: <a@x>\n\nx")
        XCTAssertEqual(takeout.gmailThreadID, 1_798_123_456_789_012_345)
        let labelsFirst = parse("X-Gmail-Labels: Inbox\nX-GM-THRID: 42\nMessage-ID: <a@x>\n\nx")
        XCTAssertEqual(labelsFirst.gmailThreadID, 42)
        let alone = parse("X-GM-THRID: 42\nMessage-ID: <a@x>\n\nx")
        XCTAssertNil(alone.gmailThreadID, "without Gmail's labels beside it")
        let below = parse("Received: from a by b\nX-Gmail-Labels: Inbox\nX-GM-THRID: 42\nMessage-ID: <a@x>\n\nx")
        XCTAssertNil(below.gmailThreadID, "below a header a server added: the sender's")
    }
}
