import SecureTransport

extension SMTPConnection {
    /// Connects, does TLS (implicit for `.tls`), reads the greeting and says `EHLO`; for
    /// `.starttls` it then upgrades with STARTTLS — throwing ``SMTPClientError/startTLSUnavailable(host:)``
    /// when the server does not offer it and ``SMTPClientError/tlsFailed(reason:)`` when it
    /// refuses, never going on in plaintext — and says `EHLO` again.
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
        extensions = SMTPExtensions(ehlo: try run("EHLO \(clientName)", stage: .hello))
    }

    /// Upgrades the plain connection with STARTTLS, then says `EHLO` again (RFC 3207 §4.2: what
    /// the server said before TLS is forgotten).
    private func startTLS() throws(SMTPClientError) {
        guard extensions.startTLS else { throw .startTLSUnavailable(host: endpoint.host) }
        let reply = try command("STARTTLS", stage: .startTLS)
        guard reply.code == 220 else { throw .transport(.tlsFailed(reason: "the server refused STARTTLS: \(reply)")) }
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
