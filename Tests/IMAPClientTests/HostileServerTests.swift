@testable import IMAPClient
import IMAPProtocol
import SecureTransport
import TestSupport
import XCTest

/// A hostile server cannot make the client expand huge ranges, hoard responses or run forever.
///
/// These play scripted fake servers on loopback (``ScriptedServer``): a real Dovecot never sends a
/// 4-billion-UID ESEARCH, floods or trickles, so a fake peer is the only way to show the bounds hold.
final class HostileServerTests: XCTestCase {
    private func endpoint(_ server: ScriptedServer, timeout: Double = 30, commandTimeout: Double? = nil) -> ServerEndpoint {
        ServerEndpoint(host: "127.0.0.1", port: server.port, security: .plain, timeoutSeconds: timeout,
                       commandTimeoutSeconds: commandTimeout)
    }

    private static let selectAnswer = "* 3 EXISTS\r\n* OK [UIDVALIDITY 7] v\r\n* OK [UIDNEXT 5] n\r\nA1 OK [READ-WRITE] selected\r\n"

    func testAFortyByteESearchIsClampedToTheMailboxsUIDNext() throws {
        let server = try ScriptedServer([
            .send("* OK [CAPABILITY IMAP4rev1 ESEARCH] hi\r\n"), .readLine, .send(Self.selectAnswer),
            .readLine, .send("* ESEARCH (TAG \"A2\") UID ALL 1:4294967295\r\nA2 OK done\r\n"), .readLine, .send("A3 OK bye\r\n"),
            .waitForClose,
        ])
        let imap = try IMAPConnection.connect(endpoint(server))
        _ = try imap.select(.inbox, condstore: false)
        XCTAssertEqual(try imap.uidSearch([.all]), [1, 2, 3, 4], "UIDs at or above UIDNEXT 5 cannot exist")
        imap.logout()
        _ = try server.clientLines()
    }

    /// A server whose UIDNEXT is stale (2, below UIDs it lists) while it lists no more UIDs than the 3 messages it says
    /// the mailbox holds: every listed UID is kept, by ESEARCH and by SEARCH. They had been clamped below UIDNEXT, and a
    /// sync recorded the mail still listed as expunged (fetched back by the next honest session).
    func testUIDsListedAboveAStaleUIDNextAreKeptWithinTheMessageCount() throws {
        let select = "* 3 EXISTS\r\n* OK [UIDVALIDITY 7] v\r\n* OK [UIDNEXT 2] stale\r\nA1 OK [READ-WRITE] selected\r\n"
        for (caps, answer) in [("IMAP4rev1 ESEARCH", "* ESEARCH (TAG \"A2\") UID ALL 1,5:6"), ("IMAP4rev1", "* SEARCH 1 5 6")] {
            let server = try ScriptedServer([
                .send("* OK [CAPABILITY \(caps)] hi\r\n"), .readLine, .send(select),
                .readLine, .send(answer + "\r\nA2 OK done\r\n"), .readLine, .send("A3 OK bye\r\n"), .waitForClose,
            ])
            let imap = try IMAPConnection.connect(endpoint(server))
            _ = try imap.select(.inbox, condstore: false)
            XCTAssertEqual(try imap.uidSearch([.all]), [1, 5, 6], caps)
            imap.logout()
            _ = try server.clientLines()
        }
    }

    /// A server that advertises neither CONDSTORE nor QRESYNC but puts `HIGHESTMODSEQ` in its EXAMINE answer (Dovecot
    /// with CONDSTORE taken off its capability list does): the value is not taken, so no sync sends it `CHANGEDSINCE`
    /// (which such a server may answer BAD) or trusts a mod-sequence it does not keep for "nothing changed". With
    /// CONDSTORE advertised the same answer's value is taken.
    func testAModSequenceFromAServerWithoutCondstoreIsNotTaken() throws {
        let select = "* 3 EXISTS\r\n* OK [UIDVALIDITY 7] v\r\n* OK [UIDNEXT 5] n\r\n* OK [HIGHESTMODSEQ 78] m\r\nA1 OK [READ-ONLY] x\r\n"
        for (caps, expected) in [("IMAP4rev1", nil), ("IMAP4rev1 CONDSTORE", 78), ("IMAP4rev1 QRESYNC", 78)] as [(String, UInt64?)] {
            let server = try ScriptedServer([
                .send("* OK [CAPABILITY \(caps)] hi\r\n"), .readLine, .send(select), .readLine, .send("A2 OK bye\r\n"),
                .waitForClose,
            ])
            let imap = try IMAPConnection.connect(endpoint(server))
            XCTAssertEqual(try imap.select(.inbox, readOnly: true, condstore: false).highestModSeq, expected, caps)
            imap.logout()
            _ = try server.clientLines()
        }
    }

