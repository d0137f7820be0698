import XCTest
@testable import IMAPProtocol

/// Exact bytes for every command.
final class CommandEncoderTests: XCTestCase {
    /// The parts of `command` as Strings.
    private func parts(_ command: IMAPCommand, tag: String = "a1", literalPlus: Bool = false) throws -> [String] {
        try command.encode(tag: tag, literalPlus: literalPlus).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The single-part encoding of `command`.
    private func line(_ command: IMAPCommand, tag: String = "a1", file: StaticString = #filePath, lineNo: UInt = #line) throws -> String {
        let p = try parts(command, tag: tag)
        XCTAssertEqual(p.count, 1, "expected one part", file: file, line: lineNo)
        return p.joined()
    }

    func testSimpleCommands() throws {
        XCTAssertEqual(try line(.capability), "a1 CAPABILITY\r\n")
        XCTAssertEqual(try line(.noop, tag: "A0042"), "A0042 NOOP\r\n")
        XCTAssertEqual(try line(.logout), "a1 LOGOUT\r\n")
        XCTAssertEqual(try line(.starttls), "a1 STARTTLS\r\n")
        XCTAssertEqual(try line(.namespace), "a1 NAMESPACE\r\n")
        XCTAssertEqual(try line(.close), "a1 CLOSE\r\n")
        XCTAssertEqual(try line(.unselect), "a1 UNSELECT\r\n")
        XCTAssertEqual(try line(.expunge), "a1 EXPUNGE\r\n")
        XCTAssertEqual(try line(.idle), "a1 IDLE\r\n")
        XCTAssertEqual(try line(.done), "DONE\r\n")
        XCTAssertEqual(try line(.done, tag: "ignored anyway"), "DONE\r\n")
    }

    func testAuthenticate() throws {
        XCTAssertEqual(try line(.authenticate(mechanism: "PLAIN", initialResponse: "AGFsaWNlAHNlY3JldA==")),
                       "a1 AUTHENTICATE PLAIN AGFsaWNlAHNlY3JldA==\r\n")
        XCTAssertEqual(try line(.authenticate(mechanism: "XOAUTH2", initialResponse: nil)), "a1 AUTHENTICATE XOAUTH2\r\n")
        XCTAssertEqual(try line(.authenticate(mechanism: "EXTERNAL", initialResponse: "")), "a1 AUTHENTICATE EXTERNAL =\r\n")
        XCTAssertThrowsError(try parts(.authenticate(mechanism: "PLAIN", initialResponse: "abc\r\na2 LOGOUT"))) {
            XCTAssertEqual($0 as? IMAPEncodingError, .invalidBase64("abc\r\na2 LOGOUT"))
        }
        XCTAssertThrowsError(try parts(.authenticate(mechanism: "PLAIN X", initialResponse: nil))) {
            XCTAssertEqual($0 as? IMAPEncodingError, .invalidAtom("PLAIN X"))
        }
    }

    func testLoginQuotesOrUsesLiterals() throws {
        XCTAssertEqual(try line(.login(username: "alice", password: "s3cr3t")), "a1 LOGIN \"alice\" \"s3cr3t\"\r\n")
        XCTAssertEqual(try line(.login(username: "bob@example.org", password: "pa\"ss\\word")),
                       "a1 LOGIN \"bob@example.org\" \"pa\\\"ss\\\\word\"\r\n")
        XCTAssertEqual(try line(.login(username: "", password: "x y")), "a1 LOGIN \"\" \"x y\"\r\n")
        // 8-bit and CR/LF force literals; without LITERAL+ each one is a wait point.
        XCTAssertEqual(try parts(.login(username: "jürgen", password: "line1\r\nline2")), [
            "a1 LOGIN {7}\r\n",
            "jürgen {12}\r\n",
            "line1\r\nline2\r\n",
        ])
        XCTAssertEqual(try parts(.login(username: "jürgen", password: "line1\r\nline2"), literalPlus: true), [
            "a1 LOGIN {7+}\r\njürgen {12+}\r\nline1\r\nline2\r\n",
        ])
        let long = String(repeating: "p", count: 1025)
        XCTAssertEqual(try parts(.login(username: "u", password: long)), ["a1 LOGIN \"u\" {1025}\r\n", long + "\r\n"])
        XCTAssertEqual(try line(.login(username: "u", password: String(repeating: "p", count: 1024))),
                       "a1 LOGIN \"u\" \"\(String(repeating: "p", count: 1024))\"\r\n")
    }

    func testLiteralMinus() throws {
        let small = [UInt8](repeating: 0x41, count: 4096)
        let big = [UInt8](repeating: 0x41, count: 4097)
        let a = try IMAPCommand.append(to: "INBOX", flags: [], date: nil, message: small).encode(tag: "a1", literalMode: .nonSynchronizingUpTo4096)
        XCTAssertEqual(a.count, 1)
        XCTAssertTrue(a[0].starts(with: raw("a1 APPEND \"INBOX\" {4096+}\r\n")))
        let b = try IMAPCommand.append(to: "INBOX", flags: [], date: nil, message: big).encode(tag: "a1", literalMode: .nonSynchronizingUpTo4096)
        XCTAssertEqual(b.count, 2)
        XCTAssertEqual(b[0], raw("a1 APPEND \"INBOX\" {4097}\r\n"))
        XCTAssertEqual(b[1], big + raw("\r\n"))
    }

    func testIDAndEnable() throws {
        XCTAssertEqual(try line(.id(["name": "mailstore", "version": "1.0", "os": nil])),
                       "a1 ID (\"name\" \"mailstore\" \"os\" NIL \"version\" \"1.0\")\r\n")
        XCTAssertEqual(try line(.id(nil)), "a1 ID NIL\r\n")
        XCTAssertEqual(try line(.id([:])), "a1 ID ()\r\n")
        XCTAssertEqual(try line(.enable(["CONDSTORE", "QRESYNC"])), "a1 ENABLE CONDSTORE QRESYNC\r\n")
        XCTAssertThrowsError(try parts(.enable(["QRESYNC\r\na2 DELETE INBOX"]))) {
            XCTAssertEqual($0 as? IMAPEncodingError, .invalidAtom("QRESYNC\r\na2 DELETE INBOX"))
        }
    }

    func testList() throws {
        XCTAssertEqual(try line(.list(reference: "", pattern: "*", returnOptions: [.specialUse])),
                       "a1 LIST \"\" \"*\" RETURN (SPECIAL-USE)\r\n")
        XCTAssertEqual(try line(.list(reference: "", pattern: "*", returnOptions: [])), "a1 LIST \"\" \"*\"\r\n")
        XCTAssertEqual(try line(.list(reference: "", pattern: "%", returnOptions: [.specialUse, .subscribed, .children, .status([.messages, .uidNext, .highestModSeq])])),
                       "a1 LIST \"\" \"%\" RETURN (SPECIAL-USE SUBSCRIBED CHILDREN STATUS (MESSAGES UIDNEXT HIGHESTMODSEQ))\r\n")
        XCTAssertEqual(try line(.list(reference: "Entwürfe/", pattern: "日本語*", returnOptions: [])),
                       "a1 LIST \"Entw&APw-rfe/\" \"&ZeVnLIqe-*\"\r\n")
        XCTAssertEqual(try line(.lsub(reference: "", pattern: "*")), "a1 LSUB \"\" \"*\"\r\n")
    }

    func testSelectAndExamine() throws {
        XCTAssertEqual(try line(.select("INBOX", nil)), "a1 SELECT \"INBOX\"\r\n")
        XCTAssertEqual(try line(.select("INBOX", .condstore)), "a1 SELECT \"INBOX\" (CONDSTORE)\r\n")
        XCTAssertEqual(try line(.examine("Entwürfe", .condstore)), "a1 EXAMINE \"Entw&APw-rfe\" (CONDSTORE)\r\n")
        XCTAssertEqual(try line(.select("INBOX", .qresync(QResyncParameters(uidValidity: 67_890_007, modSeq: 20_050_715_194_045_000)))),
                       "a1 SELECT \"INBOX\" (QRESYNC (67890007 20050715194045000))\r\n")
        XCTAssertEqual(try line(.select("INBOX", .qresync(QResyncParameters(uidValidity: 67_890_007, modSeq: 20_050_715_194_045_000,
                                                                              knownUIDs: try UIDSet(parsing: "41,43:211,214:541"))))),
                       "a1 SELECT \"INBOX\" (QRESYNC (67890007 20050715194045000 41,43:211,214:541))\r\n")
    }

    func testMailboxManagement() throws {
        XCTAssertEqual(try line(.create("Entwürfe")), "a1 CREATE \"Entw&APw-rfe\"\r\n")
        XCTAssertEqual(try line(.create("Tom & Jerry")), "a1 CREATE \"Tom &- Jerry\"\r\n")
        XCTAssertEqual(try line(.delete("日本語")), "a1 DELETE \"&ZeVnLIqe-\"\r\n")
        XCTAssertEqual(try line(.rename(from: "Old \"name\"", to: "Archive/2024")), "a1 RENAME \"Old \\\"name\\\"\" \"Archive/2024\"\r\n")
        XCTAssertEqual(try line(.subscribe("Sent")), "a1 SUBSCRIBE \"Sent\"\r\n")
        XCTAssertEqual(try line(.unsubscribe("Sent")), "a1 UNSUBSCRIBE \"Sent\"\r\n")
        XCTAssertEqual(try line(.myRights("INBOX.Archiv ä")), "a1 MYRIGHTS \"INBOX.Archiv &AOQ-\"\r\n")
        XCTAssertEqual(try line(.status("INBOX", [.messages, .uidNext, .uidValidity, .unseen, .highestModSeq])),
                       "a1 STATUS \"INBOX\" (MESSAGES UIDNEXT UIDVALIDITY UNSEEN HIGHESTMODSEQ)\r\n")
        // A raw UTF-8 name (UTF8=ACCEPT) is 8-bit and goes out as a literal.
        XCTAssertEqual(try parts(.select(MailboxName(raw: raw("Entwürfe")), nil)), ["a1 SELECT {9}\r\n", "Entwürfe\r\n"])
    }

    func testUIDFetch() throws {
        XCTAssertEqual(try line(.uidFetch(.all, [.uid, .flags, .modSeq])), "a1 UID FETCH 1:* (UID FLAGS MODSEQ)\r\n")
        XCTAssertEqual(try line(.uidFetch(try UIDSet(parsing: "1:100"), [.uid, .flags], changedSince: 12345, vanished: true)),
                       "a1 UID FETCH 1:100 (UID FLAGS) (CHANGEDSINCE 12345 VANISHED)\r\n")
        XCTAssertEqual(try line(.uidFetch(UIDSet(7), [.flags], changedSince: 99)), "a1 UID FETCH 7 (FLAGS) (CHANGEDSINCE 99)\r\n")
        XCTAssertEqual(try line(.uidFetch(UIDSet([3, 4, 5, 9]), [
            .uid, .rfc822Size, .internalDate, .envelope, .bodyStructure,
            .body(.entire), .body(.entire, peek: false), .body(.header),
            .body(.headerFields(["From", "Message-ID"]), partial: FetchPartial(offset: 0, length: 1024)),
            .body(BodySection(part: [1, 2], kind: .mime)), .body(BodySection(part: [2])),
            .body(BodySection(kind: .headerFieldsNot(["X-Spam"]))), .body(BodySection(part: [3], kind: .text)),
            .binary(part: [1]), .binary(part: [2, 1], peek: false, partial: FetchPartial(offset: 10, length: 20)), .binarySize(part: [1]),
            .gmailMessageID, .gmailThreadID, .gmailLabels,
        ])), "a1 UID FETCH 3:5,9 (UID RFC822.SIZE INTERNALDATE ENVELOPE BODYSTRUCTURE BODY.PEEK[] BODY[] BODY.PEEK[HEADER] "
            + "BODY.PEEK[HEADER.FIELDS (From Message-ID)]<0.1024> BODY.PEEK[1.2.MIME] BODY.PEEK[2] BODY.PEEK[HEADER.FIELDS.NOT (X-Spam)] "
            + "BODY.PEEK[3.TEXT] BINARY.PEEK[1] BINARY[2.1]<10.20> BINARY.SIZE[1] X-GM-MSGID X-GM-THRID X-GM-LABELS)\r\n")
        XCTAssertThrowsError(try parts(.uidFetch(UIDSet(), [.uid]))) { XCTAssertEqual($0 as? IMAPEncodingError, .emptySet) }
        XCTAssertEqual(BodySection.headerFields(["SUBJECT", "FROM"]).description, "HEADER.FIELDS (SUBJECT FROM)")
        XCTAssertEqual(BodySection(part: [1, 2], kind: .mime).description, "1.2.MIME")
        XCTAssertEqual(BodySection.entire.description, "")
    }

    func testUIDSearch() throws {
        XCTAssertEqual(try line(.uidSearch([])), "a1 UID SEARCH ALL\r\n")
        XCTAssertEqual(try line(.uidSearch([.modSeq(720_162_338)])), "a1 UID SEARCH MODSEQ 720162338\r\n")
        XCTAssertEqual(try line(.uidSearch([.unseen, .since(try XCTUnwrap(SearchDate(year: 2024, month: 2, day: 1)))], returnOptions: [.min, .max, .count])),
                       "a1 UID SEARCH RETURN (MIN MAX COUNT) UNSEEN SINCE 1-Feb-2024\r\n")
        XCTAssertEqual(try line(.uidSearch([.all], returnOptions: [])), "a1 UID SEARCH RETURN () ALL\r\n")
        XCTAssertEqual(try line(.uidSearch([.or(.from("alice@example.org"), .to("alice@example.org")), .not(.deleted),
                                            .uid(try UIDSet(parsing: "100:*")), .larger(1000), .keyword("$Forwarded"),
                                            .and([.flagged, .header("List-Id", "dev.example.org")])])),
                       "a1 UID SEARCH OR FROM \"alice@example.org\" TO \"alice@example.org\" NOT DELETED UID 100:* LARGER 1000 "
                       + "KEYWORD $Forwarded (FLAGGED HEADER List-Id \"dev.example.org\")\r\n")
        XCTAssertEqual(try line(.uidSearch([.gmailRaw("has:attachment in:inbox"), .gmailThreadID(1_798_123_456_789_012_345)])),
                       "a1 UID SEARCH X-GM-RAW \"has:attachment in:inbox\" X-GM-THRID 1798123456789012345\r\n")
        XCTAssertEqual(try parts(.uidSearch([.subject("Grüße")])), ["a1 UID SEARCH CHARSET UTF-8 SUBJECT {7}\r\n", "Grüße\r\n"])
        XCTAssertEqual(try parts(.uidSearch([.subject("Grüße")], returnOptions: [.all]), literalPlus: true),
                       ["a1 UID SEARCH RETURN (ALL) CHARSET UTF-8 SUBJECT {7+}\r\nGrüße\r\n"])
        XCTAssertThrowsError(try parts(.uidSearch([.keyword("two words")]))) { XCTAssertEqual($0 as? IMAPEncodingError, .invalidAtom("two words")) }
    }

    func testUIDStoreOnlyAddsOrRemoves() throws {
        XCTAssertEqual(try line(.uidStore(try UIDSet(parsing: "1:3,7"), .add, flags: ["\\Seen"])),
                       "a1 UID STORE 1:3,7 +FLAGS.SILENT (\\Seen)\r\n")
        XCTAssertEqual(try line(.uidStore(UIDSet(4), .remove, flags: ["\\Flagged", "$Important"])),
                       "a1 UID STORE 4 -FLAGS.SILENT (\\Flagged $Important)\r\n")
        XCTAssertEqual(try line(.uidStore(UIDSet(4), .add, flags: ["\\Deleted"], unchangedSince: 320_162_338)),
                       "a1 UID STORE 4 (UNCHANGEDSINCE 320162338) +FLAGS.SILENT (\\Deleted)\r\n")
        XCTAssertEqual(try line(.uidStore(UIDSet(4), .add, flags: ["\\Answered"], silent: false)),
                       "a1 UID STORE 4 +FLAGS (\\Answered)\r\n")
        for bad in ["two words", "\\", "", "\\Seen)", "a\r\nb", "ünï", "\\\\Seen", "\\*"] {
            XCTAssertThrowsError(try parts(.uidStore(UIDSet(1), .add, flags: [bad])), bad) {
                XCTAssertEqual($0 as? IMAPEncodingError, .invalidFlag(bad))
            }
        }
    }

    func testCopyMoveExpunge() throws {
        XCTAssertEqual(try line(.uidMove(try UIDSet(parsing: "42:44"), to: "Archive.2024")), "a1 UID MOVE 42:44 \"Archive.2024\"\r\n")
        XCTAssertEqual(try line(.uidCopy(UIDSet(7), to: "Entwürfe")), "a1 UID COPY 7 \"Entw&APw-rfe\"\r\n")
        XCTAssertEqual(try line(.uidExpunge(try UIDSet(parsing: "3000:3002"))), "a1 UID EXPUNGE 3000:3002\r\n")
    }

    func testAppendSplitsAtTheLiteral() throws {
        let message = crlf("From: a@example.org\nSubject: hi\n\nBody with ) and {5} and \"quotes\"\n")
        let date = try XCTUnwrap(InternalDate(parsing: "17-Jul-1996 02:44:25 -0700"))
        let sync = try IMAPCommand.append(to: "Sent", flags: ["\\Seen", "$Forwarded"], date: date, message: message).encode(tag: "a9", literalPlus: false)
        XCTAssertEqual(sync, [raw("a9 APPEND \"Sent\" (\\Seen $Forwarded) \"17-Jul-1996 02:44:25 -0700\" {\(message.count)}\r\n"), message + raw("\r\n")])
        let plus = try IMAPCommand.append(to: "Sent", flags: ["\\Seen", "$Forwarded"], date: date, message: message).encode(tag: "a9", literalPlus: true)
        XCTAssertEqual(plus, [raw("a9 APPEND \"Sent\" (\\Seen $Forwarded) \"17-Jul-1996 02:44:25 -0700\" {\(message.count)+}\r\n") + message + raw("\r\n")])
        XCTAssertEqual(try parts(.append(to: "Drafts", flags: [], date: nil, message: [])), ["a1 APPEND \"Drafts\" {0}\r\n", "\r\n"])
        XCTAssertEqual(try IMAPCommand.append(to: "Drafts", flags: [], date: nil, message: raw("x")).encodedBytes(tag: "a1"),
                       raw("a1 APPEND \"Drafts\" {1}\r\nx\r\n"))
    }

    /// RFC 6855 section 4: a message whose header has raw UTF-8 goes as `UTF8 (~{n}...)` (a literal8 of RFC 4466),
    /// synchronizing or with LITERAL+ as any literal.
    func testAppendInUTF8IsALiteral8InParentheses() throws {
        let message = raw("From: j\u{F6}rg@b\u{FC}cher.example\r\n\r\nx\r\n")
        let command = IMAPCommand.append(to: "Sent", flags: ["\\Seen"], date: nil, message: message, utf8: true)
        XCTAssertEqual(try command.encode(tag: "a9", literalPlus: false),
                       [raw("a9 APPEND \"Sent\" (\\Seen) UTF8 (~{\(message.count)}\r\n"), message + raw(")\r\n")])
        XCTAssertEqual(try command.encode(tag: "a9", literalPlus: true),
                       [raw("a9 APPEND \"Sent\" (\\Seen) UTF8 (~{\(message.count)+}\r\n") + message + raw(")\r\n")])
    }

    func testTagsAreValidated() {
        for bad in ["", "a b", "a+1", "a\r\n", "tåg", "(x)", "a\"b", "a{1}", "*"] {
            XCTAssertThrowsError(try parts(.noop, tag: bad), bad) { XCTAssertEqual($0 as? IMAPEncodingError, .invalidTag(bad)) }
        }
        XCTAssertNoThrow(try parts(.noop, tag: "A.1-b_c]"))
    }

    func testEveryWaitPointAnnouncesTheExactSizeOfWhatFollows() throws {
        let commands: [IMAPCommand] = [
            .login(username: "jürgen", password: "a\r\nb"),
            .append(to: MailboxName(raw: raw("Ünï")), flags: ["\\Seen"], date: nil, message: trickyMessage(subject: "x", size: 3000)),
            .uidSearch([.or(.subject("Grüße"), .body("naïve")), .header("X-Ä", "ö")]),
            .uidFetch(UIDSet(1), [.body(.headerFields(["X-\r\nInjected"]))]),
        ]
        for command in commands {
            let p = try command.encode(tag: "t1")
            XCTAssertGreaterThan(p.count, 1, "\(command)")
            for (i, part) in p.enumerated().dropLast() {
                // The part ends with {n}\r\n and the next part starts with the n literal bytes.
                guard part.count >= 4, part.suffix(3) == [0x7D, 0x0D, 0x0A],
                      let open = part.lastIndex(of: 0x7B) else {
                    XCTFail("part \(i) does not end with a literal announcement: \(String(decoding: part, as: UTF8.self).debugDescription)")
                    continue
                }
                let digits = String(decoding: part[(open + 1)..<(part.count - 3)], as: UTF8.self)
                let size = try XCTUnwrap(Int(digits), digits)
                let next = p[i + 1]
                XCTAssertGreaterThanOrEqual(next.count, size + 2)
                let after = next[size]
                XCTAssertTrue(after == 0x20 || after == 0x29 || after == 0x0D, "byte after the literal: \(after)")
            }
            XCTAssertEqual(p.last?.suffix(2), [0x0D, 0x0A])
            XCTAssertEqual(try command.encode(tag: "t1", literalPlus: true).count, 1)
        }
    }
}
