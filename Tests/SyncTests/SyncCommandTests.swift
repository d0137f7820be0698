import EventLog
import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import TestSupport
import XCTest

/// `mailstore sync` as a user runs it: killed at random moments, refusing an unknown certificate, watching.
final class SyncCommandTests: SyncTestCase {
    /// Closes the in-process store so only the child processes hold it.
    private func releaseStore() {
        views = nil
        store = nil
    }

    private func reopenStore() throws {
        store = try MailStore.open(at: dir.file("store"))
        views = try store.openViews()
    }

    private func addAccountByCLI(caFile: Bool = true) throws {
        var args: [String] = ["account", "add", accountName, "--email", user!, "--host", imap.host, "--port", "\(imap.tlsPort)",
                    "--security", "tls", "--password-file", passwordFile!]
        if caFile { args += ["--ca-file", imap.caFile] }
        try mailstore(args)
    }


    func testASyncKilledAtRandomMomentsResumesWithNothingLostOrDuplicated() throws {
        let c = try server()
        defer { c.logout() }
        let inbox = (0..<900).map { i in (id: "k\(i)", subject: "Message \(i)", parent: i % 3 == 0 ? nil : "k\(i - 1)",
                                          flags: i % 4 == 0 ? ["\\Seen"] : [String]()) }
        try fill("INBOX", inbox, via: c)
        try fill("Archive", (0..<300).map { i in (id: "r\(i)", subject: "Old \(i)", parent: nil, flags: ["\\Seen"]) }, via: c)
        releaseStore()
        try addAccountByCLI()
        var rng = SystemRandomNumberGenerator()
        var kills = 0
        // How long a whole run took last time: kills land at a random point inside the next one.
        var runTime = 0.5
        for round in 0..<20 {
            if round >= 3 {
                // The server keeps changing between interrupted runs: flags, new mail, expunges.
                _ = try c.select(.inbox)
                let uids = try c.uidSearch([.all])
                let some = (0..<8).map { _ in uids[Int.random(in: 0..<uids.count, using: &rng)] }
                _ = try c.uidStore(UIDSet(some), round % 2 == 0 ? .add : .remove, flags: ["\\Seen"])
                try fill("INBOX", (0..<25).map { (id: "late\(round)-\($0)", subject: "Late \(round)", parent: nil, flags: [String]()) }, via: c)
                if round % 3 == 0 {
                    let victim = UIDSet(uids[Int.random(in: 0..<uids.count, using: &rng)])
                    _ = try c.select(.inbox)
                    _ = try c.uidStore(victim, .add, flags: ["\\Deleted"])
                    try c.uidExpunge(victim)
                }
            }
            let started = Date()
            let p = try startSync(["--batch-messages", "5"])
            usleep(UInt32(Double.random(in: 0.05...0.9, using: &rng) * runTime * 1_000_000))
            if p.isRunning {
                kill(p.processIdentifier, SIGKILL)
                kills += 1
                p.waitUntilExit()
            } else {
                p.waitUntilExit()
                runTime = max(0.05, Date().timeIntervalSince(started))
                XCTAssertEqual(p.terminationStatus, 0, "an uninterrupted run succeeds")
            }
        }
        print("kill test: \(kills) of 20 runs killed midway")
        XCTAssertGreaterThan(kills, 8, "most runs were killed midway")
        try mailstore(["sync", "--quiet"])
        try mailstore(["verify"])
        try mailstore(["verify", "--views"])
        try reopenStore()
        try assertViewsMatchServer()
        try assertNothingRecordedTwice()
        let again = try mailstore(["sync", "--json"])
        XCTAssertTrue(again.stdout.contains("\"received\":0"), again.stdout)
        XCTAssertTrue(again.stdout.contains("\"folderEvents\":0"), again.stdout)
    }

    /// Every copy was received once, and every flag change changed something (none was recorded twice).
    private func assertNothingRecordedTwice(file: StaticString = #filePath, line: UInt = #line) throws {
        var flags: [String: Set<String>] = [:]
        var received = 0
        try store.log.scan(filter: ScanFilter(types: [.emailReceived, .flagsChanged])) { ev in
            switch try ev.decode() {
            case .emailReceived(let p):
                received += 1
                XCTAssertNil(flags[p.emailID], "\(p.emailID) received twice", file: file, line: line)
                flags[p.emailID] = Set(p.flags)
            case .flagsChanged(let p):
                XCTAssertNotEqual(flags[p.emailID], Set(p.flags), "a flag change of \(p.emailID) recorded twice", file: file, line: line)
                flags[p.emailID] = Set(p.flags)
            default:
                break
            }
            return true
        }
        XCTAssertGreaterThanOrEqual(received, 1200, file: file, line: line)
    }