    func testAHugeSearchResultWithoutAKnownUIDNextIsRefusedBeforeExpanding() throws {
        let server = try ScriptedServer([
            .send("* OK [CAPABILITY IMAP4rev1 ESEARCH] hi\r\n"), .readLine,
            .send("* ESEARCH (TAG \"A1\") UID ALL 1:4294967295\r\nA1 OK done\r\n"), .waitForClose,
        ])
        let imap = try IMAPConnection.connect(endpoint(server))
        XCTAssertThrowsError(try imap.uidSearch([.all])) { error in
            guard case .responseLimitExceeded(let command, let limit)? = error as? IMAPClientError else { return XCTFail("got \(error)") }
            XCTAssertEqual(command, "UID SEARCH")
            XCTAssertTrue(limit.contains("10000000 UIDs"), limit)
        }
        XCTAssertThrowsError(try imap.noop(), "the connection is dropped")
        _ = try server.clientLines()
    }

    func testASearchFloodStopsAtTheResponseLimit() throws {
        let flood = String(repeating: "* SEARCH 1 2 3\r\n", count: 20_000)
        let server = try ScriptedServer([
            .send("* OK [CAPABILITY IMAP4rev1] hi\r\n"), .readLine, .send(flood + "A1 OK done\r\n"), .waitForClose,
        ])
        let imap = try IMAPConnection.connect(endpoint(server))
        imap.limits = CommandLimits(maxResponses: 5_000)
        XCTAssertThrowsError(try imap.uidSearch([.all])) { error in
            XCTAssertEqual(error as? IMAPClientError, .responseLimitExceeded(command: "UID SEARCH", limit: "5000 untagged responses"))
        }
        _ = try server.clientLines()
    }

    func testRepeatedSearchResultsComeOnceAndTheUIDCapHolds() throws {
        let flood = String(repeating: "* SEARCH 3 1 2\r\n", count: 2_000)
        let server = try ScriptedServer([
            .send("* OK [CAPABILITY IMAP4rev1] hi\r\n"), .readLine, .send(flood + "A1 OK done\r\n"),
            .readLine, .send("* SEARCH " + (1...50).map(String.init).joined(separator: " ") + "\r\nA2 OK done\r\n"), .waitForClose,
        ])
        let imap = try IMAPConnection.connect(endpoint(server))
        imap.limits = CommandLimits(maxSearchResults: 10_000)
        XCTAssertEqual(try imap.uidSearch([.all]), [1, 2, 3])
        imap.limits = CommandLimits(maxSearchResults: 40)
        XCTAssertThrowsError(try imap.uidSearch([.all])) { error in
            XCTAssertEqual(error as? IMAPClientError, .responseLimitExceeded(command: "UID SEARCH", limit: "40 UIDs"))
        }
        _ = try server.clientLines()
    }

    func testNineThousandCopiesOfOneMailboxGiveOneListItem() throws {
        var answer = String(repeating: "* LIST (\\HasNoChildren) \"/\" \"Spam\"\r\n", count: 9_000)
        answer += "* LIST (\\HasNoChildren) \"/\" INBOX\r\nA1 OK done\r\n"
        let server = try ScriptedServer([
            .send("* OK [CAPABILITY IMAP4rev1] hi\r\n"), .readLine, .send(answer), .readLine, .send("A2 OK bye\r\n"), .waitForClose,
        ])
        let imap = try IMAPConnection.connect(endpoint(server))
        let names = try imap.list().map(\.mailbox.name)
        XCTAssertEqual(names, ["Spam", "INBOX"])
        imap.logout()
        _ = try server.clientLines()
    }

    func testTooManyDistinctMailboxesAreRefused() throws {
        let answer = (1...50).map { "* LIST () \"/\" box\($0)\r\n" }.joined() + "A1 OK done\r\n"
        let server = try ScriptedServer([.send("* OK [CAPABILITY IMAP4rev1] hi\r\n"), .readLine, .send(answer), .waitForClose])
        let imap = try IMAPConnection.connect(endpoint(server))
        imap.limits = CommandLimits(maxMailboxes: 20)
        XCTAssertThrowsError(try imap.list()) { error in
            XCTAssertEqual(error as? IMAPClientError, .responseLimitExceeded(command: "LIST", limit: "20 distinct mailboxes"))
        }
        _ = try server.clientLines()
    }

