import XCTest
@testable import IMAPProtocol

/// A session as Dovecot 2.3 answers it, from greeting to logout.
final class DovecotTranscriptTests: XCTestCase {
    static let message1 = trickyMessage(subject: "Quarterly report", size: 4321)
    static let message2 = trickyMessage(subject: "Re: lunch {5}", size: 9000)

    static var transcript: [UInt8] {
        var t = crlf("""
        * OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ STARTTLS AUTH=PLAIN AUTH=LOGIN] Dovecot (Ubuntu) ready.
        a1 OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE SORT SORT=DISPLAY THREAD=REFERENCES THREAD=REFS THREAD=ORDEREDSUBJECT MULTIAPPEND URL-PARTIAL CATENATE UNSELECT CHILDREN NAMESPACE UIDPLUS LIST-EXTENDED I18NLEVEL=1 CONDSTORE QRESYNC ESEARCH ESORT SEARCHRES WITHIN CONTEXT=SEARCH LIST-STATUS BINARY MOVE SNIPPET=FUZZY PREVIEW=FUZZY PREVIEW STATUS=SIZE SAVEDATE LITERAL+ NOTIFY SPECIAL-USE] Logged in
        * CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE SORT SORT=DISPLAY THREAD=REFERENCES MULTIAPPEND UNSELECT CHILDREN NAMESPACE UIDPLUS LIST-EXTENDED I18NLEVEL=1 CONDSTORE QRESYNC ESEARCH ESORT SEARCHRES WITHIN CONTEXT=SEARCH LIST-STATUS BINARY MOVE LITERAL+ NOTIFY SPECIAL-USE
        a2 OK Capability completed (0.001 + 0.000 secs).
        * ID ("name" "Dovecot")
        a3 OK ID completed (0.001 + 0.000 secs).
        * ENABLED CONDSTORE QRESYNC
        a4 OK Enabled.
        * NAMESPACE (("" ".")) NIL NIL
        a5 OK Namespace completed (0.001 + 0.000 secs).
        * LIST (\\HasNoChildren) "." INBOX
        * LIST (\\HasNoChildren \\Sent) "." Sent
        * LIST (\\HasNoChildren \\Drafts) "." Drafts
        * LIST (\\HasNoChildren \\Junk) "." Junk
        * LIST (\\HasNoChildren \\Trash) "." Trash
        * LIST (\\HasChildren) "." Archive
        * LIST (\\HasNoChildren \\Archive) "." Archive.2024
        * LIST (\\HasNoChildren) "." "Entw&APw-rfe"
        * LIST (\\Noselect \\HasChildren) "." Projects
        a6 OK List completed (0.001 + 0.000 secs).
        * STATUS INBOX (MESSAGES 3 UIDNEXT 43 UIDVALIDITY 1700000000 UNSEEN 1 HIGHESTMODSEQ 120)
        a7 OK Status completed (0.001 + 0.000 secs).
        * FLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft $Forwarded $Junk $NotJunk)
        * OK [PERMANENTFLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft $Forwarded $Junk $NotJunk \\*)] Flags permitted.
        * 3 EXISTS
        * 0 RECENT
        * OK [UNSEEN 2] First unseen.
        * OK [UIDVALIDITY 1700000000] UIDs valid
        * OK [UIDNEXT 43] Predicted next UID
        * OK [HIGHESTMODSEQ 120] Highest
        a8 OK [READ-WRITE] Select completed (0.002 + 0.000 + 0.001 secs).

        """)
        t += raw("* 1 FETCH (UID 40 MODSEQ (110) FLAGS (\\Seen $Forwarded) RFC822.SIZE \(message1.count) INTERNALDATE \"17-Jul-2024 02:44:25 +0200\" BODY[] ")
        t += literal(message1) + raw(")\r\n")
        t += raw("* 2 FETCH (UID 41 MODSEQ (118) FLAGS () RFC822.SIZE \(message2.count) INTERNALDATE \" 7-Jan-2024 23:59:59 -0800\" BODY[] ")
        t += literal(message2) + raw(")\r\n")
        t += crlf("""
        * 3 FETCH (UID 42 MODSEQ (120) FLAGS (\\Seen \\Flagged) BODY[HEADER.FIELDS (SUBJECT FROM)] {62}
        Subject: Dinner (tonight)
        From: Carol <carol@example.com>

        )
        a9 OK Fetch completed (0.003 + 0.000 + 0.002 secs).
        * 2 FETCH (UID 41 MODSEQ (121) FLAGS (\\Seen))
        a10 OK Store completed (0.001 + 0.000 secs).
        * VANISHED (EARLIER) 300:310,405,411
        * 1 FETCH (UID 40 FLAGS (\\Seen $Forwarded) MODSEQ (122))
        a11 OK Fetch completed (0.001 + 0.000 secs).
        * ESEARCH (TAG "a12") UID COUNT 3 ALL 40:42 MODSEQ 121
        a12 OK Search completed (0.001 + 0.000 secs).
        * SEARCH 40 42 (MODSEQ 121)
        a13 OK Search completed (0.001 + 0.000 secs).
        a14 NO [TRYCREATE] Mailbox doesn't exist: Archive.2025 (0.001 + 0.000 secs).
        * OK [COPYUID 1700000100 40:41 7:8] Moved UIDs.
        * VANISHED 40:41
        a15 OK Move completed (0.002 + 0.000 + 0.001 secs).
        + idling
        * 4 EXISTS
        a16 OK Idle completed (0.001 + 2.000 secs).
        a17 OK [APPENDUID 1700000000 44] Append completed (0.004 + 0.000 + 0.003 secs).
        * BYE Logging out
        a18 OK Logout completed (0.001 + 0.000 secs).

        """)
        return t
    }

