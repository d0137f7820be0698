import Foundation
import SecureTransport
import SMTPClient
import TestSupport
import XCTest

/// A server that takes fewer recipients a transaction than a message has (RFC 5321 4.5.3.1.10): the
/// message goes in several transactions, each reported as accepted, and a refusal still sends nothing.
final class RecipientLimitTests: SMTPTestCase {
    /// Recipients u0...u(n-1)@example.org, with `replacing` put at the given positions.
    func recipients(_ count: Int, replacing: [Int: String] = [:]) -> [String] {
        (0..<count).map { replacing[$0] ?? "u\($0)@example.org" }
    }

    func testMoreRecipientsThanTheServerTakesGoInSeveralTransactionsOnExim() throws {
        // Exim here takes 100 a transaction (Tools/test-server/exim), as Gmail does.
        let smtp = try loggedIn()
        let everyone = recipients(250)
        var deliveries: [SMTPDelivery] = []
        let reply = try smtp.send(from: server.user, recipients: everyone, message: message()) { deliveries.append($0) }
        XCTAssertEqual(reply.code, 250)
        XCTAssertEqual(deliveries.map(\.recipients), [Array(everyone[0..<100]), Array(everyone[100..<200]), Array(everyone[200...])])
        XCTAssertEqual(deliveries.last?.reply, reply)
        let spooled = try server.spooledMessages(containing: marker)
        XCTAssertEqual(spooled.count, 3, "one message per transaction")
        XCTAssertEqual(spooled.flatMap(\.to).sorted(), everyone.sorted(), "every recipient got it once")
        // The connection is fit for the next message.
        try smtp.send(from: server.user, recipients: ["bob@example.com"], message: message())
    }

    func testARefusalAmongTheLaterRecipientsSendsNothingOnExim() throws {
        let smtp = try loggedIn()
        let refused = "fail5xx-late@example.com"
        var deliveries: [SMTPDelivery] = []
        let error = smtpError(try smtp.send(from: server.user, recipients: recipients(150, replacing: [130: refused]),
                                            message: message()) { deliveries.append($0) })
        guard case .recipientsRefused(let list)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertEqual(list.map(\.address), [refused])
        XCTAssertEqual(list.first?.reply.code, 550)
        XCTAssertFalse(error?.isRetryable ?? true)
        XCTAssertEqual(deliveries, [])
        XCTAssertEqual(try server.spooledMessages(containing: marker).count, 0, "nothing went out")
        try smtp.send(from: server.user, recipients: ["bob@example.com"], message: message())
        XCTAssertEqual(try server.spooledMessages(containing: marker).map(\.to), [["bob@example.com"]])
    }

    /// The message a scripted peer reads line by line: "Subject: x", "", "hi", ".".
    static let shortMessage = Array("Subject: x\r\n\r\nhi\r\n".utf8)
    static let messageLines: [ScriptedServer.Step] = Array(repeating: .readLine, count: 4)

    func testA552WithTooManyRecipientsIsALimitTooAndEachGroupIsOfferedBeforeAnythingIsSent() throws {
        let ok = ScriptedServer.Step.send("250 2.0.0 OK\r\n")
        let peer = try ScriptedServer([
            .send("220 peer ESMTP\r\n"), .readLine, .send("250-peer\r\n250 8BITMIME\r\n"),
            // The whole list: a limit of two.
            .readLine, ok, .readLine, ok, .readLine, ok, .readLine, .send("552 5.5.3 Too many recipients\r\n"), .readLine, ok,
            // The rest offered and reset.
            .readLine, ok, .readLine, ok, .readLine, ok,
            // Two transactions.
            .readLine, ok, .readLine, ok, .readLine, ok, .readLine, .send("354 go\r\n")] + Self.messageLines + [
            .send("250 2.0.0 first\r\n"),
            .readLine, ok, .readLine, ok, .readLine, .send("354 go\r\n")] + Self.messageLines + [
            .send("250 2.0.0 second\r\n"), .readLine, .send("221 bye\r\n"), .waitForClose,
        ])
        let smtp = try SMTPConnection.connect(ServerEndpoint(host: "127.0.0.1", port: peer.port, security: .plain,
                                                           timeoutSeconds: Self.timeout))
        var deliveries: [SMTPDelivery] = []
        let reply = try smtp.send(from: "a@example.com", recipients: ["b@example.com", "c@example.com", "d@example.com"],
                                  message: Self.shortMessage) { deliveries.append($0) }
        smtp.quit()
        XCTAssertEqual(reply.text, "second")
        XCTAssertEqual(deliveries.map(\.recipients), [["b@example.com", "c@example.com"], ["d@example.com"]])
        XCTAssertEqual(deliveries.map(\.reply.text), ["first", "second"])
        let mail = "MAIL FROM:<a@example.com>"
        let message = ["Subject: x", "", "hi", "."]
        XCTAssertEqual(try peer.clientLines(), ["EHLO [127.0.0.1]",
            mail, "RCPT TO:<b@example.com>", "RCPT TO:<c@example.com>", "RCPT TO:<d@example.com>", "RSET",
            mail, "RCPT TO:<d@example.com>", "RSET",
            mail, "RCPT TO:<b@example.com>", "RCPT TO:<c@example.com>", "DATA"] + message + [
            mail, "RCPT TO:<d@example.com>", "DATA"] + message + ["QUIT"])
    }

    func testA452MailboxFullIsARefusalNotALimit() throws {
        let ok = ScriptedServer.Step.send("250 2.0.0 OK\r\n")
        let peer = try ScriptedServer([
            .send("220 peer ESMTP\r\n"), .readLine, .send("250-peer\r\n250 8BITMIME\r\n"),
            .readLine, ok, .readLine, ok, .readLine, .send("452 4.2.2 Mailbox full\r\n"), .readLine, ok,
            .readLine, .send("221 bye\r\n"), .waitForClose,
        ])
        let smtp = try SMTPConnection.connect(ServerEndpoint(host: "127.0.0.1", port: peer.port, security: .plain,
                                                           timeoutSeconds: Self.timeout))
        let error = smtpError(try smtp.send(from: "a@example.com", recipients: ["b@example.com", "full@example.com"],
                                            message: Self.shortMessage))
        smtp.quit()
        guard case .recipientsRefused(let list)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertEqual(list.map(\.address), ["full@example.com"])
        XCTAssertTrue(error?.isRetryable ?? false)
        XCTAssertEqual(try peer.clientLines(), ["EHLO [127.0.0.1]", "MAIL FROM:<a@example.com>", "RCPT TO:<b@example.com>",
                                                "RCPT TO:<full@example.com>", "RSET", "QUIT"])
    }

    func testAnErrorRecordingADeliveryStopsTheSendBeforeTheNextTransactionOnExim() throws {
        struct Full: Error {}
        let smtp = try loggedIn()
        var calls = 0
        let error = smtpError(try smtp.send(from: server.user, recipients: recipients(150), message: message()) { _ in
            calls += 1
            throw Full()
        })
        guard case .deliveryNotRecorded? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertFalse(error?.isRetryable ?? true)
        XCTAssertEqual(calls, 1)
        XCTAssertEqual(try server.spooledMessages(containing: marker).map(\.to.count), [100], "the second transaction never began")
    }
}
