import Foundation
import IMAPClient
import IMAPProtocol
import SecureTransport
import TestSupport
import XCTest

/// IDLE against the real server.
final class IdleTests: IMAPTestCase {
    func testIdleSeesAMessageAppendedByAnotherConnection() throws {
        let idleStarted = DispatchSemaphore(value: 0)
        let imap = try connect(endpoint(.tls)) { line in
            if line.hasPrefix("S: + ") { idleStarted.signal() }
        }
        try imap.authenticate(username: user, credential: .password(password), mechanism: .plain)
        _ = try imap.select(.inbox)

        let appender = BackgroundTask { [endpoint = endpoint(.tls), user, password, message = message("pushed")] in
            guard idleStarted.wait(timeout: .now() + IMAPTestCase.timeout) == .success else {
                throw BackgroundTaskTimeout(seconds: IMAPTestCase.timeout)
            }
            let other = try IMAPConnection.connect(endpoint)
            defer { other.logout() }
            try other.authenticate(username: user, credential: .password(password), mechanism: .plain)
            _ = try other.append(to: .inbox, message: message)
        }
        var events: [UntaggedResponse] = []
        let started = Date()
        let sawEvent = try imap.idle(timeoutSeconds: 60) { event in
            events.append(event)
            if case .exists = event { return false }
            return true
        }
        try appender.wait(seconds: IMAPTestCase.timeout)
        XCTAssertTrue(sawEvent)
        XCTAssertTrue(events.contains(.exists(1)), "\(events)")
        XCTAssertLessThan(Date().timeIntervalSince(started), 60, "IDLE ran to its timeout instead of stopping at EXISTS")
        XCTAssertEqual(try imap.uidSearch([.all]).count, 1, "the connection is usable after IDLE")
    }

    func testIdleReturnsAtItsTimeoutWhenNothingHappens() throws {
        let imap = try loggedIn()
        _ = try imap.select(.inbox)
        let started = Date()
        var events: [UntaggedResponse] = []
        let sawEvent = try imap.idle(timeoutSeconds: 1.5) { event in
            events.append(event)
            return true
        }
        let elapsed = Date().timeIntervalSince(started)
        // Dovecot's IDLE keepalive (`* OK Still here`, sent on a clock-aligned interval, so now and then inside these
        // 1.5 s: seen in two full runs of the suite) is an untagged response but no change: anything else is.
        let changes = events.filter { if case .condition(.ok, code: nil, _) = $0 { return false } else { return true } }
        XCTAssertTrue(changes.isEmpty, "\(events)")
        XCTAssertEqual(sawEvent, !events.isEmpty, "it says whether any untagged response came")
        XCTAssertGreaterThanOrEqual(elapsed, 1.4)
        XCTAssertLessThan(elapsed, 1.5 + IMAPTestCase.timeout)
        XCTAssertEqual(try imap.uidSearch([.all]), [])
    }

    /// The tick runs every `tickSeconds` while the IDLE goes on (no DONE sent) and ends the IDLE when it returns true.
    func testTheTickRunsDuringIdleWithoutLeavingItAndCanEndIt() throws {
        let sent = Locked<[String]>([])
        let imap = try connect(endpoint(.tls)) { line in sent.withLock { $0.append(line) } }
        try imap.authenticate(username: user, credential: .password(password), mechanism: .plain)
        _ = try imap.select(.inbox)
        var ticks = 0
        var doneBeforeLastTick = false
        let started = Date()
        try imap.idle(timeoutSeconds: 60, tickSeconds: 0.3, tick: {
            ticks += 1
            doneBeforeLastTick = doneBeforeLastTick || sent.withLock { $0.contains { $0.hasPrefix("C: DONE") } }
            return ticks == 5
        }) { _ in true }
        XCTAssertEqual(ticks, 5)
        XCTAssertFalse(doneBeforeLastTick, "the ticks ran inside the IDLE")
        XCTAssertTrue(sent.withLock { $0.contains { $0.hasPrefix("C: DONE") } })
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "ended by the tick, not at the timeout")
        XCTAssertEqual(try imap.uidSearch([.all]), [], "the connection is usable after IDLE")
    }

    /// A tick that works longer than the command's deadline (1 s here) is not taken for a silent server.
    func testASlowTickIsNotTakenForASilentServer() throws {
        var e = endpoint(.tls)
        e.commandTimeoutSeconds = 1
        let imap = try connect(e)
        try imap.authenticate(username: user, credential: .password(password), mechanism: .plain)
        _ = try imap.select(.inbox)
        var ticks = 0
        try imap.idle(timeoutSeconds: 2, tickSeconds: 0.3, tick: {
            ticks += 1
            if ticks == 1 { Thread.sleep(forTimeInterval: 3) }
            return false
        }) { _ in true }
        XCTAssertGreaterThanOrEqual(ticks, 1)
        XCTAssertEqual(try imap.uidSearch([.all]), [], "the connection is usable after IDLE")
    }
}
