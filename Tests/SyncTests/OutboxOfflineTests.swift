@testable import MailStore
import SecureTransport
import SMTPClient
import XCTest

/// What the outbox takes for "no network" (the message stays queued, no attempt recorded) and for a server that did not
/// serve a message (its account's round stops).
final class OutboxOfflineTests: XCTestCase {
    func testOnlyANoConnectionIsNoNetworkAndAStallAfterItIsAnAttempt() {
        XCTAssertTrue(OutboxUseCase.isOffline(.transport(.connectFailed(host: "h", port: 587, reason: "refused"))))
        // A server that took the connection and never answered (a greeting or TLS handshake that never came).
        XCTAssertFalse(OutboxUseCase.isOffline(.transport(.timeout(seconds: 60))))
        XCTAssertFalse(OutboxUseCase.isOffline(.transport(.deadlinePassed(seconds: 600))))
        for e: SMTPClientError in [.transport(.timeout(seconds: 60)), .transport(.connectFailed(host: "h", port: 1, reason: "x")),
                                   .transport(.deadlinePassed(seconds: 1)), .deliveryUnconfirmed("no reply")] {
            XCTAssertTrue(OutboxUseCase.isServerFailure(e), "\(e)")
        }
        XCTAssertFalse(OutboxUseCase.isServerFailure(SMTPClientError.eightBitUnsupported))
    }

    func testAnAttemptsDeadlineIsTenMinutesAndASecondPer64KiB() {
        XCTAssertEqual(OutboxUseCase.attemptSeconds(messageBytes: 0), 600)
        XCTAssertEqual(OutboxUseCase.attemptSeconds(messageBytes: 25 * 1024 * 1024), 1000)
    }
}
