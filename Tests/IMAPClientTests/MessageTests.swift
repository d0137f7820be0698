@testable import IMAPClient
import IMAPProtocol
import SecureTransport
import XCTest

/// APPEND, FETCH, STORE, SEARCH, MOVE and QRESYNC against the real server.
final class MessageTests: IMAPTestCase {
    func testFetchReturnsTheExactBytesWithoutSettingSeen() throws {
        let imap = try loggedIn()
        let date = InternalDate(epochSeconds: 1_795_000_000, timeZoneOffsetMinutes: 60)
        let appended = try XCTUnwrap(imap.append(to: .inbox, message: message("exact"), flags: ["$Forwarded"], date: date))
        _ = try imap.select(.inbox)
        var fetched: [FetchedMessage] = []
        try imap.uidFetch(UIDSet(appended.uid), [.uid, .flags, .modSeq, .rfc822Size, .internalDate, .body(.entire),
                                                 .body(.headerFields(["Message-ID"]))]) { fetched.append($0) }
        let only = try XCTUnwrap(fetched.first)
        XCTAssertEqual(fetched.count, 1)
        XCTAssertEqual(only.uid, appended.uid)
        XCTAssertEqual(only.body, message("exact"))
        XCTAssertEqual(only.size, UInt64(message("exact").count))
        XCTAssertEqual(only.internalDate, date.epochSeconds)
        XCTAssertNotNil(only.modSeq)
        XCTAssertEqual(only.section("HEADER.FIELDS (MESSAGE-ID)"), Array("Message-ID: <exact@example.com>\r\n\r\n".utf8))
        XCTAssertEqual(only.flags?.contains("$Forwarded"), true)

        var flagsAfter: [String]?
        try imap.uidFetch(UIDSet(appended.uid), [.flags]) { flagsAfter = $0.flags }
        XCTAssertEqual(flagsAfter?.contains("\\Seen"), false, "BODY.PEEK[] set \\Seen")
    }

    func testChangedSinceShowsAStore() throws {
        let imap = try loggedIn()
        let uids = try appendMessages(imap, [("a", []), ("b", []), ("c", [])])
        let before = try XCTUnwrap(imap.select(.inbox).highestModSeq)
        let stored = try imap.uidStore(UIDSet(uids[1]), .add, flags: ["\\Flagged"])
        XCTAssertTrue(stored.modified.isEmpty)
        XCTAssertNotNil(stored.modSeqs[uids[1]], "CONDSTORE reports the new mod-sequence")
        var changed: [UInt32: [String]] = [:]
        try imap.uidFetch(.all, [.uid, .flags], changedSince: before) { changed[$0.uid ?? 0] = $0.flags }
        XCTAssertEqual(Array(changed.keys), [uids[1]])
        XCTAssertEqual(changed[uids[1]]?.contains("\\Flagged"), true)

        let removed = try imap.uidStore(UIDSet(uids[1]), .remove, flags: ["\\Flagged"], unchangedSince: before)
        XCTAssertEqual(removed.modified, UIDSet(uids[1]), "UNCHANGEDSINCE older than the change must fail")
        var flags: [String]?
        try imap.uidFetch(UIDSet(uids[1]), [.flags]) { flags = $0.flags }
        XCTAssertEqual(flags?.contains("\\Flagged"), true)
    }

    func testVanishedAfterAnExpungeFromAnotherConnection() throws {
        let imap = try loggedIn()
        let uids = try appendMessages(imap, [("keep", []), ("drop", []), ("also drop", [])])
        XCTAssertEqual(try imap.enable(["QRESYNC"]), ["QRESYNC"])
        let inbox = try imap.select(.inbox)
        let modSeq = try XCTUnwrap(inbox.highestModSeq)

        let other = try loggedIn()
        _ = try other.select(.inbox)
        let dropped = UIDSet(uids[1...2])
        _ = try other.uidStore(dropped, .add, flags: ["\\Deleted"])
        try other.uidExpunge(dropped)

        // The expunge reaches this session at its next sync point.
        XCTAssertTrue(try imap.noop().contains(.vanished(earlier: false, uids: dropped)))
        var changed: [UInt32] = []
        let vanished = try imap.uidFetch(.all, [.uid, .flags], changedSince: modSeq, vanished: true) { changed.append($0.uid ?? 0) }
        XCTAssertEqual(vanished, dropped)
        XCTAssertTrue(changed.allSatisfy { !dropped.contains($0) }, "\(changed)")

        let reopened = try imap.select(.inbox, qresync: QResyncParameters(uidValidity: inbox.uidValidity, modSeq: modSeq,
                                                                         knownUIDs: UIDSet(uids)))
        XCTAssertEqual(reopened.vanished, dropped)
        XCTAssertEqual(reopened.exists, 1)
        XCTAssertTrue(reopened.changed.allSatisfy { $0.uid == uids[0] })
    }

