import SecureTransport

extension SMTPConnection {
    /// Logs in with SMTP AUTH (RFC 4954).
    ///
    /// Refuses with ``SMTPClientError/insecureAuthentication``, without sending anything, when
    /// the connection is not encrypted, and with ``SMTPClientError/mechanismUnavailable(_:)`` when
    /// the server does not announce `mechanism` in `AUTH` (or it does not fit the credential).
    /// - `.plain`: `AUTH PLAIN` with the initial response;
    /// - `.login`: `AUTH LOGIN`, answering the user name and password challenges;
    /// - `.xoauth2`: `AUTH XOAUTH2` with the token; when the server answers a failure with a
    ///   challenge, an empty line lets it complete with its error (the challenge's failure JSON is
    ///   added to the reply's text);
    /// - `.oauthbearer`: `AUTH OAUTHBEARER` (RFC 7628) likewise, answering a failure with `^A`.
    ///
    /// A rejection throws ``SMTPClientError/authenticationFailed(_:)`` with the server's reply;
    /// the connection stays usable (to try another mechanism).
    package func authenticate(username: String, credential: Credential, mechanism: AuthMechanism) throws(SMTPClientError) {
        guard isEncrypted else { throw .insecureAuthentication }
        try ensureUsable()
        guard extensions.authMechanisms.contains(mechanism.saslName) else {
            let offered = extensions.authMechanisms.sorted().joined(separator: " ")
            throw .mechanismUnavailable("\(mechanism.saslName): the server offers \(offered.isEmpty ? "no AUTH" : "AUTH \(offered)")")
        }
        let reply: SMTPReply
        switch (mechanism, credential) {
        case (.plain, .password(let password)):
            reply = try exchange("AUTH PLAIN " + SASL.plain(user: username, password: password), answers: [])
        case (.login, .password(let password)):
            reply = try exchange("AUTH LOGIN", answers: [SASL.login(username), SASL.login(password)])
        case (.xoauth2, .oauth2Token(let token)):
            reply = try exchange("AUTH XOAUTH2 " + SASL.xoauth2(user: username, token: token), answers: [])
        case (.oauthbearer, .oauth2Token(let token)):
            reply = try exchange("AUTH OAUTHBEARER " + SASL.oauthBearer(user: username, token: token, host: endpoint.host, port: endpoint.port),
                                 answers: [], failureAnswer: "AQ==")
        case (.plain, .oauth2Token), (.login, .oauth2Token):
            throw .mechanismUnavailable("\(mechanism.saslName) needs a password, not an OAuth2 token")
        case (.xoauth2, .password), (.oauthbearer, .password):
            throw .mechanismUnavailable("\(mechanism.saslName) needs an OAuth2 access token, not a password")
        }
        guard reply.code == 235 else {
            guard reply.isTransientFailure || reply.isPermanentFailure else {
                throw fail(.protocolError("unexpected reply to AUTH: \(reply)"))
            }
            throw .authenticationFailed(reply)
        }
        isAuthenticated = true
    }

    /// Sends the AUTH `command`, answers each 334 challenge with the next of `answers` (then with
    /// an empty line, so the server completes) and returns the final reply. Nothing of the
    /// exchange is traced but the mechanism's name.
    private func exchange(_ command: String, answers: [String], failureAnswer: String = "") throws(SMTPClientError) -> SMTPReply {
        let mechanism = command.split(separator: " ")[1]
        var reply = try self.command(command, stage: .authentication, redacted: "AUTH \(mechanism) <redacted>")
        var remaining = answers[...]
        var emptyAnswerSent = false
        var failure: String?
        while reply.code == 334 {
            if let answer = remaining.popFirst() {
                reply = try self.command(answer, stage: .authentication, redacted: "<redacted>")
            } else {
                guard !emptyAnswerSent else { throw fail(.protocolError("the server kept asking during AUTH \(mechanism)")) }
                emptyAnswerSent = true
                failure = SASL.oauthFailure(reply.lines.joined())
                reply = try self.command(failureAnswer, stage: .authentication)
            }
        }
        if let failure, reply.code != 235 {
            reply = SMTPReply(code: reply.code, lines: reply.lines + [failure], enhancedCode: reply.enhancedCode)
        }
        return reply
    }
}
