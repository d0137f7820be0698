/// Why an OAuth 2.0 step failed, and what the user can do. Never holds a token, code or secret.
public enum OAuthError: Error, CustomStringConvertible, Equatable {
    /// The account's OAuth settings are wrong or missing (issuer, client id, endpoints).
    case invalidConfiguration(String)
    /// The authorization or token server could not be reached (retryable).
    case unreachable(String)
    /// The server answered something that is not OAuth (bad JSON, bad HTTP).
    case server(String)
    /// The refresh token was revoked or expired (`invalid_grant`): the user must sign in again.
    case signInAgain(account: String, detail: String)
    /// The organization's administrator must approve the app first (Entra AADSTS65001/90094, E-26).
    case adminConsentRequired(String)
    /// The user refused, or the server refused the request (`error` and `error_description`).
    case refused(error: String, description: String)
    /// The sign-in was not completed in time (device code expired, no redirect arrived).
    case timedOut(String)
    /// The account has no tokens yet.
    case notSignedIn(String)
    /// Another process (`holder`, when known) was refreshing the account's tokens and did not finish within the
    /// `waitedSeconds` this refresh had (its lock on the token file, ``OAuthRefreshLock``).
    case refreshInProgress(account: String, holder: Int32?, waitedSeconds: Double)

    public var description: String {
        switch self {
        case .invalidConfiguration(let m): "OAuth settings: \(m)"
        case .unreachable(let m): "cannot reach the OAuth server (\(m)); try again later"
        case .server(let m): "the OAuth server answered something unexpected: \(m)"
        case .signInAgain(let account, let detail):
            "the sign-in for \(account) is no longer valid (\(detail)); run `mailstore account login \(account)` again"
        case .adminConsentRequired(let m):
            "Your organization requires admin consent: an administrator must approve mailstore for your organization "
                + "(or use an app password where allowed). The server said: \(m)"
        case .refused(let error, let description):
            "the sign-in was refused: \(error)\(description.isEmpty ? "" : ": \(description)")"
        case .timedOut(let m): "the sign-in did not complete: \(m); run the command again"
        case .notSignedIn(let account): "\(account) is not signed in; run `mailstore account login \(account)`"
        case .refreshInProgress(let account, let holder, let waited):
            "\(holder.map { "process \($0)" } ?? "another mailstore process") was refreshing the sign-in of \(account) "
                + "and did not finish within the \(String(format: "%.1f", waited)) s this command could wait; nothing was changed, "
                + "run the command again"
        }
    }

    /// Whether trying again later may succeed (the server could not be reached or failed on its side, another
    /// process's refresh took the time).
    public var isRetryable: Bool {
        switch self {
        case .unreachable, .refreshInProgress: true
        default: false
        }
    }

    /// Whether a person must act before it can work (sign in again, approve the app, fix the OAuth settings):
    /// the server or the user refused the credential or the sign-in. Exit 6 in the CLI; the rest (the server
    /// could not be reached, answered garbage, the sign-in ran out of time) is exit 5.
    public var needsUser: Bool {
        switch self {
        case .invalidConfiguration, .signInAgain, .adminConsentRequired, .refused, .notSignedIn: true
        case .unreachable, .server, .timedOut, .refreshInProgress: false
        }
    }

    /// The text of ``unreachable(_:)`` (and of the other cases, their description).
    var detail: String {
        if case .unreachable(let m) = self { return m }
        return description
    }

    /// The error an OAuth error response (`error`, `error_description`) stands for.
    static func fromResponse(error: String, description: String, account: String) -> OAuthError {
        let text = (error + " " + description).lowercased()
        if text.contains("aadsts65001") || text.contains("aadsts90094") || text.contains("admin consent")
            || text.contains("consent_required") {
            return .adminConsentRequired(description.isEmpty ? error : description)
        }
        if error == "invalid_grant" { return .signInAgain(account: account, detail: description.isEmpty ? error : description) }
        return .refused(error: error, description: description)
    }
}
