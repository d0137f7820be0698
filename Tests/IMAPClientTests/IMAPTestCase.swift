import Foundation
import IMAPClient
import IMAPProtocol
import SecureTransport
import TestSupport
import XCTest

/// A test against the real Dovecot of `TestServers`: every test gets a user (so a mailbox) of
/// its own, and its connections are logged out when it ends.
class IMAPTestCase: XCTestCase {
    /// The seconds a connection waits for each read or write; generous for a loaded CI machine.
    static let timeout: Double = 30

    /// The running server.
    var server: DovecotServer!
    /// This test's user.
    var user = ""
    /// The user's password.
    var password = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try TestServers.dovecot()
        (user, password, _) = try server.newUser()
    }

    /// The server's endpoint for `security`, trusting the test CA unless `trustTestCA` is false.
    func endpoint(_ security: ConnectionSecurity = .tls, host: String? = nil, trustTestCA: Bool = true) -> ServerEndpoint {
        ServerEndpoint(host: host ?? server.host, port: security == .tls ? server.tlsPort : server.plainPort,
                       security: security, caFile: trustTestCA ? server.caFile : nil, timeoutSeconds: Self.timeout)
    }

    /// A connection (logged out when the test ends).
    func connect(_ endpoint: ServerEndpoint, trace: ((String) -> Void)? = nil) throws -> IMAPConnection {
        let connection = try IMAPConnection.connect(endpoint, trace: trace)
        addTeardownBlock { connection.logout() }
        return connection
    }

    /// A connection over implicit TLS, logged in as this test's user.
    func loggedIn(_ security: ConnectionSecurity = .tls, trace: ((String) -> Void)? = nil) throws -> IMAPConnection {
        let connection = try connect(endpoint(security), trace: trace)
        try connection.authenticate(username: user, credential: .password(password), mechanism: .plain)
        return connection
    }

    /// A small RFC 5322 message with CRLF line ends whose body holds IMAP-looking text.
    func message(_ subject: String) -> [UInt8] {
        Array("""
        From: Alice <alice@example.com>\r
        To: Bob <bob@example.com>\r
        Subject: \(subject)\r
        Message-ID: <\(subject.replacingOccurrences(of: " ", with: "-"))@example.com>\r
        Date: Mon, 16 Nov 2026 10:00:00 +0000\r
        \r
        Hello,\r
        * 3 EXISTS is body text, as is this: {5}\r
        A1 OK not a completion.\r

        """.utf8)
    }

    /// Appends `subjects` to `mailbox`, each with its flags, and returns their UIDs.
    func appendMessages(_ connection: IMAPConnection, _ subjects: [(String, [String])],
                        to mailbox: MailboxName = .inbox) throws -> [UInt32] {
        try subjects.map { subject, flags in
            let appended = try XCTUnwrap(connection.append(to: mailbox, message: message(subject), flags: flags))
            return appended.uid
        }
    }
}
