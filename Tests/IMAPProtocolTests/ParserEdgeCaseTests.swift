import XCTest
@testable import IMAPProtocol

/// Grammar corners: literals in odd places, NIL, escapes, unknown responses, odd spacing.
final class ParserEdgeCaseTests: XCTestCase {
    func testMailboxNameAsLiteral() throws {
        let bytes = raw("* LIST (\\HasNoChildren) \"/\" ") + literal(raw("Foo \"bar\"\r\nbaz")) + raw("\r\n")
        let r = try parseEveryWay(bytes)
        XCTAssertEqual(r, [.untagged(.list(ListItem(attributes: ["\\HasNoChildren"], delimiter: "/", mailbox: MailboxName(raw: raw("Foo \"bar\"\r\nbaz")))))])
    }

    func testStatusWithLiteralMailboxAndModifiedUTF7() throws {
        var bytes = raw("* STATUS ") + literal(raw("Entw&APw-rfe")) + raw(" (MESSAGES 2 UIDNEXT 7)\r\n")
        bytes += raw("* STATUS \"&ZeVnLIqe-\" (HIGHESTMODSEQ 18446744073709551615 X-UNKNOWN (a b))\r\n")
        let r = try parseEveryWay(bytes)
        XCTAssertEqual(r[0], .untagged(.status(mailbox: MailboxName("Entwürfe"), attributes: ["MESSAGES": 2, "UIDNEXT": 7])))
        guard case .untagged(.status(let mailbox, let attributes)) = r[1] else { return XCTFail("\(r[1])") }
        XCTAssertEqual(mailbox.name, "日本語")
        XCTAssertEqual(attributes, ["HIGHESTMODSEQ": UInt64.max])
    }

    func testLiteralsInsideFlagAndLabelLists() throws {
        let bytes = raw("* 1 FETCH (FLAGS (\\Seen ") + literal(raw("$Odd")) + raw(") X-GM-LABELS (") + literal(raw("Work \"2024\""))
            + raw(" \"\\\\Sent\"))\r\n")
        XCTAssertEqual(try parseEveryWay(bytes), [.untagged(.fetch(seq: 1, attributes: [
            .flags(["\\Seen", "$Odd"]), .gmailLabels(["Work \"2024\"", "\\Sent"]),
        ]))])
    }

    func testNILDelimiterEmptyNameAndEscapes() throws {
        XCTAssertEqual(try parseUntagged("* LIST (\\Noselect) NIL \"\"\n"),
                       .list(ListItem(attributes: ["\\Noselect"], delimiter: nil, mailbox: MailboxName(raw: []))))
        XCTAssertEqual(try parseUntagged("* LIST () \"\\\\\" \"a\\\\b \\\"c\\\"\"\n"),
                       .list(ListItem(attributes: [], delimiter: "\\", mailbox: MailboxName(raw: raw("a\\b \"c\"")))))
        XCTAssertEqual(try parseUntagged("* ID (\"name\" \"\" \"os\" NIL)\n"), .id(["name": "", "os": String?.none]))
        XCTAssertEqual(try parseUntagged("* ID NIL\n"), .id([:]))
    }

    func testListExtendedData() throws {
        let u = try parseUntagged("* LIST (\\Subscribed) \"/\" \"Foo\" (\"CHILDINFO\" (\"SUBSCRIBED\"))\n")
        XCTAssertEqual(u, .list(ListItem(attributes: ["\\Subscribed"], delimiter: "/", mailbox: "Foo",
                                         extendedData: .list([.string(raw("CHILDINFO")), .list([.string(raw("SUBSCRIBED"))])]))))
    }

