import IMAPProtocol
import SecureTransport

extension IMAPConnection {
    /// Logs in, then reads the capabilities again (from the `OK [CAPABILITY ...]` code, or with
    /// a CAPABILITY command).
    ///
    /// Refuses with ``IMAPClientError/insecureAuthentication``, without sending anything, when
    /// the connection is not encrypted.
    /// - `.plain`: `AUTHENTICATE PLAIN` (initial response inline when SASL-IR is advertised);
    ///   needs `AUTH=PLAIN` advertised.
    /// - `.xoauth2`: `AUTHENTICATE XOAUTH2` with an OAuth2 token; needs `AUTH=XOAUTH2`. When the
    ///   server answers a failure with a continuation, an empty line is sent so it completes with NO;
    ///   the failure JSON in that continuation is added to the error's text.
    /// - `.oauthbearer`: `AUTHENTICATE OAUTHBEARER` (RFC 7628) likewise; needs `AUTH=OAUTHBEARER`.
    /// - `.login`: the `LOGIN` command; refused when the server advertises LOGINDISABLED.
    ///
    /// A rejection by the server throws ``IMAPClientError/authenticationFailed(_:)`` with its text.
    package func authenticate(username: String, credential: Credential, mechanism: AuthMechanism) throws(IMAPClientError) {
        guard isEncrypted else { throw .insecureAuthentication }
        try ensureUsable()
        let completion: Completion
        switch (mechanism, credential) {
        case (.plain, .password(let password)):
            completion = try authenticate(sasl: "PLAIN", initialResponse: SASL.plain(user: username, password: password))
        case (.xoauth2, .oauth2Token(let token)):
            completion = try authenticate(sasl: "XOAUTH2", initialResponse: SASL.xoauth2(user: username, token: token))
        case (.oauthbearer, .oauth2Token(let token)):
            completion = try authenticate(sasl: "OAUTHBEARER", initialResponse: SASL.oauthBearer(
                user: username, token: token, host: endpoint.host, port: endpoint.port))
        case (.login, .password(let password)):
            guard !has("LOGINDISABLED") else {
                throw .mechanismUnavailable("LOGIN: the server advertises LOGINDISABLED")
            }
            completion = try execute(.login(username: username, password: password), name: "LOGIN",
                                     redacted: "LOGIN <credentials redacted>")
        case (.plain, .oauth2Token), (.login, .oauth2Token):
            throw .mechanismUnavailable("\(mechanism.rawValue.uppercased()) needs a password, not an OAuth2 token")
        case (.xoauth2, .password), (.oauthbearer, .password):
            throw .mechanismUnavailable("\(mechanism.saslName) needs an OAuth2 access token, not a password")
        }
        guard completion.status == .ok else { throw IMAPConnection.loginRefusal(completion, "LOGIN") }
        if case .capability? = completion.code { return }
        try refreshCapabilities()
    }

    /// The error for a refused login: `temporarilyUnavailable` for a NO whose code says the refusal is temporary (RFC
    /// 5530's own example: `[UNAVAILABLE]`, the authentication backend down), to retry rather than end a watch on as
    /// wrong credentials; else `authenticationFailed`.
    static func loginRefusal(_ completion: Completion, _ command: String) -> IMAPClientError {
        temporaryFailure(completion, command) ?? .authenticationFailed(completion.text)
    }

    /// `AUTHENTICATE mechanism` with a one-step SASL exchange; returns the completion when it is OK, else
    /// throws ``IMAPClientError/authenticationFailed(_:)`` with the server's text and any failure JSON.
    private func authenticate(sasl mechanism: String, initialResponse: String) throws(IMAPClientError) -> Completion {
        guard has("AUTH=\(mechanism)") else {
            throw .mechanismUnavailable("\(mechanism): the server does not advertise AUTH=\(mechanism)")
        }
        let inline = has("SASL-IR")
        var responseSent = inline
        var failure: String?
        let completion = try execute(.authenticate(mechanism: mechanism, initialResponse: inline ? initialResponse : nil),
                           name: "AUTHENTICATE", redacted: "AUTHENTICATE \(mechanism) <redacted>",
                           continuation: { challenge in
                               // After the response, a challenge carries failure details (XOAUTH2,
                               // OAUTHBEARER): kept for the error; an empty line (RFC 7628: ^A) lets the
                               // server complete with NO.
                               if responseSent {
                                   failure = SASL.oauthFailure(challenge)
                                   return mechanism == "OAUTHBEARER" ? "AQ==" : ""
                               }
                               responseSent = true
                               return initialResponse
                           })
        guard completion.status == .ok else {
            if let temporary = IMAPConnection.temporaryFailure(completion, "AUTHENTICATE") { throw temporary }
            throw .authenticationFailed(completion.text + (failure.map { " (\($0))" } ?? ""))
        }
        return completion
    }
}
