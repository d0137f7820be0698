import Foundation
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

    /// A UID set over `maxSetBytes` (sparse UIDs of a big folder) goes as one command per part, each within the
    /// bound, and does what one command would: FETCH returns each message once, STORE's results merge, MOVE's and
    /// COPY's COPYUIDs pair every source with its new UID, UID EXPUNGE removes exactly the set.
    func testALongUIDSetIsSentInPartsAndDoesWhatOneCommandWould() throws {
        let sent = LockedLines()
        let imap = try loggedIn(trace: { line in if line.hasPrefix("C: ") { sent.append(line) } })
        let uids = try appendMessages(imap, (0..<24).map { ("sparse \($0)", [String]()) })
        _ = try imap.select(.inbox)
        let odd = UIDSet(uids.enumerated().filter { $0.offset % 2 == 1 }.map(\.element))
        let even = UIDSet(uids.enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
        XCTAssertEqual(odd.ranges.count, 12, "no two adjacent")
        imap.limits.maxSetBytes = 12
        func commands(_ name: String, _ body: () throws -> Void) rethrows -> [String] {
            sent.removeAll()
            try body()
            return sent.lines.filter { $0.contains(" \(name) ") }
        }
        var fetched: [UInt32] = []
        let fetches = try commands("UID FETCH") { try imap.uidFetch(odd, [.uid, .flags]) { fetched.append($0.uid ?? 0) } }
        XCTAssertEqual(fetched.sorted(), Array(odd.uids))
        XCTAssertGreaterThan(fetches.count, 1)
        for line in fetches {
            let set = try XCTUnwrap(line.split(separator: " ").dropFirst(4).first)
            XCTAssertLessThanOrEqual(set.utf8.count, 12, line)
        }
        var stored = StoreResult()
        let stores = try commands("UID STORE") { stored = try imap.uidStore(odd, .add, flags: ["\\Flagged"]) }
        XCTAssertGreaterThan(stores.count, 1)
        XCTAssertEqual(Set(stored.modSeqs.keys), Set(odd.uids), "every part's mod-sequences kept")
        XCTAssertEqual(try imap.uidSearch([.flagged]), Array(odd.uids))
        var moved: CopyUID?
        let moves = try commands("UID MOVE") { moved = try imap.uidMove(odd, to: "Archive") }
        XCTAssertGreaterThan(moves.count, 1)
        let copyUID = try XCTUnwrap(moved)
        XCTAssertEqual(copyUID.source, odd)
        XCTAssertEqual(copyUID.destination.count, 12)
        XCTAssertEqual(try imap.uidSearch([.all]), Array(even.uids))
        let copied = try XCTUnwrap(try imap.uidCopy(even, to: "Trash"))
        XCTAssertEqual(copied.source, even)
        XCTAssertEqual(copied.destination.count, 12)
        _ = try imap.uidStore(even, .add, flags: ["\\Deleted"])
        let expunges = try commands("UID EXPUNGE") { try imap.uidExpunge(even) }
        XCTAssertGreaterThan(expunges.count, 1)
        XCTAssertEqual(try imap.uidSearch([.all]), [])
        _ = try imap.select("Archive")
        XCTAssertEqual(try imap.uidSearch([.all]), Array(copyUID.destination.uids))
        XCTAssertEqual(try imap.uidSearch([.flagged]), Array(copyUID.destination.uids))
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
        // The copy is not marked \Deleted (a COPY keeps the flags: a marked copy is erased by the next client that
        // closes the folder).
        _ = try imap.select("Archive")
        var archived: [UInt32: [String]] = [:]
        try imap.uidFetch(copyUID.destination, [.uid, .flags]) { if let uid = $0.uid { archived[uid] = $0.flags ?? [] } }
        XCTAssertEqual(archived.count, 1)
        XCTAssertFalse(archived.values.contains { $0.contains("\\Deleted") }, "\(archived)")
        _ = try imap.select(.inbox)

        // Without UIDPLUS too: a plain EXPUNGE, sent only when no other message of the folder is marked \Deleted ("stay"
        // is): nothing expunged, the move failed as not expunged (tried again later), the copy made.
        let later = try appendMessages(imap, [("later", [])])[0]
        _ = try imap.select(.inbox)
        imap.capabilities.remove("UIDPLUS")
        XCTAssertThrowsError(try imap.uidMove(UIDSet(later), to: "Archive")) { error in
            guard case .commandFailed("EXPUNGE", IMAPConnection.notExpunged, _)? = error as? IMAPClientError else {
                return XCTFail("got \(error)")
            }
        }
        XCTAssertEqual(try imap.uidSearch([.all]), [uids[0], later], "another's \\Deleted message is never expunged")
        // With no other message marked, the plain EXPUNGE removes the one moved.
        _ = try imap.uidStore(UIDSet([uids[0], later]), .remove, flags: ["\\Deleted"])
        _ = try imap.uidMove(UIDSet(uids[0]), to: "Archive")
        XCTAssertEqual(try imap.uidSearch([.all]), [later])
        _ = try imap.select("Archive")
        XCTAssertEqual(try imap.uidSearch([.all]).count, 3)
    }
}

