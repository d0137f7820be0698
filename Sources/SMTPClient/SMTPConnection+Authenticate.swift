import SecureTransport

extension SMTPConnection {
    /// Logs in with SMTP AUTH (RFC 4954).
    ///
    /// Refuses with ``SMTPClientError/insecureAuthentication``, without sending anything, when
    /// the connection is not encrypted, and with ``SMTPClientError/mechanismUnavailable(_:)`` (saying
    /// what the server offers and what to do) when the server announces no mechanism that fits the credential.
    /// - `.plain`: `AUTH PLAIN` with the initial response;
    /// - `.login`: `AUTH LOGIN`, answering the user name and password challenges;
    /// - `.xoauth2`: `AUTH XOAUTH2` with the token; when the server answers a failure with a
    ///   challenge, an empty line lets it complete with its error (the challenge's failure JSON is
    ///   added to the reply's text);
    /// - `.oauthbearer`: `AUTH OAUTHBEARER` (RFC 7628) likewise, answering a failure with `^A`.
    ///
    /// A password goes with the other password mechanism (PLAIN or LOGIN) when the server does not announce
    /// `mechanism`, or answers it 504 (not implemented): both send the password as it is, which the TLS this
    /// needs protects alike.
    ///
    /// A rejection throws ``SMTPClientError/authenticationFailed(_:)`` with the server's reply;
    /// the connection stays usable (to try another mechanism).
    package func authenticate(username: String, credential: Credential, mechanism: AuthMechanism) throws(SMTPClientError) {
        guard isEncrypted else { throw .insecureAuthentication }
        try ensureUsable()
        let candidates: [AuthMechanism]
        switch (mechanism.isOAuth, credential) {
        case (false, .password):
            candidates = [mechanism] + [AuthMechanism.plain, .login].filter { $0 != mechanism }
        case (true, .oauth2Token):
            candidates = [mechanism]
        case (false, .oauth2Token):
            throw .mechanismUnavailable("\(mechanism.saslName) needs a password, not an OAuth2 token")
        case (true, .password):
            throw .mechanismUnavailable("\(mechanism.saslName) needs an OAuth2 access token, not a password")
        }
        let offered = candidates.filter { extensions.authMechanisms.contains($0.saslName) }
        guard !offered.isEmpty else { throw .mechanismUnavailable(unavailable(mechanism, credential: credential)) }
        for (index, candidate) in offered.enumerated() {
            if candidate != mechanism { traceLine("AUTH \(mechanism.saslName) \(index == 0 ? "not offered" : "refused as not implemented"); "
                                                  + "trying AUTH \(candidate.saslName)") }
            let reply = try exchange(candidate, username: username, credential: credential)
            if reply.code == 235 {
                isAuthenticated = true
                return
            }
            guard reply.isTransientFailure || reply.isPermanentFailure else {
                throw fail(.protocolError("unexpected reply to AUTH: \(reply)"))
            }
            // 504: the server does not implement the mechanism it announced; the next one may do.
            guard reply.code == 504, index < offered.count - 1 else { throw .authenticationFailed(reply) }
        }
        throw .mechanismUnavailable(unavailable(mechanism, credential: credential))
    }

    /// What to say when no mechanism fitting `credential` is announced: what the server offers, and what the user can do.
    private func unavailable(_ mechanism: AuthMechanism, credential: Credential) -> String {
        let names = extensions.authMechanisms.sorted()
        guard !names.isEmpty else {
            return "\(mechanism.saslName): the server offers no AUTH (over TLS): it takes no login, as a relay that accepts mail "
                + "from where it is reached does; mailstore submits only with a login: use your provider's submission server "
                + "(port 587 or 465)"
        }
        let offered = "the server offers AUTH \(names.joined(separator: " "))"
        switch credential {
        case .password:
            if AuthMechanism.oauth(offered: names) != nil {
                return "\(mechanism.saslName): \(offered): it takes an OAuth2 token, not a password: add the account with --auth oauth2"
            }
        case .oauth2Token:
            if names.contains("PLAIN") || names.contains("LOGIN") {
                return "\(mechanism.saslName): \(offered): it takes a password (such as an app password), not an OAuth2 token: "
                    + "add the account with --auth plain and a password source"
            }
        }
        return "\(mechanism.saslName): \(offered), none of which mailstore does (PLAIN, LOGIN, XOAUTH2, OAUTHBEARER): "
            + "use a submission server that offers one of those"
    }

    /// One AUTH exchange with `mechanism` (which fits `credential`); the server's final reply.
    private func exchange(_ mechanism: AuthMechanism, username: String, credential: Credential) throws(SMTPClientError) -> SMTPReply {
        switch (mechanism, credential) {
        case (.plain, .password(let password)):
            return try exchange("AUTH PLAIN " + SASL.plain(user: username, password: password), answers: [])
        case (.login, .password(let password)):
            return try exchange("AUTH LOGIN", answers: [SASL.login(username), SASL.login(password)])
        case (.xoauth2, .oauth2Token(let token)):
            return try exchange("AUTH XOAUTH2 " + SASL.xoauth2(user: username, token: token), answers: [])
        case (.oauthbearer, .oauth2Token(let token)):
            return try exchange("AUTH OAUTHBEARER " + SASL.oauthBearer(user: username, token: token, host: endpoint.host, port: endpoint.port),
                                answers: [], failureAnswer: "AQ==")
        case (.plain, .oauth2Token), (.login, .oauth2Token), (.xoauth2, .password), (.oauthbearer, .password):
            throw .mechanismUnavailable("\(mechanism.saslName) does not fit the credential")
        }
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
