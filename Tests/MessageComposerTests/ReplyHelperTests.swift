import Foundation
import MailParser
import MessageComposer
import XCTest

/// Subjects, threading, quoting and forwarding of replies and forwards; address fields; dates.
final class ReplyHelperTests: ComposerTestCase {
    func testReplySubjectsAreNeverDoubled() {
        let cases = [
            ("Plan", "Re: Plan"), ("Re: Plan", "Re: Plan"), ("RE: Plan", "Re: Plan"), ("Aw: Plan", "Re: Plan"),
            ("Sv: Re: AW: Plan", "Re: Plan"), ("Re[2]: Plan", "Re: Plan"), ("  re:Plan  ", "Re: Plan"),
            ("Fwd: Plan", "Re: Fwd: Plan"), ("Rechnung", "Re: Rechnung"), ("", "Re:"), ("回复：计划", "Re: 计划"),
        ]
        for (subject, expected) in cases { XCTAssertEqual(MessageComposer.replySubject(subject), expected, subject) }
    }

    func testForwardSubjectsAreNeverDoubled() {
        let cases = [
            ("Plan", "Fwd: Plan"), ("Fwd: Plan", "Fwd: Plan"), ("FW: Plan", "Fwd: Plan"), ("Fw: fwd: Plan", "Fwd: Plan"),
            ("WG: Plan", "Fwd: Plan"), ("Re: Plan", "Fwd: Re: Plan"), ("Fwdx", "Fwd: Fwdx"),
        ]
        for (subject, expected) in cases { XCTAssertEqual(MessageComposer.forwardSubject(subject), expected, subject) }
    }

    func testReplyThreadingFollowsRFC5322() {
        let withReferences = ParentMessage(messageID: "<p@x>", references: ["a@x", "b@x"], inReplyTo: ["b@x"],
                                           subject: nil, from: [], date: nil, text: "")
        XCTAssertEqual(MessageComposer.replyThreading(to: withReferences).inReplyTo, "p@x")
        XCTAssertEqual(MessageComposer.replyThreading(to: withReferences).references, ["a@x", "b@x", "p@x"])
        let onlyInReplyTo = ParentMessage(messageID: "p@x", inReplyTo: ["b@x"], subject: nil, from: [], date: nil, text: "")
        XCTAssertEqual(MessageComposer.replyThreading(to: onlyInReplyTo).references, ["b@x", "p@x"])
        let ambiguous = ParentMessage(messageID: "p@x", inReplyTo: ["b@x", "c@x"], subject: nil, from: [], date: nil, text: "")
        XCTAssertEqual(MessageComposer.replyThreading(to: ambiguous).references, ["p@x"])
        let noID = ParentMessage(messageID: nil, references: ["a@x"], subject: nil, from: [], date: nil, text: "")
        XCTAssertNil(MessageComposer.replyThreading(to: noID).inReplyTo)
        XCTAssertEqual(MessageComposer.replyThreading(to: noID).references, ["a@x"])
    }