extension MessageTests {
    /// The client's commands in `lines` (the trace's `C: ` lines, tags dropped).
    private func commands(_ lines: [String]) -> [String] {
        lines.filter { $0.hasPrefix("C: ") }.map { String($0.dropFirst(3).drop { $0 != " " }.dropFirst()) }
    }

    /// Without MOVE, on a server with an ACL, the right to delete is asked (MYRIGHTS), not tried: nothing in the source
    /// is marked before the copy, so no cut connection can leave a message marked `\Deleted` there. Without the ACL
    /// the mark is tried (set, read back, taken away), as before.
    func testAMoveWithoutMOVEAsksTheACLForTheRightToDelete() throws {
        let lines = LockedLines()
        let imap = try loggedIn(trace: { lines.append($0) })
        let uids = try appendMessages(imap, [("acl one", []), ("acl two", [])])
        _ = try imap.select(.inbox)
        imap.capabilities.remove("MOVE")
        XCTAssertTrue(imap.has("ACL"), "Dovecot with imap_acl")
        XCTAssertEqual(try imap.mayRemoveMessages(from: .inbox), true)
        lines.removeAll()
        XCTAssertNotNil(try imap.uidMove(UIDSet(uids[0]), to: "Archive"))
        var sent = commands(lines.lines)
        XCTAssertEqual(sent.map { $0.split(separator: " ").prefix(2).joined(separator: " ") },
                       ["MYRIGHTS \"INBOX\"", "UID STORE", "UID COPY", "UID STORE", "UID EXPUNGE", "UID FETCH"], "\(sent)")
        XCTAssertTrue(sent[1].contains("-FLAGS"), "the only STORE before the copy takes a mark away: \(sent)")

        imap.capabilities.remove("ACL")
        XCTAssertNil(try imap.mayRemoveMessages(from: .inbox), "unknown without the ACL")
        lines.removeAll()
        XCTAssertNotNil(try imap.uidMove(UIDSet(uids[1]), to: "Archive"))
        sent = commands(lines.lines)
        let copyAt = try XCTUnwrap(sent.firstIndex { $0.hasPrefix("UID COPY") })
        XCTAssertTrue(sent[..<copyAt].contains { $0.hasPrefix("UID STORE") && $0.contains("+FLAGS") }, "the mark tried: \(sent)")
        XCTAssertEqual(try imap.uidSearch([.all]).filter { uids.contains($0) }, [], "both moved")
    }

    /// A source the ACL forbids deleting from (`lrws`: no `t`, no `e`) refuses the move before anything is marked
    /// or copied.
    func testAMoveOutOfAFolderTheACLForbidsMarksNothing() throws {
        let lines = LockedLines()
        let imap = try loggedIn(trace: { lines.append($0) })
        let uid = try XCTUnwrap(try appendMessages(imap, [("acl kept", [])], to: "Archive").first)
        try server.readOnly(user: user, folder: "Archive", rights: "lrws")
        addTeardownBlock { [server, user] in try? server?.readWrite(user: user, folder: "Archive") }
        _ = try imap.select("Archive")
        imap.capabilities.remove("MOVE")
        lines.removeAll()
        XCTAssertThrowsError(try imap.uidMove(UIDSet(uid), to: .inbox)) { error in
            guard case .commandFailed("UID MOVE", "NO", let text)? = error as? IMAPClientError else { return XCTFail("got \(error)") }
            XCTAssertTrue(text.contains("no right to delete"), text)
        }
        XCTAssertEqual(commands(lines.lines).map { $0.split(separator: " ")[0] }, ["MYRIGHTS"], "nothing marked or copied")
        var flags: [String]?
        try imap.uidFetch(UIDSet(uid), [.uid, .flags]) { flags = $0.flags }
        XCTAssertEqual(flags?.contains("\\Deleted"), false)
    }
}

/// Lines gathered from a trace callback.
final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ line: String) { lock.lock(); stored.append(line); lock.unlock() }
    func removeAll() { lock.lock(); stored.removeAll(); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return stored }
}