    func testWholeSessionParsesTheSameAtEveryChunking() throws {
        let responses = try parseEveryWay(Self.transcript)
        XCTAssertEqual(responses.count, 54)
    }

    func testGreetingAndCapabilities() throws {
        let r = try session()
        guard case .untagged(.condition(.ok, .capability(let greetingCaps)?, let text)) = r[0] else {
            return XCTFail("greeting: \(r[0])")
        }
        XCTAssertEqual(text, "Dovecot (Ubuntu) ready.")
        XCTAssertTrue(greetingCaps.contains("AUTH=PLAIN"))
        XCTAssertTrue(greetingCaps.contains("LITERAL+"))
        guard case .tagged("a1", .ok, .capability(let loginCaps)?, "Logged in") = r[1] else { return XCTFail("login: \(r[1])") }
        for cap in ["CONDSTORE", "QRESYNC", "MOVE", "SPECIAL-USE", "UIDPLUS", "LITERAL+", "ENABLE", "IDLE"] {
            XCTAssertTrue(loginCaps.contains(cap), cap)
        }
        guard case .untagged(.capability(let caps)) = r[2] else { return XCTFail("capability: \(r[2])") }
        XCTAssertEqual(caps.first, "IMAP4rev1")
        XCTAssertEqual(caps.last, "SPECIAL-USE")
        XCTAssertEqual(caps.count, 29)
        XCTAssertEqual(r[4], .untagged(.id(["name": "Dovecot"])))
        XCTAssertEqual(r[6], .untagged(.enabled(["CONDSTORE", "QRESYNC"])))
        XCTAssertEqual(r[8], .untagged(.namespace(NamespaceResponse(
            personal: [NamespaceDescription(prefix: "", delimiter: ".")], otherUsers: [], shared: []))))
    }

    func testListWithSpecialUse() throws {
        let r = try session()
        let items: [ListItem] = r.compactMap {
            if case .untagged(.list(let item)) = $0 { return item }
            return nil
        }
        XCTAssertEqual(items.count, 9)
        XCTAssertEqual(items.map(\.mailbox.name),
                       ["INBOX", "Sent", "Drafts", "Junk", "Trash", "Archive", "Archive.2024", "Entwürfe", "Projects"])
        XCTAssertEqual(items.map(\.specialUse), [nil, .sent, .drafts, .junk, .trash, nil, .archive, nil, nil])
        XCTAssertTrue(items.allSatisfy { $0.delimiter == "." })
        XCTAssertEqual(items[7].mailbox.raw, raw("Entw&APw-rfe"))
        XCTAssertTrue(items[0].mailbox.isInbox)
        XCTAssertFalse(items[8].isSelectable)
        XCTAssertTrue(items[8].hasAttribute("\\noselect"))
        XCTAssertTrue(items[0].isSelectable)
    }

