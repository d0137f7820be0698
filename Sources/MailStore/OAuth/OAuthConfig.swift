import Foundation
import SyncCore

/// How an account signs in with OAuth 2.0: the provider's endpoints, the app's client id, the scopes and
/// where the email address comes from. Not secret (kept in the account's token file beside the tokens,
/// see ``OAuthTokenFile``).
public struct OAuthConfig: Sendable, Equatable, Codable {
    /// Where the account's email address comes from.
    public enum EmailSource: String, Sendable, Codable {
        /// Given by the user (Gmail: checked by the IMAP login).
        case user
        /// The `id_token`'s `email` claim, else `preferred_username` (Outlook; never from Graph).
        case idToken = "id_token"
    }

    public var authorizationEndpoint: String
    public var tokenEndpoint: String
    public var deviceAuthorizationEndpoint: String?
    public var revocationEndpoint: String?
    public var clientID: String
    /// A client secret, for providers that insist on one for installed apps (Google does; it is not
    /// confidential there). Empty when none.
    public var clientSecret: String
    public var scopes: [String]
    public var emailSource: EmailSource

    public init(authorizationEndpoint: String, tokenEndpoint: String, deviceAuthorizationEndpoint: String? = nil,
                revocationEndpoint: String? = nil, clientID: String, clientSecret: String = "", scopes: [String],
                emailSource: EmailSource) {
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scopes = scopes
        self.emailSource = emailSource
    }

    /// The built-in settings of a registry provider (`gmail`, `outlook`) with `clientID`, or nil.
    public static func provider(_ id: String, clientID: String, clientSecret: String = "") -> OAuthConfig? {
        guard let p = ProviderOAuth.settings(for: id) else { return nil }
        return OAuthConfig(authorizationEndpoint: p.authorizationEndpoint, tokenEndpoint: p.tokenEndpoint,
                           deviceAuthorizationEndpoint: p.deviceAuthorizationEndpoint, revocationEndpoint: p.revocationEndpoint,
                           clientID: clientID, clientSecret: clientSecret, scopes: p.scopes,
                           emailSource: p.emailFromIDToken ? .idToken : .user)
    }
}