    func testNestedBodyStructureAndEnvelope() throws {
        let text = """
        * 7 FETCH (UID 9 ENVELOPE ("Wed, 17 Jul 2024 02:44:25 +0200" "=?utf-8?q?Gr=C3=BC=C3=9Fe?=" (("Alice" NIL "alice" "example.org")) (("Alice" NIL "alice" "example.org")) NIL ((NIL NIL "team" NIL)(NIL NIL "bob" "example.net")(NIL NIL NIL NIL)) NIL NIL "<parent@example.org>" "<m1@example.org>") BODYSTRUCTURE ((("TEXT" "PLAIN" ("CHARSET" "utf-8") NIL NIL "7BIT" 12 1 NIL NIL NIL NIL)("TEXT" "HTML" ("CHARSET" "utf-8") NIL NIL "QUOTED-PRINTABLE" 40 2 NIL NIL NIL NIL) "ALTERNATIVE" ("BOUNDARY" "b2") NIL NIL NIL)("APPLICATION" "PDF" ("NAME" "a.pdf") NIL NIL "BASE64" 1024 NIL ("ATTACHMENT" ("FILENAME" "a.pdf")) NIL NIL) "MIXED" ("BOUNDARY" "b1") NIL NIL NIL))

        """
        let (_, attributes) = fetchAttributes(try parseOne(text))
        XCTAssertEqual(attributes.uid, 9)
        guard case .envelope(let envelope) = attributes[1] else { return XCTFail("\(attributes[1])") }
        XCTAssertEqual(envelope.subject, "=?utf-8?q?Gr=C3=BC=C3=9Fe?=")
        XCTAssertEqual(envelope.from.first?.address, "alice@example.org")
        XCTAssertEqual(envelope.from.first?.name, "Alice")
        XCTAssertEqual(envelope.replyTo, [])
        XCTAssertEqual(envelope.to.count, 3)
        XCTAssertTrue(envelope.to[0].isGroupStart)
        XCTAssertEqual(envelope.to[1].address, "bob@example.net")
        XCTAssertTrue(envelope.to[2].isGroupEnd)
        XCTAssertEqual(envelope.inReplyTo, "<parent@example.org>")
        XCTAssertEqual(envelope.messageID, "<m1@example.org>")
        guard case .bodyStructure(let structure, extensible: true) = attributes[2] else { return XCTFail("\(attributes[2])") }
        let top = try XCTUnwrap(structure.elements)
        XCTAssertEqual(top[2], .string(raw("MIXED")))
        let alternative = try XCTUnwrap(top[0].elements)
        XCTAssertEqual(alternative[1].elements?[5], .string(raw("QUOTED-PRINTABLE")))
        XCTAssertEqual(alternative[1].elements?[6].number, 40)
        XCTAssertEqual(alternative[1].elements?[6], .atom("40"))
        XCTAssertEqual(IMAPValue.atom("40").number, 40)
        XCTAssertEqual(top[1].elements?[8], .list([.string(raw("ATTACHMENT")), .list([.string(raw("FILENAME")), .string(raw("a.pdf"))])]))
    }

    func testEnvelopeOfTheWrongShapeIsKeptGeneric() throws {
        let (_, attributes) = fetchAttributes(try parseOne("* 1 FETCH (ENVELOPE (NIL NIL))\n"))
        XCTAssertEqual(attributes, [.other(name: "ENVELOPE", value: .list([.nilValue, .nilValue]))])
    }

    func testUntaggedBetweenTaggedAndStatusWithoutCode() throws {
        let r = try parseEveryWay(crlf("""
        a1 OK done
        * OK
        * OK still here
        * NO [ALERT] Quota at 95%
        * BAD unexpected junk
        a2 NO bad mailbox
        * 5 EXPUNGE
        a3 BAD [PARSE] Command unknown
        * ok [uidnext 5] lower case
        a4 ok

        """))
        XCTAssertEqual(r, [
            .tagged(tag: "a1", status: .ok, code: nil, text: "done"),
            .untagged(.condition(.ok, code: nil, text: "")),
            .untagged(.condition(.ok, code: nil, text: "still here")),
            .untagged(.condition(.no, code: .alert, text: "Quota at 95%")),
            .untagged(.condition(.bad, code: nil, text: "unexpected junk")),
            .tagged(tag: "a2", status: .no, code: nil, text: "bad mailbox"),
            .untagged(.expunge(5)),
            .tagged(tag: "a3", status: .bad, code: .parse, text: "Command unknown"),
            .untagged(.condition(.ok, code: .uidNext(5), text: "lower case")),
            .tagged(tag: "a4", status: .ok, code: nil, text: ""),
        ])
    }

