import EventModel
import Foundation
import SMTPClient

extension OutboxUseCase {
    /// The seconds every attempt has at least, from connecting to the server's reply to the message: 600 (10 minutes);
    /// `MAILSTORE_SEND_ATTEMPT_SECONDS` overrides it (for tests). Each command still has its own 600 s and each read 60 s.
    public static var attemptBaseSeconds: Double {
        ProcessInfo.processInfo.environment["MAILSTORE_SEND_ATTEMPT_SECONDS"].flatMap(Double.init).map { max(0.1, $0) } ?? 600
    }

    /// Message bytes that add one second to an attempt's deadline (64 KiB: a 25 MiB message has 400 s more; a message
    /// the server takes in several transactions goes out several times).
    static let attemptBytesPerSecond = 64 * 1024

    /// The deadline of one attempt to send a message of `messageBytes`: `attemptBaseSeconds` plus one second per
    /// `attemptBytesPerSecond`. Past it the attempt fails as retryable (a stalled or trickling server), unless the whole
    /// message was sent: then it is an unconfirmed delivery.
    static func attemptSeconds(messageBytes: Int) -> Double {
        attemptBaseSeconds + Double(max(0, messageBytes)) / Double(attemptBytesPerSecond)
    }

    /// Whether `error` says the server did not serve the message at all (no connection, a connection that stalled, was
    /// lost or ran past its deadline, a message whose reply never came, a 4xx to the greeting or EHLO such as 421 "too
    /// many connections"): the account's other messages would meet the same.
    static func isServerFailure(_ error: any Error) -> Bool {
        guard let e = error as? SMTPClientError else { return false }
        switch e {
        // `noGreeting`: a STARTTLS connection whose server stalled before its greeting (named so for the hint it gives).
        case .transport(.connectFailed), .transport(.timeout), .transport(.deadlinePassed), .transport(.connectionClosed),
             .transport(.noGreeting), .deliveryUnconfirmed, .temporaryFailure(stage: .greeting, _), .temporaryFailure(stage: .hello, _): return true
        default: return false
        }
    }

    /// What happens next to a message whose delivery is unconfirmed, for its failure's reason: it is sent again by itself
    /// from `retryAt`, and how to keep that second copy from going.
    static func sentAgainNote(_ draftID: String, at retryAt: Timestamp) -> String {
        ". `mailstore outbox send` or `sync --watch` sends it again from \(retryAt.iso8601) (a second copy if the first "
            + "arrived); `mailstore outbox cancel \(draftID)` keeps it from being sent again"
    }
}