    func testAReplyGoesToReplyToElseFromAndAReplyToAllToEveryoneButOneself() {
        let list = MailAddress(name: "The List", email: "list@lists.example.org")
        let me = MailAddress(name: "Me", email: "Alice@Example.com")
        let own: Set<String> = ["alice@example.com"]
        let toList = ParentMessage(messageID: "p@x", subject: nil, from: [Self.bob], replyTo: [list],
                                   to: [list, me], cc: [Self.carol, Self.bob], date: nil, text: "")
        var r = MessageComposer.replyRecipients(to: toList, all: false, own: own)
        XCTAssertEqual(r.to, [list], "Reply-To over From")
        XCTAssertEqual(r.cc, [])
        r = MessageComposer.replyRecipients(to: toList, all: true, own: own)
        XCTAssertEqual(r.to, [list], "the list once, not me")
        XCTAssertEqual(r.cc, [Self.carol, Self.bob])
        let plain = ParentMessage(messageID: "p@x", subject: nil, from: [Self.bob], to: [me, Self.dave], cc: [me], date: nil, text: "")
        XCTAssertEqual(MessageComposer.replyRecipients(to: plain, all: false, own: own).to, [Self.bob], "From without Reply-To")
        r = MessageComposer.replyRecipients(to: plain, all: true, own: own)
        XCTAssertEqual(r.to, [Self.bob, Self.dave])
        XCTAssertEqual(r.cc, [], "my own address left out of Cc")
        // A reply to my own sent message goes to its recipients; a note to myself to me.
        let mine = ParentMessage(messageID: "p@x", subject: nil, from: [me], to: [Self.bob], cc: [Self.carol], date: nil, text: "")
        XCTAssertEqual(MessageComposer.replyRecipients(to: mine, all: false, own: own).to, [Self.bob])
        r = MessageComposer.replyRecipients(to: mine, all: true, own: own)
        XCTAssertEqual(r.to, [Self.bob])
        XCTAssertEqual(r.cc, [Self.carol])
        let note = ParentMessage(messageID: "p@x", subject: nil, from: [me], to: [me], date: nil, text: "")
        XCTAssertEqual(MessageComposer.replyRecipients(to: note, all: true, own: own).to, [me])
        // Only Cc left: it moves up to To.
        let ccOnly = ParentMessage(messageID: "p@x", subject: nil, from: [me], to: [], cc: [Self.carol], date: nil, text: "")
        r = MessageComposer.replyRecipients(to: ccOnly, all: true, own: own)
        XCTAssertEqual(r.to, [Self.carol])
        XCTAssertEqual(r.cc, [])
    }

    /// RFC 5321 §2.4: the local part as written, the domain (after the last `@`) in ASCII lowercase only.
    func testAMailboxKeyKeepsTheLocalPartsCaseAndTheDomainWithoutItsASCIICase() {
        let cases = [
            ("A@X.Example", "A@x.example"), ("a@x.EXAMPLE", "a@x.example"), ("\"Odd@Part\"@X.example", "\"Odd@Part\"@x.example"),
            ("Jörg@XN--BCHER-KVA.Example", "Jörg@xn--bcher-kva.example"), ("no-at-All", "no-at-All"), ("a@BÜCHER.example", "a@bÜcher.example"),
        ]
        for (email, key) in cases { XCTAssertEqual(MailAddress(name: nil, email: email).mailboxKey, key, email) }
    }

    func testTheQuotedBodyAndTheForwardedBlock() throws {
        let parent = ParentMessage(messageID: "p@x", subject: "Plan", from: [Self.bob], to: [Self.alice], cc: [Self.carol],
                                   date: Self.date, text: "Line one\r\n\r\n> earlier quote\nlast")
        XCTAssertEqual(MessageComposer.quotedBody(of: parent, timeZone: Self.utc),
                       "On Mon, 16 Nov 2026 10:00:00 +0000, Bob wrote:\n> Line one\n>\n>> earlier quote\n> last\n")
        XCTAssertEqual(MessageComposer.forwardedBlock(of: parent, timeZone: Self.utc), """
            ---------- Forwarded message ----------
            From: Bob <bob@example.org>
            Date: Mon, 16 Nov 2026 10:00:00 +0000
            Subject: Plan
            To: Alice Example <alice@example.com>
            Cc: carol@example.net

            Line one

            > earlier quote
            last

            """)
        // From a parsed message.
        let raw = Array("From: Bob <bob@example.org>\r\nSubject: Plan\r\nMessage-ID: <p@x>\r\nReferences: <a@x>\r\n\r\nHi\r\n".utf8)
        let fromParsed = ParentMessage(MailParser.parse(raw))
        XCTAssertEqual(MessageComposer.replyThreading(to: fromParsed).references, ["a@x", "p@x"])
        XCTAssertEqual(MessageComposer.quotedBody(of: fromParsed, timeZone: Self.utc), "Bob wrote:\n> Hi\n")
    }

