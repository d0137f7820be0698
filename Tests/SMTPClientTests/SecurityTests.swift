import Foundation
import SecureTransport
import SMTPClient
import TestSupport
import XCTest

/// Certificates, STARTTLS and credentials: what the client refuses to do.
final class SecurityTests: SMTPTestCase {
    func testTheTestCertificateIsRejectedWithoutItsCA() throws {
        for security in [ConnectionSecurity.tls, .starttls] {
            let error = smtpError(try SMTPConnection.connect(endpoint(security, trustTestCA: false)))
            guard case .transport(.certificateRejected(let host, let reason))? = error else {
                XCTFail("\(security): expected certificateRejected, got \(String(describing: error))")
                continue
            }
            XCTAssertEqual(host, server.host)
            XCTAssertTrue(reason.contains("issuer certificate"), reason)
            XCTAssertFalse(error?.isRetryable ?? true)
        }
    }

    func testAMissingCAFileIsAClearError() throws {
        var missing = endpoint(.tls)
        missing.caFile = "/nonexistent/no-such-ca.pem"
        let error = smtpError(try SMTPConnection.connect(missing))
        guard case .transport(.tlsFailed(let reason))? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(reason.contains("no-such-ca.pem"), reason)
    }

    func testCredentialsAreNeverSentWithoutEncryption() throws {
        var lines: [String] = []
        let smtp = try connect(.plain) { lines.append($0) }
        XCTAssertFalse(smtp.isEncrypted)
        XCTAssertTrue(smtp.extensions.startTLS)
        let sentBefore = lines.filter { $0.hasPrefix("C: ") }
        for mechanism in AuthMechanism.allCases {
            let credential: Credential = mechanism == .xoauth2 ? .oauth2Token(password) : .password(password)
            let error = smtpError(try smtp.authenticate(username: server.user, credential: credential, mechanism: mechanism))
            XCTAssertEqual(error, .insecureAuthentication)
        }
        XCTAssertEqual(lines.filter { $0.hasPrefix("C: ") }, sentBefore, "something was sent")
        XCTAssertFalse(lines.joined().contains(password))
        // Without AUTH the server refuses mail, and says so with a permanent error.
        let error = smtpError(try smtp.send(from: server.user, recipients: ["bob@example.com"], message: message()))
        guard case .permanentFailure(.mailFrom, let reply)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertEqual(reply.code, 530)
    }

    func testStartTLSIsRequiredAndNothingButEHLOIsSentWithoutIt() throws {
        let peer = try ScriptedServer([
            .send("220 peer ESMTP\r\n"), .readLine,
            .send("250-peer\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n"), .waitForClose,
        ])
        let endpoint = ServerEndpoint(host: "127.0.0.1", port: peer.port, security: .starttls, timeoutSeconds: Self.timeout)
        XCTAssertEqual(smtpError(try SMTPConnection.connect(endpoint)), .startTLSUnavailable(host: "127.0.0.1"))
        XCTAssertEqual(try peer.clientLines(), ["EHLO [127.0.0.1]"])
    }

    /// A 454 to STARTTLS is "not now" (RFC 3207): retried later; a 5xx is for good. Neither goes on without TLS.
    func testARefusedStartTLSEndsTheConnection() throws {
        for (answer, temporary) in [("454 4.7.0 TLS not available due to temporary reason", true), ("502 5.5.1 no TLS here", false)] {
            let peer = try ScriptedServer([
                .send("220 peer ESMTP\r\n"), .readLine, .send("250-peer\r\n250 STARTTLS\r\n"), .readLine,
                .send(answer + "\r\n"), .waitForClose,
            ])
            let endpoint = ServerEndpoint(host: "127.0.0.1", port: peer.port, security: .starttls, timeoutSeconds: Self.timeout)
            let error = smtpError(try SMTPConnection.connect(endpoint))
            if temporary {
                guard case .temporaryFailure(.startTLS, let reply)? = error else { return XCTFail("got \(String(describing: error))") }
                XCTAssertEqual(reply.enhancedCode, "4.7.0")
                XCTAssertTrue(error?.isRetryable ?? false)
            } else {
                guard case .transport(.tlsFailed(let reason))? = error else { return XCTFail("got \(String(describing: error))") }
                XCTAssertTrue(reason.contains("502 5.5.1"), reason)
                XCTAssertFalse(error?.isRetryable ?? true)
            }
            XCTAssertFalse("\(error!)".contains("not retried"))
            XCTAssertEqual(try peer.clientLines(), ["EHLO [127.0.0.1]", "STARTTLS"])
        }
    }

