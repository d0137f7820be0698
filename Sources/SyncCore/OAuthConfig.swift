/// How a provider signs users in with OAuth 2.0: plain data the sign-in code (`account login`) reads from the
/// registry. Endpoints are absolute HTTPS URLs; the client id is the public (secret-less) id of an installed app.
public struct OAuthConfig: Sendable, Equatable {
    /// Where the account's email address comes from after sign-in.
    public enum EmailResolution: String, Sendable, Equatable {
        /// The user types it; the IMAP login validates it (Gmail).
        case userProvided
        /// The `email` claim of the `id_token`, else `preferred_username` (Outlook; never Microsoft Graph).
        case idTokenClaims
    }

    /// The authorization endpoint (authorization code with PKCE, RFC 7636).
    public var authorizationEndpoint: String
    /// The token endpoint (code exchange and refresh).
    public var tokenEndpoint: String
    /// The device authorization endpoint (RFC 8628), for machines without a browser.
    public var deviceAuthorizationEndpoint: String?
    /// The installed app's public client id.
    public var clientID: String
    /// The scopes requested, in order.
    public var scopes: [String]
    /// The redirect: a loopback URI (RFC 8252) whose port is chosen when listening.
    public var redirect: String
    /// How the email address is found.
    public var emailResolution: EmailResolution

    public init(authorizationEndpoint: String, tokenEndpoint: String, deviceAuthorizationEndpoint: String?,
                clientID: String, scopes: [String], redirect: String = "http://127.0.0.1",
                emailResolution: EmailResolution) {
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.clientID = clientID
        self.scopes = scopes
        self.redirect = redirect
        self.emailResolution = emailResolution
    }

    /// The registry's settings for a provider, from its sign-in data (`ProviderOAuth`, the one place the
    /// endpoints and scopes are written) with a placeholder client id: the user's app registration
    /// (`--client-id`) replaces it at sign-in.
    init(_ p: ProviderOAuth, clientID: String) {
        self.init(authorizationEndpoint: p.authorizationEndpoint, tokenEndpoint: p.tokenEndpoint,
                  deviceAuthorizationEndpoint: p.deviceAuthorizationEndpoint, clientID: clientID, scopes: p.scopes,
                  redirect: p.redirect, emailResolution: p.emailFromIDToken ? .idTokenClaims : .userProvided)
    }

    /// Gmail: scope exactly `https://mail.google.com/`; the email address is user-provided.
    public static let gmail = OAuthConfig(ProviderOAuth.gmail, clientID: "mailstore-desktop.apps.googleusercontent.com")

    /// Outlook / Microsoft 365 through Entra's `/common/` endpoints (consumer and organisational accounts).
    public static let outlook = OAuthConfig(ProviderOAuth.outlook, clientID: "mailstore-desktop")
}