    func testPreauthAndOtherCodes() throws {
        XCTAssertEqual(try parseUntagged("* PREAUTH [CAPABILITY IMAP4rev2 IDLE] Logged in as bob\n"),
                       .condition(.preauth, code: .capability(["IMAP4rev2", "IDLE"]), text: "Logged in as bob"))
        XCTAssertEqual(try parseUntagged("* OK [UNKNOWN-CODE foo \"b]ar\"] text\n"),
                       .condition(.ok, code: .other(name: "UNKNOWN-CODE", raw: "foo \"b]ar\""), text: "text"))
        XCTAssertEqual(try parseUntagged("* OK [ALERT without a closing bracket\n"),
                       .condition(.ok, code: nil, text: "[ALERT without a closing bracket"))
        XCTAssertEqual(try parseUntagged("* OK [UIDNEXT abc] odd\n"),
                       .condition(.ok, code: .other(name: "UIDNEXT", raw: "abc"), text: "odd"))
        XCTAssertEqual(try parseUntagged("* NO [NOMODSEQ] Sorry, this mailbox format doesn't support modsequences\n"),
                       .condition(.no, code: .noModSeq, text: "Sorry, this mailbox format doesn't support modsequences"))
        XCTAssertEqual(try parseOne("a5 NO [MODIFIED 7,9] Conditional STORE failed\n"),
                       .tagged(tag: "a5", status: .no, code: .modified(try UIDSet(parsing: "7,9")), text: "Conditional STORE failed"))
        XCTAssertEqual(try parseOne("a6 OK [CLOSED] Previous mailbox closed\n"),
                       .tagged(tag: "a6", status: .ok, code: .closed, text: "Previous mailbox closed"))
        for (name, code) in [("READ-ONLY", ResponseCode.readOnly), ("UIDNOTSTICKY", .uidNotSticky),
                             ("ALREADYEXISTS", .alreadyExists), ("NONEXISTENT", .nonExistent), ("TRYCREATE", .tryCreate)] {
            XCTAssertEqual(try parseOne("t NO [\(name)] x\n"), .tagged(tag: "t", status: .no, code: code, text: "x"))
        }
    }

    /// `* MYRIGHTS` (RFC 4314) as Dovecot (atoms) and Courier (quoted strings, RFC 2086's `d`) send it; a rights
    /// list missing or followed by more is malformed, not taken for no rights.
    func testMyRights() throws {
        XCTAssertEqual(try parseOne("* MYRIGHTS INBOX lrswipkxtecda\n"),
                       .untagged(.myRights(mailbox: "INBOX", rights: "lrswipkxtecda")))
        XCTAssertEqual(try parseOne("* MYRIGHTS \"INBOX.Archiv &AOQ-\" \"acdilrsw\"\n"),
                       .untagged(.myRights(mailbox: "INBOX.Archiv ä", rights: "acdilrsw")))
        XCTAssertEqual(try parseOne("* MYRIGHTS Shared \"\"\n"), .untagged(.myRights(mailbox: "Shared", rights: "")))
        XCTAssertThrowsError(try parseOne("* MYRIGHTS INBOX\n"))
        XCTAssertThrowsError(try parseOne("* MYRIGHTS INBOX lr extra\n"))
    }

    func testUnknownResponsesNeverFail() throws {
        let bytes = raw("* XYZZY foo (bar [baz) ") + literal(raw("abc\r\n")) + raw(" tail\r\n")
            + raw("* 5 XSTUFF whatever\r\n* QUOTA \"\" (STORAGE 10 512)\r\n* LISTRIGHTS INBOX bob \"\" l r\r\n")
        XCTAssertEqual(try parseEveryWay(bytes), [
            .untagged(.other(name: "XYZZY", raw: raw("XYZZY foo (bar [baz) {5}\r\nabc\r\n tail"))),
            .untagged(.other(name: "XSTUFF", raw: raw("5 XSTUFF whatever"))),
            .untagged(.other(name: "QUOTA", raw: raw("QUOTA \"\" (STORAGE 10 512)"))),
            .untagged(.other(name: "LISTRIGHTS", raw: raw("LISTRIGHTS INBOX bob \"\" l r"))),
        ])
    }

    func testUnknownFetchItemsAreKept() throws {
        let (_, attributes) = fetchAttributes(try parseOne(
            "* 1 FETCH (EMAILID (M6d99ac3275bb4e) THREADID NIL SAVEDATE \"17-Jul-2024 02:44:25 +0200\" X-THING[1.2]<5> {2}\nhi UID 3)\n"))
        XCTAssertEqual(attributes, [
            .other(name: "EMAILID", value: .list([.atom("M6d99ac3275bb4e")])),
            .other(name: "THREADID", value: .nilValue),
            .other(name: "SAVEDATE", value: .string(raw("17-Jul-2024 02:44:25 +0200"))),
            .other(name: "X-THING[1.2]<5>", value: .string(raw("hi"))),
            .uid(3),
        ])
    }