    func testBytesInjectedBehindTheStartTLSAnswerAreRefused() throws {
        let peer = try ScriptedServer([
            .send("220 peer ESMTP\r\n"), .readLine, .send("250-peer\r\n250 STARTTLS\r\n"), .readLine,
            .send("220 2.0.0 Ready\r\n250 injected\r\n"), .waitForClose,
        ])
        let endpoint = ServerEndpoint(host: "127.0.0.1", port: peer.port, security: .starttls, timeoutSeconds: Self.timeout)
        let error = smtpError(try SMTPConnection.connect(endpoint))
        guard case .protocolError(let text)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(text.contains("injection"), text)
        _ = try peer.clientLines()
    }

    func testWhatTheServerLacksIsRefusedBeforeSending() throws {
        // A plaintext peer without 8BITMIME and SMTPUTF8; the client gives up before MAIL FROM.
        let peer = try ScriptedServer([
            .send("220 peer ESMTP\r\n"), .readLine, .send("250-peer\r\n250 SIZE 100\r\n"), .readLine,
            .send("221 bye\r\n"), .waitForClose,
        ])
        let smtp = try SMTPConnection.connect(ServerEndpoint(host: "127.0.0.1", port: peer.port, security: .plain,
                                                           timeoutSeconds: Self.timeout))
        XCTAssertEqual(smtpError(try smtp.send(from: "a@example.com", recipients: ["jörg@example.com"], message: Array("x".utf8))),
                       .internationalAddressUnsupported("jörg@example.com"))
        XCTAssertEqual(smtpError(try smtp.send(from: "a@example.com", recipients: ["b@example.com"], message: Array("é".utf8))),
                       .eightBitUnsupported)
        // An address beyond ASCII is what must change first: its header is 8-bit too, and no encoding helps it.
        XCTAssertEqual(smtpError(try smtp.send(from: "a@example.com", recipients: ["jöran@exämple.org"],
                                               message: Array("To: jöran@exämple.org\r\n\r\né".utf8))),
                       .internationalAddressUnsupported("jöran@exämple.org"))
        XCTAssertEqual(smtpError(try smtp.send(from: "a@example.com", recipients: ["b@example.com"],
                                               message: [UInt8](repeating: 0x61, count: 101))),
                       .messageTooLarge(size: 101, limit: 100))
        smtp.quit()
        XCTAssertEqual(try peer.clientLines(), ["EHLO [127.0.0.1]", "QUIT"])
    }

    /// `--smtp-security tls` against the submission (STARTTLS) port: the 220 greeting comes in plain text, OpenSSL
    /// says "wrong version number"; the error says it is likely a STARTTLS port and what to try.
    func testImplicitTLSOnTheSubmissionPortSaysItIsAStartTLSPort() throws {
        let e = ServerEndpoint(host: server.host, port: server.submissionPort, security: .tls, caFile: server.caFile, timeoutSeconds: 10)
        let text = "\(smtpError(try SMTPConnection.connect(e)).map { "\($0)" } ?? "no error")"
        XCTAssertTrue(text.contains("is this a STARTTLS or plain-text port") && text.contains("--smtp-security starttls"), text)
    }

    /// `--smtp-security starttls` against the implicit-TLS port (465): no greeting in plain text; the error says
    /// it is likely an implicit-TLS port.
    func testStartTLSOnTheImplicitTLSPortSaysItIsATLSPort() throws {
        let e = ServerEndpoint(host: server.host, port: server.tlsPort, security: .starttls, caFile: server.caFile, timeoutSeconds: 1.5)
        let error = smtpError(try SMTPConnection.connect(e))
        guard case .transport(.noGreeting)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue("\(error!)".contains("is this an implicit-TLS port"), "\(error!)")
    }
}