    func testASelfSignedCertificateIsRefusedWithoutCAFile() throws {
        releaseStore()
        try addAccountByCLI(caFile: false)
        let r = try mailstore(["sync"], expect: 5)
        XCTAssertTrue(r.stderr.lowercased().contains("certificate"), r.stderr)
        XCTAssertTrue(r.stderr.contains("--ca-file"), r.stderr)
        XCTAssertFalse(r.stderr.contains(try String(contentsOfFile: passwordFile, encoding: .utf8)))
    }

    func testAWrongPasswordIsAServerError() throws {
        releaseStore()
        let wrong = dir.file("wrong")
        try Data("not-the-password".utf8).write(to: URL(fileURLWithPath: wrong))
        chmod(wrong, 0o600)
        try mailstore(["account", "add", accountName, "--email", user, "--host", imap.host, "--port", "\(imap.tlsPort)",
                       "--security", "tls", "--password-file", wrong, "--ca-file", imap.caFile])
        let r = try mailstore(["sync"], expect: 5)
        XCTAssertFalse(r.stderr.contains("not-the-password"))
    }

    func testWatchPicksUpNewMailThroughIdle() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "w0", subject: "Before", parent: nil, flags: [])], via: c)
        releaseStore()
        try addAccountByCLI()
        let p = try startSync(["--watch", "--account", accountName, "--idle-refresh", "3"])
        defer {
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
        }
        XCTAssertTrue(try waitForCopies(2, appending: { try self.fill("INBOX", [(id: "w1", subject: "During", parent: nil, flags: [])], via: c) }),
                      "the new message arrived while watching")
    }

    /// Another client flags the Inbox's message while the watch IDLEs (refreshed only every 60 s): Dovecot's FETCH of
    /// the new flags is a change (`IdleChanges` hears a FETCH of the flags the store holds as none), synced within seconds.
    func testWatchRecordsAFlagAnotherClientSetsDuringIdle() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "f0", subject: "Flag me elsewhere", parent: nil, flags: ["\\Seen"])], via: c)
        releaseStore()
        try addAccountByCLI()
        let p = try startSync(["--watch", "--account", accountName, "--idle-refresh", "60"])
        defer {
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
        }
        func storedFlags() throws -> [String]? {
            let s = try MailStore.open(at: dir.file("store"), readOnly: true)
            return try s.openViews().syncedCopies(account: accountName, folder: "INBOX").values.first?.flags
        }
        var deadline = Date().addingTimeInterval(60)
        while try storedFlags() == nil && Date() < deadline { usleep(200_000) }
        XCTAssertEqual(try storedFlags(), ["\\Seen"])
        // In IDLE by now (the watch's sync and EXAMINE after the first sync take well under this).
        Thread.sleep(forTimeInterval: 3)
        _ = try c.select(.inbox)
        let uid = try XCTUnwrap(try c.uidSearch([.all]).first)
        _ = try c.uidStore(UIDSet(uid), .add, flags: ["\\Flagged"])
        let flaggedAt = Date()
        deadline = flaggedAt.addingTimeInterval(30)
        while try storedFlags() != ["\\Flagged", "\\Seen"] && Date() < deadline { usleep(200_000) }
        XCTAssertEqual(try storedFlags(), ["\\Flagged", "\\Seen"])
        XCTAssertLessThan(Date().timeIntervalSince(flaggedAt), 10, "synced through IDLE, not at its 60 s refresh")
    }

    func testWatchWritesBackAnActionTakenMeanwhile() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "s1", subject: "Star me later", parent: nil, flags: [])], via: c)
        releaseStore()
        try addAccountByCLI()
        let p = try startSync(["--watch", "--account", accountName, "--idle-refresh", "2"])
        defer {
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
        }
        XCTAssertTrue(try waitForCopies(1, appending: {}))
        let s = try MailStore.open(at: dir.file("store"))
        let v = try s.openViews()
        let emailID = try XCTUnwrap(try v.syncedCopies(account: accountName, folder: "INBOX").values.first).emailID
        let thread = try XCTUnwrap(try v.emailRecord(id: emailID)).threadID
        try mailstore(["star", thread])
        let deadline = Date().addingTimeInterval(60)
        var flagged = false
        while Date() < deadline && !flagged {
            _ = try c.select(.inbox, readOnly: true)
            flagged = try !c.uidSearch([.flagged]).isEmpty
            if !flagged { usleep(200_000) }
        }
        XCTAssertTrue(flagged, "the watching sync wrote the star back")
    }

    /// Polls the store until INBOX holds `count` copies (up to 60 s); `appending` runs once the first sync is in.
    private func waitForCopies(_ count: Int, appending: () throws -> Void) throws -> Bool {
        var appended = false
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let s = try MailStore.open(at: dir.file("store"), readOnly: true)
            let n = try s.openViews().syncedCount(account: accountName, folder: "INBOX")
            if n >= count { return true }
            if n >= 1 && !appended {
                try appending()
                appended = true
            }
            usleep(200_000)
        }
        return false
    }
}