    func testBodySectionsOriginsBinaryAndRFC822() throws {
        let bytes = raw("* 2 FETCH (BODY[1.2] NIL BODY[]<0> ") + literal(raw("From:"))
            + raw(" BINARY[2] ") + literal([0, 1, 2, 0xFF, 0x0D, 0x0A], binary: true)
            + raw(" BINARY.SIZE[2] 6 RFC822.HEADER ") + literal(raw("X: y\r\n\r\n"))
            + raw(" RFC822 \"\" RFC822.TEXT NIL BODY[HEADER.FIELDS (\"X-Odd]\" DATE)] {0}\r\n BODY (\"TEXT\" \"PLAIN\" NIL NIL NIL \"7BIT\" 0 0))\r\n")
        let (seq, attributes) = fetchAttributes(try parseEveryWay(bytes).first)
        XCTAssertEqual(seq, 2)
        XCTAssertEqual(attributes, [
            .body(section: "1.2", origin: nil, data: nil),
            .body(section: "", origin: 0, data: raw("From:")),
            .binary(section: "2", origin: nil, data: [0, 1, 2, 0xFF, 0x0D, 0x0A]),
            .binarySize(section: "2", size: 6),
            .body(section: "HEADER", origin: nil, data: raw("X: y\r\n\r\n")),
            .body(section: "", origin: nil, data: []),
            .body(section: "TEXT", origin: nil, data: nil),
            .body(section: "HEADER.FIELDS (\"X-Odd]\" DATE)", origin: nil, data: []),
            .bodyStructure(.list([.string(raw("TEXT")), .string(raw("PLAIN")), .nilValue, .nilValue, .nilValue,
                                  .string(raw("7BIT")), .atom("0"), .atom("0")]), extensible: false),
        ])
    }

    func testNonSynchronizingLiteralFromServer() throws {
        let bytes = raw("* 1 FETCH (BODY[] ") + literal(raw("abc"), plus: true) + raw(")\r\n")
        XCTAssertEqual(try parseEveryWay(bytes), [.untagged(.fetch(seq: 1, attributes: [.body(section: "", origin: nil, data: raw("abc"))]))])
    }

    func testLiteralContentEndingLikeAnAnnouncement() throws {
        // The literal ends in "{1}" and the line after it is empty: the framer must not
        // take the literal's bytes for a new announcement.
        let bytes = raw("* XFOO ") + literal(raw("{1}")) + raw("\r\n* 1 EXISTS\r\n")
        XCTAssertEqual(try parseEveryWay(bytes), [
            .untagged(.other(name: "XFOO", raw: raw("XFOO {3}\r\n{1}"))),
            .untagged(.exists(1)),
        ])
        let fetch = raw("* 1 FETCH (BODY[] ") + literal(raw("x {2}\r\n")) + raw(")\r\n")
        XCTAssertEqual(try parseEveryWay(fetch), [.untagged(.fetch(seq: 1, attributes: [.body(section: "", origin: nil, data: raw("x {2}\r\n"))]))])
    }

    func testSearchAndESearchForms() throws {
        XCTAssertEqual(try parseUntagged("* SEARCH\n"), .search([], modSeq: nil))
        XCTAssertEqual(try parseUntagged("* SEARCH 2 84 882 \n"), .search([2, 84, 882], modSeq: nil))
        XCTAssertEqual(try parseUntagged("* SEARCH 2 5 (MODSEQ 917162500)\n"), .search([2, 5], modSeq: 917_162_500))
        XCTAssertEqual(try parseUntagged("* ESEARCH (TAG \"A285\") UID MIN 7 MAX 3800\n"),
                       .esearch(ESearchResponse(tag: "A285", isUID: true, min: 7, max: 3800)))
        XCTAssertEqual(try parseUntagged("* ESEARCH (TAG \"A284\") MIN 4\n"), .esearch(ESearchResponse(tag: "A284", min: 4)))
        XCTAssertEqual(try parseUntagged("* ESEARCH (TAG \"A283\") ALL 2,10:11 PARTIAL (1:10 2,3)\n"),
                       .esearch(ESearchResponse(tag: "A283", all: try UIDSet(parsing: "2,10:11"),
                                                other: ["PARTIAL": .list([.atom("1:10"), .atom("2,3")])])))
        XCTAssertEqual(try parseUntagged("* ESEARCH\n"), .esearch(ESearchResponse()))
    }