    func testStatusAndSelect() throws {
        let r = try session()
        XCTAssertEqual(r[20], .untagged(.status(mailbox: "INBOX", attributes: [
            "MESSAGES": 3, "UIDNEXT": 43, "UIDVALIDITY": 1_700_000_000, "UNSEEN": 1, "HIGHESTMODSEQ": 120,
        ])))
        XCTAssertEqual(r[22], .untagged(.flags(["\\Answered", "\\Flagged", "\\Deleted", "\\Seen", "\\Draft", "$Forwarded", "$Junk", "$NotJunk"])))
        guard case .untagged(.condition(.ok, .permanentFlags(let permanent)?, "Flags permitted.")) = r[23] else {
            return XCTFail("\(r[23])")
        }
        XCTAssertEqual(permanent.last, "\\*")
        XCTAssertEqual(permanent.count, 9)
        XCTAssertEqual(r[24], .untagged(.exists(3)))
        XCTAssertEqual(r[25], .untagged(.recent(0)))
        XCTAssertEqual(r[26], .untagged(.condition(.ok, code: .unseen(2), text: "First unseen.")))
        XCTAssertEqual(r[27], .untagged(.condition(.ok, code: .uidValidity(1_700_000_000), text: "UIDs valid")))
        XCTAssertEqual(r[28], .untagged(.condition(.ok, code: .uidNext(43), text: "Predicted next UID")))
        XCTAssertEqual(r[29], .untagged(.condition(.ok, code: .highestModSeq(120), text: "Highest")))
        XCTAssertEqual(r[30], .tagged(tag: "a8", status: .ok, code: .readWrite, text: "Select completed (0.002 + 0.000 + 0.001 secs)."))
    }

    func testFetchBodiesArriveByteExact() throws {
        let r = try session()
        let (seq1, a1) = fetchAttributes(r[31])
        XCTAssertEqual(seq1, 1)
        XCTAssertEqual(a1.uid, 40)
        XCTAssertEqual(a1.modSeq, 110)
        XCTAssertEqual(a1.flags, ["\\Seen", "$Forwarded"])
        XCTAssertEqual(a1.rfc822Size, UInt64(Self.message1.count))
        XCTAssertEqual(a1.bodyData(), Self.message1)
        XCTAssertTrue(a1.contains(.internalDate(raw: "17-Jul-2024 02:44:25 +0200", epochSeconds: 1_721_177_065)))
        XCTAssertGreaterThan(Self.message1.count, 4000)

        let (_, a2) = fetchAttributes(r[32])
        XCTAssertEqual(a2.bodyData(), Self.message2)
        XCTAssertEqual(a2.flags, [])
        XCTAssertTrue(a2.contains(.internalDate(raw: " 7-Jan-2024 23:59:59 -0800", epochSeconds: 1_704_700_799)))

        let (_, a3) = fetchAttributes(r[33])
        XCTAssertEqual(a3.bodyData(section: "header.fields (subject from)"),
                       crlf("Subject: Dinner (tonight)\nFrom: Carol <carol@example.com>\n\n"))
        XCTAssertTrue(a3.contains { if case .body("HEADER.FIELDS (SUBJECT FROM)", nil, _) = $0 { return true } else { return false } })
    }

