import Foundation
import SecureTransport
import SMTPClient
import TestSupport
import XCTest

/// A test against the real aiosmtpd of `TestServers` (or Exim, for a test whose name ends in `OnExim`);
/// its connections are closed when it ends.
class SMTPTestCase: XCTestCase {
    /// The seconds a connection waits for each read or write; generous for a loaded CI machine.
    static let timeout: Double = 30

    /// The running server.
    var server: SMTPServer!
    /// The password of ``SMTPServer/user``.
    var password = ""
    /// A text unique to this test, to find its messages in the spool.
    var marker = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try TestServers.smtp(SMTPPersonality(testName: name))
        password = try server.password()
        marker = "marker-" + UUID().uuidString
    }

    /// The server's endpoint for `security`, trusting the test CA unless `trustTestCA` is false.
    func endpoint(_ security: ConnectionSecurity, trustTestCA: Bool = true) -> ServerEndpoint {
        ServerEndpoint(host: server.host, port: security == .tls ? server.tlsPort : server.submissionPort,
                     security: security, caFile: trustTestCA ? server.caFile : nil, timeoutSeconds: Self.timeout)
    }

    /// A connection (closed with QUIT when the test ends).
    func connect(_ security: ConnectionSecurity, trace: ((String) -> Void)? = nil) throws -> SMTPConnection {
        let connection = try SMTPConnection.connect(endpoint(security), trace: trace)
        addTeardownBlock { connection.quit() }
        return connection
    }

    /// A connection over STARTTLS, logged in with AUTH PLAIN.
    func loggedIn(trace: ((String) -> Void)? = nil) throws -> SMTPConnection {
        let connection = try connect(.starttls, trace: trace)
        try connection.authenticate(username: server.user, credential: .password(password), mechanism: .plain)
        return connection
    }

    /// A small message with CRLF line ends whose subject and body carry ``marker``.
    func message(_ body: String = "Hello.\r\n", to: String = "bob@example.com") -> [UInt8] {
        Array("From: alice@example.com\r\nTo: \(to)\r\nSubject: \(marker)\r\n\r\n\(marker)\r\n\(body)".utf8)
    }
}