    func testVanishedAndContinuationForms() throws {
        XCTAssertEqual(try parseUntagged("* VANISHED 1:3,5\n"), .vanished(earlier: false, uids: try UIDSet(parsing: "1:3,5")))
        XCTAssertEqual(try parseUntagged("* VANISHED (EARLIER) 41,43:116,118\n"),
                       .vanished(earlier: true, uids: try UIDSet(parsing: "41,43:116,118")))
        XCTAssertEqual(try parseOne("+\n"), .continuation(""))
        XCTAssertEqual(try parseOne("+ \n"), .continuation(""))
        XCTAssertEqual(try parseOne("+ Ready for literal data\n"), .continuation("Ready for literal data"))
        XCTAssertEqual(try parseOne("+ {5}\n"), .continuation("{5}"))
    }

    func testNamespaceWithSeveralEntries() throws {
        XCTAssertEqual(try parseUntagged("* NAMESPACE ((\"INBOX.\" \".\")) ((\"#Users.\" \".\")) ((\"#Public/\" \"/\" \"X-PARAM\" (\"FLAG1\")))\n"),
                       .namespace(NamespaceResponse(
                           personal: [NamespaceDescription(prefix: "INBOX.", delimiter: ".")],
                           otherUsers: [NamespaceDescription(prefix: "#Users.", delimiter: ".")],
                           shared: [NamespaceDescription(prefix: "#Public/", delimiter: "/",
                                                         extensions: [.string(raw("X-PARAM")), .list([.string(raw("FLAG1"))])])])))
    }

    func testCRLFSplitAcrossChunksAndBareLF() throws {
        var parser = IMAPResponseParser()
        parser.feed(raw("* 3 EXISTS\r"))
        XCTAssertNil(try parser.next())
        parser.feed(raw("\n* 4 EXI"))
        XCTAssertEqual(try parser.next(), .untagged(.exists(3)))
        XCTAssertNil(try parser.next())
        parser.feed(raw("STS\n\r\n* 1 FETCH (BODY[] {2}\r"))
        XCTAssertEqual(try parser.next(), .untagged(.exists(4)))
        XCTAssertNil(try parser.next())
        parser.feed(raw("\nab"))
        XCTAssertNil(try parser.next())
        parser.feed(raw(")\r"))
        XCTAssertNil(try parser.next())
        parser.feed(raw("\n"))
        XCTAssertEqual(try parser.next(), .untagged(.fetch(seq: 1, attributes: [.body(section: "", origin: nil, data: raw("ab"))])))
        XCTAssertNil(try parser.next())
        XCTAssertEqual(parser.bufferedByteCount, 0)
    }

    func testEverySplitPointOfADenseResponse() throws {
        let bytes = raw("* 12 FETCH (UID 5 FLAGS (\\Seen) BODY[] ") + literal(raw("a)\r\n\"{1}\r\n")) + raw(" X-GM-LABELS (") + literal(raw("L"))
            + raw("))\r\na1 OK [READ-WRITE] done\r\n")
        let expected = try parseAll(bytes)
        XCTAssertEqual(expected.count, 2)
        for split in 0...bytes.count {
            var parser = IMAPResponseParser()
            var got: [IMAPResponse] = []
            parser.feed(bytes[0..<split])
            while let r = try parser.next() { got.append(r) }
            parser.feed(bytes[split...])
            while let r = try parser.next() { got.append(r) }
            XCTAssertEqual(got, expected, "split at \(split)")
        }
    }

    func testLargeLiteralOneByteAtATimeStaysLinear() throws {
        let body = [UInt8](repeating: 0x41, count: 200_000)
        let bytes = raw("* 1 FETCH (BODY[] ") + literal(body) + raw(")\r\n")
        var parser = IMAPResponseParser()
        var got: IMAPResponse?
        for b in bytes {
            parser.feed(CollectionOfOne(b))
            if let r = try parser.next() { got = r }
        }
        XCTAssertEqual(fetchAttributes(got).1.bodyData(), body)
    }

    func testMalformedInputThrowsMalformed() {
        let cases = [
            "a1 MAYBE done\n",
            "* 1 FETCH UID 5\n",
            "* 1 FETCH (UID)\n",
            "* LIST (\\Noselect \"/\" foo\n",
            "* 1 FETCH (FLAGS (\\Seen) BODY[] \"unterminated)\n",
            "* STATUS INBOX (MESSAGES)\n",
            "* 1 EXISTS extra\n",
            "* VANISHED 0:3\n",
            "* FLAGS (\\Seen\n",
            "(no tag)\n",
            "* 1 FETCH (BODY[] {5}x)\n",
        ]
        for text in cases {
            guard case .malformed? = parseError(crlf(text)) else {
                XCTFail("expected malformed for \(text.debugDescription), got \(String(describing: parseError(crlf(text))))")
                continue
            }
        }
    }
}