    func testBodiesBeyondTheStatedSizeHitTheByteLimit() throws {
        // RFC822.SIZE says 0; each body is 300 KiB. The bytes received are what count.
        let body = String(repeating: "x", count: 300 << 10)
        let answer = (1...8).map { "* \($0) FETCH (UID \($0) RFC822.SIZE 0 BODY[] {\(body.utf8.count)}\r\n\(body))\r\n" }.joined()
            + "A1 OK done\r\n"
        let server = try ScriptedServer([.send("* OK [CAPABILITY IMAP4rev1] hi\r\n"), .readLine, .send(answer), .waitForClose])
        let imap = try IMAPConnection.connect(endpoint(server))
        imap.limits = CommandLimits(maxBytes: 1 << 20)
        var delivered = 0
        XCTAssertThrowsError(try imap.uidFetch(UIDSet(1...8), [.uid, .body(.entire, peek: true)]) { _ in delivered += 1 }) { error in
            XCTAssertEqual(error as? IMAPClientError, .responseLimitExceeded(command: "UID FETCH", limit: "1048576 bytes"))
        }
        XCTAssertLessThanOrEqual(delivered, 4, "no more than the byte limit's worth of bodies is taken")
        _ = try server.clientLines()
    }

    func testVanishedRangesAreKeptAsRangesNotExpanded() throws {
        let server = try ScriptedServer([
            .send("* OK [CAPABILITY IMAP4rev1] hi\r\n"), .readLine,
            .send("* VANISHED (EARLIER) 1:4294967295\r\n* VANISHED (EARLIER) 7\r\nA1 OK done\r\n"),
            .readLine, .send("A2 OK bye\r\n"), .waitForClose,
        ])
        let imap = try IMAPConnection.connect(endpoint(server))
        let vanished = try imap.uidFetch(UIDSet(1...10), [.uid, .flags]) { _ in }
        XCTAssertEqual(vanished.description, "1:4294967295")
        XCTAssertEqual(vanished.members(of: [3, 9, 12]), [3, 9, 12])
        XCTAssertEqual(vanished.clamped(to: 4).count, 4)
        imap.logout()
        _ = try server.clientLines()
    }

    func testATricklingServerCannotOutliveTheCommandDeadline() throws {
        // A byte every 0.2 s never lets a single read time out (5 s), but the command has 1 s in all.
        let server = try ScriptedServer([
            .send("* OK [CAPABILITY IMAP4rev1] hi\r\n"), .readLine,
            .trickle("* OK " + String(repeating: "still working ", count: 10) + "\r\nA1 OK done\r\n", interval: 0.2),
        ])
        let imap = try IMAPConnection.connect(endpoint(server, timeout: 5, commandTimeout: 1))
        let started = Date()
        XCTAssertThrowsError(try imap.noop()) { error in
            guard case .deadlinePassed(let command, _)? = error as? IMAPClientError else { return XCTFail("got \(error)") }
            XCTAssertEqual(command, "NOOP")
            XCTAssertTrue("\(error)".contains("deadline"), "\(error)")
        }
        // Generous: the whole trickle would take 30 s.
        XCTAssertLessThan(Date().timeIntervalSince(started), 15)
        _ = try server.clientLines()
    }

    func testTheDefaultCommandDeadlineIsTenReadTimeouts() {
        XCTAssertEqual(ServerEndpoint(host: "h", port: 1, security: .tls, timeoutSeconds: 3).commandTimeout, 30)
        XCTAssertEqual(ServerEndpoint(host: "h", port: 1, security: .tls, timeoutSeconds: 3, commandTimeoutSeconds: 7).commandTimeout, 7)
    }

    /// A server whose ACL allows deleting but that keeps the messages through the expunge: the move is refused (the
    /// copy made, the source kept) rather than reported as made.
    func testAMoveTheServerKeptInTheSourceFails() throws {
        let server = try ScriptedServer([
            .send("* OK [CAPABILITY IMAP4rev1 UIDPLUS ACL] hi\r\n"), .readLine, .send(Self.selectAnswer),
            .readLine, .send("* MYRIGHTS INBOX acdilrsw\r\nA2 OK rights\r\n"),
            .readLine, .send("A3 OK stored\r\n"),
            .readLine, .send("A4 OK [COPYUID 9 2 11] copied\r\n"),
            .readLine, .send("A5 OK stored\r\n"),
            .readLine, .send("A6 OK expunged\r\n"),
            .readLine, .send("* 2 FETCH (UID 2)\r\nA7 OK fetched\r\n"),
            .readLine, .send("A8 OK bye\r\n"), .waitForClose,
        ])
        let imap = try IMAPConnection.connect(endpoint(server))
        _ = try imap.select(.inbox, condstore: false)
        XCTAssertThrowsError(try imap.uidMove(UIDSet(2), to: "Archive")) { error in
            guard case .commandFailed("UID EXPUNGE", "NO", let text)? = error as? IMAPClientError else { return XCTFail("got \(error)") }
            XCTAssertTrue(text.contains("kept it in the source folder"), text)
        }
        imap.logout()
        let lines = try server.clientLines()
        XCTAssertEqual(lines.map { $0.split(separator: " ").dropFirst().prefix(2).joined(separator: " ") },
                       ["SELECT \"INBOX\"", "MYRIGHTS \"INBOX\"", "UID STORE", "UID COPY", "UID STORE", "UID EXPUNGE", "UID FETCH", "LOGOUT"])
    }

