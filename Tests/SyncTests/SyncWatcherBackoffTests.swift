@testable import MailStore
import IMAPClient
import XCTest

/// `sync --watch` reconnects with backoff: 1 s doubling to 5 min while the server stays away, and from 1 s again once
/// a session got going (it had stayed doubled for good after one outage: single drops then waited 16, 32, 64 s).
final class SyncWatcherBackoffTests: XCTestCase {
    func testTheBackoffDoublesWhileFailingAndStartsAgainAfterASession() {
        var backoff = 1.0
        var waits: [Double] = []
        // An outage: four attempts fail before a session syncs.
        for _ in 0..<4 {
            let (wait, next) = SyncWatcher.backoff(after: backoff, sessionSynced: false)
            waits.append(wait)
            backoff = next
        }
        XCTAssertEqual(waits, [1, 2, 4, 8])
        // Then a session syncs and, later, drops: the wait is 1 s again, and doubles from there.
        var (wait, next) = SyncWatcher.backoff(after: backoff, sessionSynced: true)
        XCTAssertEqual(wait, 1)
        (wait, next) = SyncWatcher.backoff(after: next, sessionSynced: false)
        XCTAssertEqual(wait, 2)
        XCTAssertEqual(SyncWatcher.backoff(after: 300, sessionSynced: false).next, 300, "capped at 5 min")
    }
}

/// What ends a watch and what makes it reconnect; how a folder the server refuses is tried again and told.
final class SyncWatcherRefusalTests: XCTestCase {
    /// Authentication, certificate and configuration errors end the watch; anything else reconnects after the backoff
    /// (a protocol error, an IDLE flood and a NO had ended it for good).
    func testOnlyAuthenticationCertificateAndConfigurationErrorsEndAWatch() {
        let reconnects: [IMAPClientError] = [
            .protocolError("unexpected byte 0x01 in a flag"), .responseLimitExceeded(command: "IDLE", limit: "10000000 untagged responses"),
            .commandFailed(command: "EXAMINE", status: "NO", text: "[SERVERBUG] Internal error"),
            .commandFailed(command: "LIST", status: "BAD", text: "x"), .transport(.connectionClosed("bye")),
            .deadlinePassed(command: "IDLE", seconds: 10), .temporarilyUnavailable(command: "EXAMINE", code: "INUSE", text: "x"),
        ]
        for e in reconnects { XCTAssertTrue(SyncWatcher.reconnects(after: .server(e)), "\(e)") }
        let ends: [IMAPClientError] = [
            .authenticationFailed("no"), .transport(.certificateRejected(host: "h", reason: "r")), .transport(.tlsFailed(reason: "r")),
            .insecureAuthentication, .startTLSUnavailable(host: "h"), .mechanismUnavailable("XOAUTH2"),
        ]
        for e in ends { XCTAssertFalse(SyncWatcher.reconnects(after: .server(e)), "\(e)") }
        XCTAssertFalse(SyncWatcher.reconnects(after: .credential(.invalid("x"))))
        // An OAuth token server out of reach, or another process's refresh holding the lock: tried again, as cli.md says.
        XCTAssertTrue(SyncWatcher.reconnects(after: .credential(.oauth(.refreshInProgress(account: "a", holder: nil, waitedSeconds: 1)))))
        XCTAssertFalse(SyncWatcher.reconnects(after: .credential(.oauth(.signInAgain(account: "a", detail: "revoked")))))
        XCTAssertTrue(SyncWatcher.reconnects(after: .connectionsBusy(ConnectionPoolTimeout(account: "a", waitedSeconds: 30, accountInUse: 5, accountLimit: 5, totalInUse: 5, globalLimit: 30))))
    }

    /// A refused folder: told at once and tried at the next round; then quietly, waits doubling to the cap, told again
    /// after an hour; synced again: forgotten (and that said); no longer listed: forgotten.
    func testARefusedFolderIsToldOnceThenTriedWithABackoff() {
        var clock = 1_000_000.0
        let retry = FolderRetry(firstWait: 60, maxWait: 3_600, tellEvery: 3_600)
        retry.now = { clock }
        // The wall clock steps back a year: no wait is measured on it.
        retry.wallNow = { Date(timeIntervalSince1970: 1_000_000 - clock * 100) }
        XCTAssertTrue(retry.isDue("Junk"))
        var r = retry.refused("Junk")
        XCTAssertEqual([r.tell ? 1 : 0, r.refusals], [1, 1])
        XCTAssertEqual(r.retryIn, 0, "the next round")
        XCTAssertTrue(retry.isDue("Junk"))
        var waits: [Double] = []
        var told = 0
        for _ in 0..<8 {
            clock += r.retryIn
            XCTAssertTrue(retry.isDue("Junk"))
            r = retry.refused("Junk")
            waits.append(r.retryIn)
            if r.tell { told += 1 }
            XCTAssertFalse(retry.isDue("Junk"))
        }
        XCTAssertEqual(waits, [60, 120, 240, 480, 960, 1_920, 3_600, 3_600])
        XCTAssertEqual(told, 2, "told again once an hour had passed (\(waits.reduce(0, +)) s in all)")
        XCTAssertTrue(retry.synced("Junk"), "synced again: to be said")
        XCTAssertFalse(retry.synced("Junk"))
        _ = retry.refused("Gone")
        retry.keep(only: ["INBOX"])
        XCTAssertTrue(retry.entries.isEmpty)
    }

    /// Only a failure that is the message's own (the server stopped sending it: no progress within the read timeout; a
    /// malformed or over-limit answer; a refusal) counts toward giving its UID up for good; a lost connection or a
    /// command deadline passed on a slow link does not (it had given a big message up after two slow tries).
    func testOnlyAMessagesOwnFailureCountsTowardGivingItUp() {
        for e: IMAPClientError in [.transport(.timeout(seconds: 60)), .protocolError("x"),
                                   .responseLimitExceeded(command: "UID FETCH", limit: "literal"),
                                   .commandFailed(command: "UID FETCH", status: "NO", text: "x")] {
            XCTAssertTrue(SyncEngine.isMessagesOwnFailure(e), "\(e)")
        }
        for e: IMAPClientError in [.transport(.connectionClosed("reset")), .transport(.deadlinePassed(seconds: 600)),
                                   .deadlinePassed(command: "UID FETCH", seconds: 600)] {
            XCTAssertFalse(SyncEngine.isMessagesOwnFailure(e), "\(e)")
        }
    }
}
