import Foundation
import IMAPClient
import IMAPProtocol
import SecureTransport
import TestSupport
import XCTest

/// TLS, STARTTLS and certificate checks against the real server.
final class ConnectionSecurityTests: IMAPTestCase {
    func testImplicitTLSLoginWithTheTestCA() throws {
        let imap = try connect(endpoint(.tls))
        XCTAssertTrue(imap.isEncrypted)
        XCTAssertTrue(imap.has("auth=plain"))
        try imap.authenticate(username: user, credential: .password(password), mechanism: .plain)
        for capability in ["CONDSTORE", "QRESYNC", "MOVE", "UIDPLUS", "SPECIAL-USE", "IDLE", "ENABLE", "ESEARCH"] {
            XCTAssertTrue(imap.has(capability), "\(capability) missing after login: \(imap.capabilities.sorted())")
        }
        XCTAssertFalse(imap.capabilities.contains("AUTH=PLAIN"), "pre-login capabilities were not replaced")
        XCTAssertEqual(try imap.select(.inbox).exists, 0)
    }

    func testStartTLSLoginOnThePlainPort() throws {
        var lines: [String] = []
        let imap = try connect(endpoint(.starttls)) { lines.append($0) }
        XCTAssertTrue(imap.isEncrypted)
        XCTAssertFalse(imap.has("STARTTLS"), "capabilities from before TLS were kept")
        XCTAssertFalse(imap.has("LOGINDISABLED"))
        try imap.authenticate(username: user, credential: .password(password), mechanism: .plain)
        XCTAssertTrue(imap.has("QRESYNC"))
        let startTLS = try XCTUnwrap(lines.firstIndex { $0.hasSuffix(" STARTTLS") && $0.hasPrefix("C: ") })
        let established = try XCTUnwrap(lines.firstIndex(of: "TLS established"))
        XCTAssertLessThan(startTLS, established)
    }

    func testTheTestCertificateIsRejectedWithoutItsCA() throws {
        for security in [ConnectionSecurity.tls, .starttls] {
            XCTAssertThrowsError(try connect(endpoint(security, trustTestCA: false)), "\(security)") { error in
                guard case .transport(.certificateRejected(let host, let reason))? = error as? IMAPClientError else {
                    return XCTFail("\(security): expected certificateRejected, got \(error)")
                }
                XCTAssertEqual(host, server.host)
                XCTAssertTrue(reason.contains("issuer certificate"), reason)
                XCTAssertTrue("\(error)".contains("--ca-file"))
            }
        }
    }

    func testAnAddressTheCertificateDoesNotNameIsRejected() throws {
        // The server also listens on 127.0.0.2; its certificate names only localhost and 127.0.0.1.
        XCTAssertThrowsError(try connect(endpoint(.tls, host: "127.0.0.2"))) { error in
            guard case .transport(.certificateRejected("127.0.0.2", let reason))? = error as? IMAPClientError else {
                return XCTFail("expected certificateRejected, got \(error)")
            }
            XCTAssertTrue(reason.lowercased().contains("mismatch"), reason)
            // What it names instead, and no advice about a CA file (the CA is trusted; the name is what is wrong).
            XCTAssertTrue(reason.contains("it does not name 127.0.0.2 but only localhost, 127.0.0.1"), reason)
            XCTAssertFalse("\(error)".contains("--ca-file"), "\(error)")
        }
    }

    /// A CA file that does not hold the server's CA: said so, not "pass --ca-file" (it was passed).
    func testACAFileWithoutTheServersCASaysSo() throws {
        var other = endpoint(.tls)
        other.caFile = "/etc/ssl/certs/ca-certificates.crt"
        XCTAssertThrowsError(try connect(other)) { error in
            guard case .transport(.certificateRejected(_, let reason))? = error as? IMAPClientError else { return XCTFail("got \(error)") }
            XCTAssertTrue(reason.contains("nor of the CA file /etc/ssl/certs/ca-certificates.crt signed it"), reason)
            XCTAssertFalse("\(error)".contains("pass --ca-file"), "\(error)")
        }
    }

    func testTheHostNameTheCertificateNamesIsAccepted() throws {
        let imap = try connect(endpoint(.tls, host: "localhost"))
        try imap.authenticate(username: user, credential: .password(password), mechanism: .plain)
        XCTAssertTrue(imap.isEncrypted)
    }

    func testAMissingCAFileIsAClearError() throws {
        var missing = endpoint(.tls)
        missing.caFile = server.dir + "/no-such-ca.pem"
        XCTAssertThrowsError(try connect(missing)) { error in
            guard case .transport(.tlsFailed(let reason))? = error as? IMAPClientError else { return XCTFail("got \(error)") }
            XCTAssertTrue(reason.contains("no-such-ca.pem"), reason)
        }
    }

