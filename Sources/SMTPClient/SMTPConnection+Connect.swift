import SecureTransport

extension SMTPConnection {
    /// Connects, does TLS (implicit for `.tls`), reads the greeting and says `EHLO`; for
    /// `.starttls` it then upgrades with STARTTLS — throwing ``SMTPClientError/startTLSUnavailable(host:)``
    /// when the server does not offer it and ``SMTPClientError/tlsFailed(reason:)`` when it
    /// refuses, never going on in plaintext — and says `EHLO` again.
    ///
    /// The certificate must chain to the system trust store or to ``SMTPEndpoint/caFile`` and
    /// name the host. `trace` receives the protocol lines, credentials redacted, for debugging.
    public static func connect(_ endpoint: SMTPEndpoint, trace: ((String) -> Void)? = nil) throws(SMTPClientError) -> SMTPConnection {
        let transport: SecureConnection
        do throws(TransportError) {
            transport = try SecureConnection.open(host: endpoint.host, port: endpoint.port, security: endpoint.security == .tls ? .tls : .plain,
                                                  caFile: endpoint.caFile, timeoutSeconds: endpoint.timeoutSeconds,
                                                  trace: trace, mode: endpoint.security.rawValue)
        } catch {
            throw SMTPClientError(error)
        }
        let connection = SMTPConnection(endpoint: endpoint, transport: transport, trace: trace)
        do throws(SMTPClientError) {
            connection.greeting = try connection.require(try connection.readReply(at: .greeting), stage: .greeting)
            try connection.hello()
            if endpoint.security == .starttls { try connection.startTLS() }
        } catch {
            throw connection.fail(error)
        }
        return connection
    }

    /// `EHLO`, taking the extensions the server announces.
    func hello() throws(SMTPClientError) {
        extensions = SMTPExtensions(ehlo: try run("EHLO \(endpoint.clientName)", stage: .hello))
    }

    /// Upgrades the plain connection with STARTTLS, then says `EHLO` again (RFC 3207 §4.2: what
    /// the server said before TLS is forgotten).
    private func startTLS() throws(SMTPClientError) {
        guard extensions.startTLS else { throw .startTLSUnavailable(host: endpoint.host) }
        let reply = try command("STARTTLS", stage: .startTLS)
        guard reply.code == 220 else { throw .tlsFailed(reason: "the server refused STARTTLS: \(reply)") }
        // Anything already received after the 220 was sent before TLS: it could be injected.
        guard parser.bufferedByteCount == 0 else {
            throw .protocolError("the server sent data right after accepting STARTTLS (a possible injection); refusing it")
        }
        do throws(TransportError) {
            try transport.startTLS()
        } catch {
            throw SMTPClientError(error)
        }
        traceLine("TLS established")
        extensions = SMTPExtensions()
        try hello()
    }
}