    func testSearch() throws {
        let imap = try loggedIn()
        let uids = try appendMessages(imap, [("alpha", ["\\Seen"]), ("beta", []), ("gamma", ["\\Flagged"]), ("delta", [])])
        _ = try imap.select(.inbox)
        XCTAssertEqual(try imap.uidSearch([.unseen]), [uids[1], uids[2], uids[3]])
        XCTAssertEqual(try imap.uidSearch([.flagged]), [uids[2]])
        XCTAssertEqual(try imap.uidSearch([.subject("gamma")]), [uids[2]])
        XCTAssertEqual(try imap.uidSearch([.all]), uids)
        XCTAssertEqual(try imap.uidSearch([.subject("no such subject")]), [])
        XCTAssertEqual(try imap.uidSearch([.or(.seen, .flagged), .not(.subject("alpha"))]), [uids[2]])
    }

    func testMoveReportsCopyUIDAndRemovesTheSource() throws {
        let imap = try loggedIn()
        let uids = try appendMessages(imap, [("stay", []), ("go", ["\\Flagged"]), ("go too", [])])
        _ = try imap.select(.inbox)
        var unsolicited: [UntaggedResponse] = []
        imap.onUnsolicited = { unsolicited.append($0) }
        let moved = UIDSet([uids[1], uids[2]])
        let copyUID = try XCTUnwrap(imap.uidMove(moved, to: "Archive"))
        XCTAssertEqual(copyUID.source, moved)
        XCTAssertEqual(copyUID.destination.count, 2)
        XCTAssertFalse(unsolicited.isEmpty, "the server reports the expunges")
        XCTAssertEqual(try imap.uidSearch([.all]), [uids[0]])
        let archive = try imap.select("Archive")
        XCTAssertEqual(archive.uidValidity, copyUID.uidValidity)
        XCTAssertEqual(try imap.uidSearch([.all]), Array(copyUID.destination.uids))
        XCTAssertEqual(try imap.uidSearch([.flagged]).count, 1)
    }

    func testCopyUID() throws {
        let imap = try loggedIn()
        let uids = try appendMessages(imap, [("copied", [])])
        _ = try imap.select(.inbox)
        let copyUID = try XCTUnwrap(imap.uidCopy(UIDSet(uids), to: "Trash"))
        XCTAssertEqual(copyUID.source, UIDSet(uids))
        XCTAssertEqual(try imap.uidSearch([.all]), uids)
        XCTAssertThrowsError(try imap.uidCopy(UIDSet(uids), to: "No such folder")) { error in
            guard case .commandFailed("UID COPY", "NO", _)? = error as? IMAPClientError else { return XCTFail("got \(error)") }
        }
    }

    func testAnErrorThrownWhileFetchingLeavesTheConnectionUsable() throws {
        struct Stop: Error {}
        let imap = try loggedIn()
        let uids = try appendMessages(imap, [("1", []), ("2", []), ("3", [])])
        _ = try imap.select(.inbox)
        var calls = 0
        XCTAssertThrowsError(try imap.uidFetch(.all, [.uid, .body(.entire)]) { _ in
            calls += 1
            throw Stop()
        }) { error in XCTAssertTrue(error is Stop, "got \(error)") }
        XCTAssertEqual(calls, 1)
        XCTAssertEqual(try imap.uidSearch([.all]), uids)
    }

    func testAppendWithSynchronizingLiterals() throws {
        var lines: [String] = []
        let imap = try connect(endpoint(.tls)) { lines.append($0) }
        try imap.authenticate(username: user, credential: .password(password), mechanism: .plain)
        // Without LITERAL+ the client must wait for the server's "+" before sending the message.
        imap.capabilities.remove("LITERAL+")
        let sent = message("synchronized")
        let appended = try XCTUnwrap(imap.append(to: .inbox, message: sent, flags: ["\\Seen"]))
        XCTAssertTrue(lines.contains { $0.hasPrefix("C: ") && $0.hasSuffix(" {\(sent.count)}") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("S: + ") })
        _ = try imap.select(.inbox)
        var fetched: FetchedMessage?
        try imap.uidFetch(UIDSet(appended.uid), [.uid, .flags, .body(.entire)]) { fetched = $0 }
        XCTAssertEqual(fetched?.body, sent)
        XCTAssertEqual(fetched?.flags?.filter { $0 != "\\Recent" }, ["\\Seen"])
    }

    func testMoveFallsBackToCopyStoreAndUIDExpunge() throws {
        let imap = try loggedIn()
        let uids = try appendMessages(imap, [("stay", ["\\Deleted"]), ("go", [])])
        _ = try imap.select(.inbox)
        imap.capabilities.remove("MOVE")
        let copyUID = try XCTUnwrap(imap.uidMove(UIDSet(uids[1]), to: "Archive"))
        XCTAssertEqual(copyUID.source, UIDSet(uids[1]))
        XCTAssertEqual(try imap.uidSearch([.all]), [uids[0]], "only the moved message may be expunged")

        imap.capabilities.remove("UIDPLUS")
        XCTAssertThrowsError(try imap.uidMove(UIDSet(uids[0]), to: "Archive")) { error in
            guard case .commandFailed("UID MOVE", "NOT SENT", _)? = error as? IMAPClientError else { return XCTFail("got \(error)") }
        }
        XCTAssertEqual(try imap.uidSearch([.all]), [uids[0]])
        _ = try imap.select("Archive")
        XCTAssertEqual(try imap.uidSearch([.all]).count, 1)
    }
}