    func testCredentialsAreNeverSentWithoutEncryption() throws {
        var lines: [String] = []
        let imap = try connect(endpoint(.plain)) { lines.append($0) }
        XCTAssertFalse(imap.isEncrypted)
        XCTAssertTrue(imap.has("LOGINDISABLED"), "the relay should make Dovecot treat the plain port as insecure")
        let sentBefore = lines.filter { $0.hasPrefix("C: ") }
        for mechanism in AuthMechanism.allCases {
            let credential: Credential = mechanism == .xoauth2 ? .oauth2Token(password) : .password(password)
            XCTAssertThrowsError(try imap.authenticate(username: user, credential: credential, mechanism: mechanism)) { error in
                XCTAssertEqual(error as? IMAPClientError, .insecureAuthentication)
            }
        }
        XCTAssertEqual(lines.filter { $0.hasPrefix("C: ") }, sentBefore, "something was sent")
        XCTAssertFalse(lines.joined().contains(password))
        XCTAssertNoThrow(try imap.noop(), "the connection stays usable")
    }

    func testConnectingToAClosedPortFails() throws {
        // A free port bound without listening: connecting to it is refused.
        let (socket, port) = try XCTUnwrap(LoopbackSocket.listen(backlog: nil))
        defer { close(socket) }
        XCTAssertThrowsError(try IMAPConnection.connect(ServerEndpoint(host: "127.0.0.1", port: port, security: .tls))) { error in
            guard case .transport(.connectFailed("127.0.0.1", port, let reason))? = error as? IMAPClientError else { return XCTFail("got \(error)") }
            XCTAssertTrue(reason.lowercased().contains("refused"), reason)
        }
    }

    // MARK: - A security mode that does not fit the port

    /// `tls` against the plain (STARTTLS) port: the server greets in plain text, OpenSSL says "wrong version
    /// number"; the error says what that likely means and what to try.
    func testImplicitTLSOnThePlainPortSaysItIsAStartTLSPort() throws {
        let e = ServerEndpoint(host: server.host, port: server.plainPort, security: .tls, caFile: server.caFile, timeoutSeconds: 10)
        XCTAssertThrowsError(try IMAPConnection.connect(e)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("is this a STARTTLS or plain-text port") && text.contains("--security starttls"), text)
            XCTAssertTrue(text.contains("wrong version number"), "OpenSSL's words are kept: \(text)")
        }
    }

    /// `starttls` against the implicit-TLS port: the server waits for a TLS hello and sends no greeting; the error
    /// says so (not "no progress within N seconds").
    func testStartTLSOnTheImplicitTLSPortSaysItIsATLSPort() throws {
        let e = ServerEndpoint(host: server.host, port: server.tlsPort, security: .starttls, caFile: server.caFile, timeoutSeconds: 1.5)
        let start = Date()
        XCTAssertThrowsError(try IMAPConnection.connect(e)) { error in
            guard case .transport(.noGreeting)? = error as? IMAPClientError else { return XCTFail("got \(error)") }
            let text = "\(error)"
            XCTAssertTrue(text.contains("is this an implicit-TLS port") && text.contains("--security tls"), text)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
    }

    /// A server offering only TLS 1.1 or older (a real `openssl s_server -tls1_1`, at security level 0 so that
    /// OpenSSL 3 still speaks it): the error says that mailstore refuses TLS older than 1.2.
    func testAServerOfferingOnlyOldTLSSaysSo() throws {
        for version in ["-tls1_1", "-tls1"] {
            let old = try OldTLSServer(version: version)
            defer { old.stop() }
            let e = ServerEndpoint(host: "127.0.0.1", port: old.port, security: .tls, timeoutSeconds: 10)
            XCTAssertThrowsError(try IMAPConnection.connect(e), version) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains("TLS older than 1.2, which mailstore refuses"), "\(version): \(text)")
            }
        }
        // What OpenSSL says when the server answers with an alert, or a ServerHello of TLS 1.1 (not met with s_server 3.0).
        for words in ["error:0A00042E:SSL routines::tlsv1 alert protocol version", "error:0A000102:SSL routines::unsupported protocol"] {
            XCTAssertTrue("\(TransportError.handshakeFailure(words))".contains("the server offers only TLS older than 1.2, which mailstore refuses"))
        }
        XCTAssertTrue("\(TransportError.handshakeFailure("error:0A00010B:SSL routines::wrong version number"))".contains("--security starttls"))
        XCTAssertEqual(TransportError.handshakeFailure("error:0A000086:SSL routines::certificate verify failed"),
                       .tlsFailed(reason: "error:0A000086:SSL routines::certificate verify failed"))
    }
}
