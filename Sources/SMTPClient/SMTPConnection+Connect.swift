import SecureTransport

extension SMTPConnection {
    /// Connects, does TLS (implicit for `.tls`), reads the greeting and says `EHLO`; for
    /// `.starttls` it then upgrades with STARTTLS — throwing ``SMTPClientError/startTLSUnavailable(host:)``
    /// when the server does not offer it, ``SMTPClientError/temporaryFailure(stage:reply:)`` when it
    /// refuses for now (4xx, RFC 3207: try again later) and a TLS failure when it refuses for good, never
    /// going on in plaintext — and says `EHLO` again. A greeting that is not an SMTP reply is a
    /// ``SMTPClientError/protocolError(_:)`` naming the host and port (a glitch, or not an SMTP port).
    ///
    /// The certificate must chain to the system trust store or to ``ServerEndpoint/caFile`` and
    /// name the host. `trace` receives the protocol lines, credentials redacted, for debugging.
    /// `clientName` is the name given in `EHLO`; the default address literal tells the server
    /// nothing about the machine.
    package static func connect(_ endpoint: ServerEndpoint, clientName: String = "[127.0.0.1]",
                               trace: ((String) -> Void)? = nil) throws(SMTPClientError) -> SMTPConnection {
        let transport: SecureConnection
        do throws(TransportError) {
            transport = try SecureConnection.open(endpoint, trace: trace)
        } catch {
            throw .transport(error)
        }
        let connection = SMTPConnection(endpoint: endpoint, clientName: clientName, transport: transport, trace: trace)
        do throws(SMTPClientError) {
            connection.greeting = try connection.readGreeting()
            try connection.hello()
            if endpoint.security == .starttls { try connection.startTLS() }
        } catch {
            // Closed with what was met; thrown as said here (a greeting's error names the host and port).
            _ = connection.fail(error)
            throw error
        }
        return connection
    }

    /// The server's 220 greeting; one that is not an SMTP reply says where it came from, as a server
    /// that is not an SMTP server (an IMAP port given for SMTP) answers so too.
    private func readGreeting() throws(SMTPClientError) -> SMTPReply {
        let reply: SMTPReply
        do throws(SMTPClientError) {
            reply = try readReply(at: .greeting)
        } catch {
            // Nothing in plain text where STARTTLS was asked for: most likely an implicit-TLS port, waiting for TLS.
            if endpoint.security == .starttls, case .transport(let t) = error {
                switch t {
                case .timeout(let seconds), .deadlinePassed(let seconds): throw .transport(.noGreeting(seconds: seconds))
                default: break
                }
            }
            guard case .protocolError(let what) = error else { throw error }
            throw .protocolError("\(endpoint.host):\(endpoint.port) did not greet as an SMTP server (\(what)); "
                                 + "if this persists, check that it is the SMTP submission host and port")
        }
        return try require(reply, stage: .greeting)
    }

    /// `EHLO`, taking the extensions the server announces.
    func hello() throws(SMTPClientError) {
        extensions = SMTPExtensions(ehlo: try run("EHLO \(clientName)", stage: .hello))
    }

    /// Upgrades the plain connection with STARTTLS, then says `EHLO` again (RFC 3207 §4.2: what
    /// the server said before TLS is forgotten).
    private func startTLS() throws(SMTPClientError) {
        guard extensions.startTLS else { throw .startTLSUnavailable(host: endpoint.host) }
        let reply = try command("STARTTLS", stage: .startTLS)
        guard reply.code == 220 else {
            // 454 (RFC 3207: TLS not available for a temporary reason) is tried again later; nothing went in plaintext.
            if reply.isTransientFailure { throw .temporaryFailure(stage: .startTLS, reply: reply) }
            throw .transport(.tlsFailed(reason: "the server refused STARTTLS (\(reply)); refusing to go on without TLS "
                                            + "(does it offer implicit TLS, port 465?)"))
        }
        // Anything already received after the 220 was sent before TLS: it could be injected.
        guard parser.bufferedByteCount == 0 else {
            throw .protocolError("the server sent data right after accepting STARTTLS (a possible injection); refusing it")
        }
        do throws(TransportError) {
            try transport.startTLS()
        } catch {
            throw .transport(error)
        }
        traceLine("TLS established")
        extensions = SMTPExtensions()
        try hello()
    }
}