    func testCondstoreQresyncAndSearch() throws {
        let r = try session()
        XCTAssertEqual(r[35], .untagged(.fetch(seq: 2, attributes: [.uid(41), .modSeq(121), .flags(["\\Seen"])])))
        XCTAssertEqual(r[37], .untagged(.vanished(earlier: true, uids: try UIDSet(parsing: "300:310,405,411"))))
        guard case .untagged(.vanished(_, let uids)) = r[37] else { return XCTFail() }
        XCTAssertEqual(uids.count, 13)
        XCTAssertTrue(uids.contains(405))
        XCTAssertFalse(uids.contains(404))
        XCTAssertEqual(r[40], .untagged(.esearch(ESearchResponse(tag: "a12", isUID: true, count: 3, all: UIDSet(40...42), modSeq: 121))))
        XCTAssertEqual(r[42], .untagged(.search([40, 42], modSeq: 121)))
    }

    func testFailuresMovesIdleAppendAndLogout() throws {
        let r = try session()
        XCTAssertEqual(r[44], .tagged(tag: "a14", status: .no, code: .tryCreate,
                                      text: "Mailbox doesn't exist: Archive.2025 (0.001 + 0.000 secs)."))
        XCTAssertEqual(r[45], .untagged(.condition(.ok, code: .copyUID(uidValidity: 1_700_000_100, source: UIDSet(40...41), destination: UIDSet(7...8)), text: "Moved UIDs.")))
        XCTAssertEqual(r[46], .untagged(.vanished(earlier: false, uids: UIDSet(40...41))))
        XCTAssertEqual(r[48], .continuation("idling"))
        XCTAssertEqual(r[49], .untagged(.exists(4)))
        XCTAssertEqual(r[51], .tagged(tag: "a17", status: .ok, code: .appendUID(uidValidity: 1_700_000_000, uids: UIDSet(44)),
                                      text: "Append completed (0.004 + 0.000 + 0.003 secs)."))
        XCTAssertEqual(r[52], .untagged(.condition(.bye, code: nil, text: "Logging out")))
        XCTAssertEqual(r[53], .tagged(tag: "a18", status: .ok, code: nil, text: "Logout completed (0.001 + 0.000 secs)."))
    }

    /// The session's responses; fails (instead of trapping on an index) when the count is off.
    private func session() throws -> [IMAPResponse] {
        let r = try parseAll(Self.transcript)
        guard r.count == 54 else {
            XCTFail("expected 54 responses, got \(r.count)")
            throw IMAPParseError.malformed("unexpected response count", at: 0)
        }
        return r
    }
}

/// A session captured from the Debian Dovecot 2.3.19 that Tools/test-server/dovecot runs
/// (over TLS, LITERAL+ appends), kept byte for byte: what it shows beyond the session above is
/// the "/" hierarchy, empty attribute lists, `\Recent`, CONDSTORE answers to silent stores,
/// MODIFIED, codes on tagged EXPUNGE/MOVE completions and a QRESYNC SELECT.
extension DovecotTranscriptTests {
    static func capturedMessage(_ number: String, _ index: Int) -> [UInt8] {
        crlf("""
        From: Alice <alice@example.com>
        To: Bob <bob@example.com>
        Subject: Fixture \(number)
        Message-ID: <fixture-\(index)@example.com>
        Date: Mon, 16 Nov 2026 10:00:00 +0000

        Hello Bob,
        * 3 EXISTS looks like IMAP but is body text.

        """)
    }