    /// A parent whose References the parser cut at its header bound gave a reply 1,625 ids ending in a cut one (no `@`)
    /// and none of the newest: a long chain keeps its first id and the most recent ones (RFC 5322 §3.6.4), each
    /// whole, and an id without `@` (no msg-id) is left out.
    func testALongReferencesChainKeepsTheFirstAndTheMostRecentIDs() {
        let ids = (0..<5_000).map { "r\($0).aaaaaaaaaaaaaa@example.org" }
        let parent = ParentMessage(messageID: "<p@example.org>", references: ids + ["r5000.aaaaaaa"], subject: nil, from: [], date: nil, text: "")
        let references = MessageComposer.replyThreading(to: parent).references
        XCTAssertEqual(references.first, ids[0])
        XCTAssertEqual(references.suffix(3), [ids[4_998], ids[4_999], "p@example.org"])
        XCTAssertFalse(references.contains("r5000.aaaaaaa"), "an id cut short")
        XCTAssertLessThanOrEqual(references.joined(separator: " ").utf8.count, 8_192)
        XCTAssertEqual(Array(references.dropFirst().dropLast()), Array(ids.suffix(references.count - 2)), "the most recent, in order")
        let noAt = ParentMessage(messageID: "p@x", references: ["plain-token", "a@x"], subject: nil, from: [], date: nil, text: "")
        XCTAssertEqual(MessageComposer.replyThreading(to: noAt).references, ["a@x", "p@x"])
    }

    func testAddressFieldsReportEachInvalidEntry() {
        let list = AddressList(parsing: "Alice <alice@example.com>, bob@example.org, not an address, carol@, "
                                   + "\"Doe, John\" <john@x.y>, <bad@@x.y>, eve@exa..mple.com", field: .cc)
        XCTAssertEqual(list.addresses.map(\.email), ["alice@example.com", "bob@example.org", "john@x.y"])
        XCTAssertEqual(list.addresses.map(\.name), ["Alice", nil, "Doe, John"])
        XCTAssertEqual(list.invalid.map(\.field), [.cc, .cc, .cc, .cc])
        XCTAssertEqual(list.invalid.map(\.entry), ["not an address", "carol@", "bad@@x.y", "eve@exa..mple.com"])
        XCTAssertTrue(list.invalid.allSatisfy { !$0.reason.isEmpty })
        XCTAssertEqual(AddressList(parsing: "", field: .to), AddressList(addresses: [], invalid: []))
        XCTAssertEqual(AddressList(parsing: "jörg@bücher.example", field: .to).addresses.map(\.email), ["jörg@bücher.example"])
    }

    func testDatesAreWrittenPerRFC5322() {
        XCTAssertEqual(MessageDate.format(Date(timeIntervalSince1970: 0), timeZone: Self.utc), "Thu, 1 Jan 1970 00:00:00 +0000")
        XCTAssertEqual(MessageDate.format(Date(timeIntervalSince1970: 1_709_164_799), timeZone: Self.utc),
                       "Wed, 28 Feb 2024 23:59:59 +0000")
        XCTAssertEqual(MessageDate.format(Date(timeIntervalSince1970: 1_709_164_800), timeZone: TimeZone(secondsFromGMT: 19_800)!),
                       "Thu, 29 Feb 2024 05:30:00 +0530")
        XCTAssertEqual(MessageDate.format(Date(timeIntervalSince1970: -1), timeZone: TimeZone(secondsFromGMT: -3600)!),
                       "Wed, 31 Dec 1969 22:59:59 -0100")
        for seconds in stride(from: -2_000_000_000.0, to: 4_000_000_000, by: 98_765_431) {
            let date = Date(timeIntervalSince1970: seconds)
            XCTAssertEqual(MailDate.parse(MessageDate.format(date, timeZone: Self.utc)), date)
        }
    }
}
