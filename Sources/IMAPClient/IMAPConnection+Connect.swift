import IMAPProtocol
import SecureTransport

extension IMAPConnection {
    /// Connects, reads the greeting, does TLS (implicit TLS for `.tls`; STARTTLS for `.starttls`,
    /// aborting with ``IMAPClientError/startTLSUnavailable(host:)`` when the server does not
    /// offer it, never falling back to plaintext) and reads the capabilities (again after TLS).
    ///
    /// `trace` receives the protocol lines, credentials redacted, for debugging.
    package static func connect(_ endpoint: ServerEndpoint, trace: ((String) -> Void)? = nil) throws(IMAPClientError) -> IMAPConnection {
        let transport: SecureConnection
        do throws(TransportError) {
            transport = try SecureConnection.open(endpoint, trace: trace)
        } catch {
            throw .transport(error)
        }
        let connection = IMAPConnection(endpoint: endpoint, transport: transport, trace: trace)
        try connection.readGreeting()
        if endpoint.security == .starttls { try connection.startTLS() }
        if connection.capabilities.isEmpty { try connection.refreshCapabilities() }
        return connection
    }

    /// Asks the server for its capabilities (`CAPABILITY`).
    func refreshCapabilities() throws(IMAPClientError) {
        capabilities = []
        try run(.capability, name: "CAPABILITY")
        if capabilities.isEmpty { throw fail(.protocolError("the server answered CAPABILITY without listing any")) }
    }

    /// Reads the server's greeting (`* OK`, or `* PREAUTH`), taking capabilities it carries.
    private func readGreeting() throws(IMAPClientError) {
        let greeting: IMAPResponse
        do throws(IMAPClientError) {
            greeting = try nextResponse()
        } catch {
            // Nothing in plain text where STARTTLS was asked for: most likely an implicit-TLS port, waiting for TLS.
            guard endpoint.security == .starttls else { throw error }
            switch error {
            case .transport(.timeout(let seconds)), .deadlinePassed(_, let seconds): throw .transport(.noGreeting(seconds: seconds))
            default: throw error
            }
        }
        switch greeting {
        case .untagged(.condition(.ok, let code, _)), .untagged(.condition(.preauth, let code, _)):
            if case .capability(let names)? = code { capabilities = Set(names.map { $0.uppercased() }) }
        case .untagged(.condition(.bye, _, let text)):
            throw fail(.transport(.connectionClosed("the server refused the connection: \(text)")))
        default:
            throw fail(.protocolError("the server's greeting is not * OK: \(greeting)"))
        }
    }

    /// Upgrades the plain connection with STARTTLS, then reads the capabilities again.
    private func startTLS() throws(IMAPClientError) {
        if capabilities.isEmpty { try refreshCapabilities() }
        guard has("STARTTLS") else { throw fail(.startTLSUnavailable(host: endpoint.host)) }
        try run(.starttls, name: "STARTTLS")
        // Anything already received after the OK was sent before TLS: it could be injected.
        guard parser.bufferedByteCount == 0 else {
            throw fail(.protocolError("the server sent data right after accepting STARTTLS (a possible injection); refusing it"))
        }
        do throws(TransportError) {
            try transport.startTLS()
        } catch {
            throw fail(.transport(error))
        }
        traceLine("TLS established")
        try refreshCapabilities()
    }
}