/// Thread actions through the CLI: a process killed between the server's success and the outcome event.
final class ActionCommandTests: SyncTestCase {
    func testPushWritesAnActionBackAtOnce() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "p1", subject: "Push", parent: nil, flags: [])], via: c)
        try addAccount()
        try sync()
        let emailID = try XCTUnwrap(try views.syncedCopies(account: accountName, folder: "INBOX").values.first).emailID
        let thread = try XCTUnwrap(try views.emailRecord(id: emailID)).threadID
        views = nil
        store = nil
        let r = try mailstore(["star", thread, "--push"])
        XCTAssertTrue(r.stdout.contains("1 applied"), r.stdout)
        _ = try c.select(.inbox, readOnly: true)
        XCTAssertEqual(try c.uidSearch([.flagged]).count, 1)
    }

    func testAKillBetweenTheServersSuccessAndTheOutcomeAppliesNothingTwice() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "x1", subject: "Move me", parent: nil, flags: []), (id: "x2", subject: "Star me", parent: nil, flags: [])], via: c)
        try addAccount()
        try sync()
        let copies = try views.syncedCopies(account: accountName, folder: "INBOX").values
        let move = try XCTUnwrap(copies.first { $0.messageID == "x1@example.com" }).emailID
        let star = try XCTUnwrap(copies.first { $0.messageID == "x2@example.com" }).emailID
        let (tMove, tStar) = (try XCTUnwrap(try views.emailRecord(id: move)).threadID, try XCTUnwrap(try views.emailRecord(id: star)).threadID)
        views = nil
        store = nil
        let archiveID = try mailstore(["archive", tMove]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let starID = try mailstore(["star", tStar]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        // Crash right after the server did the first action, before its outcome is in the log.
        try mailstore(["sync", "--quiet"], env: ["MAILSTORE_FAILPOINT": "after-server-write"], expect: 86)
        _ = try c.select(MailboxName("Archive"), readOnly: true)
        XCTAssertEqual(try c.uidSearch([.header("Message-ID", "x1@example.com")]).count, 1, "the server did the move")
        let before = try c.select(.inbox, readOnly: true).highestModSeq
        try mailstore(["sync", "--quiet"], env: ["MAILSTORE_FAILPOINT": "after-server-write"], expect: 86)
        try mailstore(["sync", "--quiet"])
        // The move is recorded once, from the server's state; the star was stored once (one mod-sequence step).
        store = try MailStore.open(at: dir.file("store"))
        views = try store.openViews()
        XCTAssertEqual(try views.action(id: archiveID)?.state, "applied")
        XCTAssertEqual(try views.action(id: starID)?.state, "applied")
        var outcomes: [String: Int] = [:]
        try store.log.scan(filter: ScanFilter(types: [.actionApplied])) { ev in
            if case .actionApplied(let p) = try ev.decode() { outcomes[p.actionID.description, default: 0] += 1 }
            return true
        }
        XCTAssertEqual(outcomes, [archiveID: 1, starID: 1])
        _ = try c.select(MailboxName("Archive"), readOnly: true)
        XCTAssertEqual(try c.uidSearch([.header("Message-ID", "x1@example.com")]).count, 1, "moved once")
        let after = try c.select(.inbox, readOnly: true)
        XCTAssertEqual(after.highestModSeq.map { $0 - (before ?? 0) }, 1, "one STORE on the server")
        try assertViewsMatchServer()
        try mailstore(["verify", "--views"])
        let history = try mailstore(["history", "--action", archiveID]).stdout
        XCTAssertTrue(history.contains("ThreadArchived") && history.contains("ActionApplied"), history)
    }
}