    /// A NO whose response code says the failure is temporary (RFC 5530's UNAVAILABLE and INUSE) is a failure to retry,
    /// not a refusal: a write-back had reverted a star with "This provider does not support starred emails" for it.
    func testATemporaryNoIsRetryableAndAPlainNoIsARefusal() throws {
        let server = try ScriptedServer([
            .send("* OK [CAPABILITY IMAP4rev1 UIDPLUS] hi\r\n"), .readLine, .send(Self.selectAnswer),
            .readLine, .send("A2 NO [UNAVAILABLE] the flags service is down\r\n"),
            .readLine, .send("A3 NO [INUSE] mailbox locked\r\n"),
            .readLine, .send("A4 NO [CANNOT] flags not allowed here\r\n"),
            .readLine, .send("A5 OK bye\r\n"), .waitForClose,
        ])
        let imap = try IMAPConnection.connect(endpoint(server))
        _ = try imap.select(.inbox, condstore: false)
        for code in ["UNAVAILABLE", "INUSE"] {
            XCTAssertThrowsError(try imap.uidStore(UIDSet(2), .add, flags: ["\\Flagged"])) { error in
                guard case .temporarilyUnavailable("UID STORE", code, _)? = error as? IMAPClientError else { return XCTFail("got \(error)") }
                XCTAssertTrue((error as? IMAPClientError)?.isRetryable == true)
            }
        }
        XCTAssertThrowsError(try imap.uidStore(UIDSet(2), .add, flags: ["\\Flagged"])) { error in
            guard case .commandFailed("UID STORE", "NO", _)? = error as? IMAPClientError else { return XCTFail("got \(error)") }
            XCTAssertFalse((error as? IMAPClientError)?.isRetryable == true)
        }
        imap.logout()
    }

    /// A login refused with `NO [UNAVAILABLE]` (RFC 5530's example: the authentication backend down) is a failure to
    /// retry, not wrong credentials (which end a watch); any other refusal stays `authenticationFailed`.
    func testALoginRefusedForNowIsNotWrongCredentials() {
        let now = IMAPConnection.loginRefusal(Completion(status: .no, code: .other(name: "UNAVAILABLE", raw: nil), text: "backend down"), "LOGIN")
        guard case .temporarilyUnavailable("LOGIN", "UNAVAILABLE", "backend down") = now else { return XCTFail("got \(now)") }
        XCTAssertTrue(now.isRetryable)
        let wrong = IMAPConnection.loginRefusal(Completion(status: .no, code: .other(name: "AUTHENTICATIONFAILED", raw: nil), text: "no"), "LOGIN")
        guard case .authenticationFailed("no") = wrong else { return XCTFail("got \(wrong)") }
        XCTAssertFalse(wrong.isRetryable)
    }

    /// The right to remove messages read from a MYRIGHTS answer: RFC 4314's `t` and `e`; RFC 2086's `d` only from a
    /// server that answers in its letters alone (an RFC 4314 server sends `d` beside `t` when it grants `t` only).
    func testTheRightToRemoveIsReadFromBothACLFamilies() {
        func may(_ rights: String) -> Bool { IMAPConnection.mayRemoveMessages(rights: Set(rights)) }
        XCTAssertTrue(may("lrswipkxtecda"), "Dovecot, every right")
        XCTAssertTrue(may("acdilrsw"), "Courier, RFC 2086")
        XCTAssertFalse(may("alr"), "Courier read-only")
        XCTAssertFalse(may("lrstd"), "t without e: may mark, not expunge")
        XCTAssertFalse(may("lredx"), "e without t")
        XCTAssertTrue(may("lrte"))
        XCTAssertFalse(may("lrs"))
    }
}