    static var captured: [UInt8] {
        var t = crlf("""
        * OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ AUTH=PLAIN AUTH=LOGIN] Dovecot (Debian) ready.
        A1 OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE SORT SORT=DISPLAY THREAD=REFERENCES THREAD=REFS THREAD=ORDEREDSUBJECT MULTIAPPEND URL-PARTIAL CATENATE UNSELECT CHILDREN NAMESPACE UIDPLUS LIST-EXTENDED I18NLEVEL=1 CONDSTORE QRESYNC ESEARCH ESORT SEARCHRES WITHIN CONTEXT=SEARCH LIST-STATUS BINARY MOVE SNIPPET=FUZZY PREVIEW=FUZZY PREVIEW STATUS=SIZE SAVEDATE LITERAL+ NOTIFY SPECIAL-USE ACL RIGHTS=texk] Logged in
        * ENABLED QRESYNC
        A2 OK Enabled (0.001 + 0.000 secs).
        * LIST (\\Sent) "/" Sent
        * LIST (\\Drafts) "/" Drafts
        * LIST (\\Trash) "/" Trash
        * LIST (\\Junk) "/" Junk
        * LIST (\\Archive) "/" Archive
        * LIST () "/" INBOX
        A3 OK List completed (0.001 + 0.000 secs).
        A4 OK [APPENDUID 1795322040 1] Append completed (0.022 + 0.000 + 0.021 secs).
        * FLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft $Forwarded)
        * OK [PERMANENTFLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft $Forwarded \\*)] Flags permitted.
        * 3 EXISTS
        * 3 RECENT
        * OK [UNSEEN 2] First unseen.
        * OK [UIDVALIDITY 1795322040] UIDs valid
        * OK [UIDNEXT 4] Predicted next UID
        * OK [HIGHESTMODSEQ 5] Highest
        A7 OK [READ-WRITE] Select completed (0.001 + 0.000 secs).

        """)
        t += raw("* 1 FETCH (UID 1 FLAGS (\\Seen \\Recent $Forwarded) MODSEQ (3) RFC822.SIZE 218 INTERNALDATE \"16-Nov-2026 10:00:00 +0000\" BODY[] ")
        t += literal(capturedMessage("one", 1)) + raw(")\r\n")
        t += raw("* 3 FETCH (UID 3 FLAGS (\\Flagged \\Recent) MODSEQ (5) RFC822.SIZE 220 INTERNALDATE \"16-Nov-2026 12:00:00 +0000\" BODY[] ")
        t += literal(capturedMessage("three", 3)) + raw(")\r\n")
        t += crlf("""
        A8 OK Fetch completed (0.001 + 0.000 secs).
        * 2 FETCH (UID 2 MODSEQ (6))
        A9 OK Store completed (0.001 + 0.000 secs).
        A10 OK [MODIFIED 1] Conditional store failed (0.001 + 0.000 secs).
        * VANISHED 3
        * 2 RECENT
        A12 OK [HIGHESTMODSEQ 8] Expunge completed (0.006 + 0.000 + 0.005 secs).
        * VANISHED (EARLIER) 3
        * 1 FETCH (UID 1 FLAGS (\\Seen \\Recent $Forwarded) MODSEQ (3))
        * 2 FETCH (UID 2 FLAGS (\\Answered \\Recent) MODSEQ (6))
        A13 OK Fetch completed (0.001 + 0.000 secs).
        * ESEARCH (TAG "A14") UID ALL 2
        A14 OK Search completed (0.001 + 0.000 secs).
        * OK [COPYUID 1795322041 2 1] Moved UIDs.
        * VANISHED 2
        * 1 RECENT
        A15 OK [HIGHESTMODSEQ 9] Move completed (0.042 + 0.000 + 0.041 secs).
        * FLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft $Forwarded)
        * OK [PERMANENTFLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft $Forwarded \\*)] Flags permitted.
        * 1 EXISTS
        * 0 RECENT
        * OK [UIDVALIDITY 1795322040] UIDs valid
        * OK [UIDNEXT 4] Predicted next UID
        * OK [HIGHESTMODSEQ 9] Highest
        * VANISHED (EARLIER) 2:3
        * 1 FETCH (UID 1 FLAGS (\\Seen $Forwarded) MODSEQ (3))
        A18 OK [READ-WRITE] Select completed (0.003 + 0.000 + 0.002 secs).
        * 1 FETCH (UID 1 BODY[HEADER.FIELDS (MESSAGE-ID)] {39}
        Message-ID: <fixture-1@example.com>

        )
        A19 OK Fetch completed (0.001 + 0.000 secs).

        """)
        return t
    }

    func testCapturedSessionParsesTheSameAtEveryChunking() throws {
        XCTAssertEqual(Self.capturedMessage("one", 1).count, 218, "the fixture message must be the captured bytes")
        XCTAssertEqual(Self.capturedMessage("three", 3).count, 220)
        XCTAssertEqual(try parseEveryWay(Self.captured).count, 52)
    }

