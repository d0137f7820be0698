import EventModel
import Foundation
import IMAPClient
import SecureTransport
import SMTPClient

/// The four-step connection test of an account (AC-MP-06, AC-MP-09): IMAP connect, IMAP auth, SMTP connect,
/// SMTP auth, each reported, all within `budgetSeconds` (10 s, NFR-MPROV-02). It only reads: nothing is
/// recorded, so `account add --test` can run it before the account exists.
public struct ConnectionTest: Sendable {
    /// One step's outcome.
    public struct Check: Sendable, Equatable, Encodable {
        /// `imap-connect`, `imap-auth`, `smtp-connect` or `smtp-auth`.
        public var step: String
        /// `ok`, `failed` or `skipped`.
        public var status: String
        /// What went wrong (or why it was skipped); never a secret.
        public var detail: String?
        public var seconds: Double
    }

    /// The whole test.
    public struct Report: Sendable, Equatable, Encodable {
        public var account: String
        public var checks: [Check]
        /// Said to the user when receiving works but sending will not.
        public var warning: String?
        public var seconds: Double
        /// Whether receiving works (both IMAP steps passed).
        public var imapOK: Bool { checks.filter { $0.step.hasPrefix("imap") }.allSatisfy { $0.status == "ok" } }
        /// Whether every step passed (none failed or was skipped).
        public var ok: Bool { checks.allSatisfy { $0.status == "ok" } }
    }

    /// What an authentication refusal is reported as.
    public static let authRefused = "Invalid email or app password"

    public let account: AccountAdded
    public let budgetSeconds: Double

    public init(account: AccountAdded, budgetSeconds: Double = 10) {
        self.account = account
        self.budgetSeconds = max(1, min(budgetSeconds, 60))
    }

    /// Runs the four steps; an IMAP failure skips IMAP auth, an SMTP failure SMTP auth.
    public func run() -> Report {
        let start = Deadline.now()
        let deadline = Deadline(instant: start + budgetSeconds)
        var checks: [Check] = []
        // Rounded down to a tenth of a second: the limit stands, and a timeout says "9.9 seconds", not 9.999978184700012.
        func remaining() -> Double { max(0.5, (deadline.secondsLeft * 10).rounded(.down) / 10) }
        func step(_ name: String, _ body: () throws -> Void) -> Bool {
            let t = Deadline.now()
            do {
                try body()
                checks.append(Check(step: name, status: "ok", detail: nil, seconds: Deadline.now() - t))
                return true
            } catch {
                checks.append(Check(step: name, status: "failed", detail: ConnectionTest.describe(error),
                                    seconds: Deadline.now() - t))
                return false
            }
        }
        func skip(_ name: String, _ why: String) { checks.append(Check(step: name, status: "skipped", detail: why, seconds: 0)) }
        let mechanism = AuthMechanism(rawValue: account.auth.lowercased()) ?? .plain
        // An OAuth account (auth `oauth2`, or a token file as its secret) logs in with its access token by the OAuth
        // mechanism the server offers (OAUTHBEARER, else XOAUTH2), as sync and send do: never as a password.
        let oauth = mechanism.isOAuth || account.auth.lowercased() == "oauth2"
            || (CredentialSource(stored: account.credentialSource)?.isOAuth ?? false)

        var imap: IMAPConnection?
        if step("imap-connect", {
            guard let security = ConnectionSecurity(rawValue: account.imapSecurity), security != .plain,
                  let port = UInt16(exactly: account.imapPort) else { throw IMAPClientError.insecureAuthentication }
            imap = try IMAPConnection.connect(ServerEndpoint(host: account.imapHost, port: port, security: security,
                                                             caFile: account.caFile, timeoutSeconds: remaining()))
        }), let conn = imap {
            _ = step("imap-auth") {
                let secret = try ConnectionTest.secret(account.credentialSource)
                if oauth {
                    let offered = conn.capabilities.filter { $0.hasPrefix("AUTH=") }.map { String($0.dropFirst(5)) }
                    try conn.authenticate(username: account.username, credential: .oauth2Token(secret),
                                          mechanism: AuthMechanism.oauth(offered: offered) ?? .xoauth2)
                    return
                }
                let credential: Credential = .password(secret)
                do {
                    try conn.authenticate(username: account.username, credential: credential, mechanism: mechanism)
                } catch IMAPClientError.mechanismUnavailable where mechanism == .plain {
                    try conn.authenticate(username: account.username, credential: credential, mechanism: .login)
                }
            }
            conn.logout()
        } else {
            skip("imap-auth", "the IMAP server could not be reached")
        }

        if let host = account.smtpHost {
            var smtp: SMTPConnection?
            if step("smtp-connect", {
                guard let security = ConnectionSecurity(rawValue: account.smtpSecurity ?? "starttls"), security != .plain,
                      let port = account.smtpPort.flatMap({ UInt16(exactly: $0) }) else { throw SMTPClientError.insecureAuthentication }
                smtp = try SMTPConnection.connect(ServerEndpoint(host: host, port: port, security: security, caFile: account.caFile,
                                                                 timeoutSeconds: remaining()))
            }), let conn = smtp {
                _ = step("smtp-auth") {
                    let secret = try ConnectionTest.secret(account.smtpCredentialSource ?? account.credentialSource)
                    // By the SMTP side's own secret, as sending decides: a separate SMTP password is a password.
                    let smtpOAuth = account.smtpCredentialSource.flatMap { CredentialSource(stored: $0)?.isOAuth } ?? oauth
                    try conn.authenticate(username: account.smtpUsername ?? account.username,
                                          credential: smtpOAuth ? .oauth2Token(secret) : .password(secret),
                                          mechanism: smtpOAuth ? AuthMechanism.oauth(offered: conn.extensions.authMechanisms) ?? .xoauth2 : mechanism)
                }
                conn.quit()
            } else {
                skip("smtp-auth", "the SMTP server could not be reached")
            }
        } else {
            skip("smtp-connect", "no SMTP server is configured (--smtp-host)")
            skip("smtp-auth", "no SMTP server is configured (--smtp-host)")
        }
        var report = Report(account: account.name, checks: checks, warning: nil, seconds: Deadline.now() - start)
        if report.imapOK && !report.ok {
            report.warning = "receiving works, but sending won't: " + (checks.first { $0.step.hasPrefix("smtp") && $0.status != "ok" }?.detail ?? "SMTP failed")
        }
        return report
    }

    static func secret(_ stored: String) throws -> String {
        guard let source = CredentialSource(stored: stored) else {
            throw AccountError.invalid("the credential source \"\(stored)\" is not understood")
        }
        return try source.secret()
    }

    /// A step's error for the user: an authentication refusal is "Invalid email or app password" (with the
    /// server's words), anything else its own description (an SMTP server's "try later" or its refusal of the
    /// mechanism is not about the password).
    static func describe(_ error: any Error) -> String {
        switch error {
        case IMAPClientError.authenticationFailed(let text): "\(authRefused) (server: \(text))"
        case SMTPClientError.authenticationFailed(let reply) where reply.isPermanentFailure && SMTPClientError.mechanismRefusal(reply) == nil:
            "\(authRefused) (server: \(reply.code) \(reply.lines.joined(separator: " ")))"
        default: "\(error)"
        }
    }
}
