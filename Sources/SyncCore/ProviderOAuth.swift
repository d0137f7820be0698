/// The OAuth 2.0 side of the provider registry (`oauthConfig` per provider, AC-MP-05): endpoints, scopes
/// and where the email address comes from. Kept apart from ``Provider`` so the registry can take it as a
/// field (`Provider.oauth`) when the two are merged. The client id is the app's registration and given by
/// the user (`--client-id`); nothing here is secret.
package struct ProviderOAuth: Sendable, Equatable {
    package var authorizationEndpoint: String
    package var tokenEndpoint: String
    package var deviceAuthorizationEndpoint: String?
    package var revocationEndpoint: String?
    /// The scopes asked for, exactly as the provider wants them.
    package var scopes: [String]
    /// The redirect: a loopback `http://127.0.0.1:PORT/` chosen at sign-in (RFC 8252), for both providers.
    package var redirect: String
    /// Whether the email address is read from the `id_token` (`email`, else `preferred_username`);
    /// when false the user gives it and the IMAP login checks it.
    package var emailFromIDToken: Bool

    /// Gmail: scope exactly `https://mail.google.com/`; the email is the user's.
    package static let gmail = ProviderOAuth(
        authorizationEndpoint: "https://accounts.google.com/o/oauth2/v2/auth",
        tokenEndpoint: "https://oauth2.googleapis.com/token",
        deviceAuthorizationEndpoint: "https://oauth2.googleapis.com/device/code",
        revocationEndpoint: "https://oauth2.googleapis.com/revoke",
        scopes: ["https://mail.google.com/"], redirect: "http://127.0.0.1", emailFromIDToken: false)

    /// Outlook / Microsoft 365: the Entra `/common/` endpoints; the email from the id_token, never from Graph.
    package static let outlook = ProviderOAuth(
        authorizationEndpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
        tokenEndpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/token",
        deviceAuthorizationEndpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/devicecode",
        revocationEndpoint: nil,
        scopes: ["https://outlook.office365.com/IMAP.AccessAsUser.All", "https://outlook.office365.com/SMTP.Send",
                 "offline_access", "openid", "email", "profile"],
        redirect: "http://127.0.0.1", emailFromIDToken: true)

    /// The settings of the registry provider `id`, or nil (custom servers give theirs with `--oauth-issuer`).
    package static func settings(for id: String) -> ProviderOAuth? {
        switch id {
        case "gmail": gmail
        case "outlook": outlook
        default: nil
        }
    }
}