    func testCapturedLoginListAndSelect() throws {
        let r = try parseAll(Self.captured)
        guard case .tagged("A1", .ok, .capability(let caps)?, "Logged in") = r[1] else { return XCTFail("\(r[1])") }
        XCTAssertEqual(caps.suffix(2), ["ACL", "RIGHTS=texk"])
        XCTAssertEqual(r[2], .untagged(.enabled(["QRESYNC"])))
        let items: [ListItem] = r.compactMap {
            if case .untagged(.list(let item)) = $0 { return item }
            return nil
        }
        XCTAssertEqual(items.map(\.mailbox.name), ["Sent", "Drafts", "Trash", "Junk", "Archive", "INBOX"])
        XCTAssertEqual(items.map(\.specialUse), [.sent, .drafts, .trash, .junk, .archive, nil])
        XCTAssertEqual(items.last?.attributes, [])
        XCTAssertTrue(items.allSatisfy { $0.delimiter == "/" })
        XCTAssertEqual(r[11], .tagged(tag: "A4", status: .ok, code: .appendUID(uidValidity: 1_795_322_040, uids: UIDSet(1)),
                                      text: "Append completed (0.022 + 0.000 + 0.021 secs)."))
        XCTAssertEqual(r[15], .untagged(.recent(3)))
        XCTAssertEqual(r[19], .untagged(.condition(.ok, code: .highestModSeq(5), text: "Highest")))
    }

    func testCapturedFetchStoreAndExpunge() throws {
        let r = try parseAll(Self.captured)
        let (_, first) = fetchAttributes(r[21])
        XCTAssertEqual(first.flags, ["\\Seen", "\\Recent", "$Forwarded"])
        XCTAssertEqual(first.bodyData(), Self.capturedMessage("one", 1))
        XCTAssertTrue(first.contains(.internalDate(raw: "16-Nov-2026 10:00:00 +0000", epochSeconds: 1_794_823_200)))
        XCTAssertEqual(r[24], .untagged(.fetch(seq: 2, attributes: [.uid(2), .modSeq(6)])))
        XCTAssertEqual(r[26], .tagged(tag: "A10", status: .ok, code: .modified(UIDSet(1)),
                                      text: "Conditional store failed (0.001 + 0.000 secs)."))
        XCTAssertEqual(r[27], .untagged(.vanished(earlier: false, uids: UIDSet(3))))
        guard case .tagged("A12", .ok, .highestModSeq(8)?, _) = r[29] else { return XCTFail("\(r[29])") }
        XCTAssertEqual(r[30], .untagged(.vanished(earlier: true, uids: UIDSet(3))))
        XCTAssertEqual(r[34], .untagged(.esearch(ESearchResponse(tag: "A14", isUID: true, all: UIDSet(2)))))
        XCTAssertEqual(r[36], .untagged(.condition(.ok, code: .copyUID(uidValidity: 1_795_322_041, source: UIDSet(2), destination: UIDSet(1)),
                                                    text: "Moved UIDs.")))
        guard case .tagged("A15", .ok, .highestModSeq(9)?, _) = r[39] else { return XCTFail("\(r[39])") }
    }

    func testCapturedQResyncSelectAndHeaderFields() throws {
        let r = try parseAll(Self.captured)
        XCTAssertEqual(r[47], .untagged(.vanished(earlier: true, uids: UIDSet(2...3))))
        XCTAssertEqual(r[48], .untagged(.fetch(seq: 1, attributes: [.uid(1), .flags(["\\Seen", "$Forwarded"]), .modSeq(3)])))
        XCTAssertEqual(r[49], .tagged(tag: "A18", status: .ok, code: .readWrite, text: "Select completed (0.003 + 0.000 + 0.002 secs)."))
        let (_, header) = fetchAttributes(r[50])
        XCTAssertEqual(header.bodyData(section: "HEADER.FIELDS (MESSAGE-ID)"), crlf("Message-ID: <fixture-1@example.com>\n\n"))
        XCTAssertEqual(r[51], .tagged(tag: "A19", status: .ok, code: nil, text: "Fetch completed (0.001 + 0.000 secs)."))
    }
}
