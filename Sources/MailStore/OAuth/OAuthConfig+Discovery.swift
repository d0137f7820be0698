import Foundation

extension OAuthConfig {
    /// The settings of a custom provider from its metadata (RFC 8414 `/.well-known/oauth-authorization-server`,
    /// else OpenID Connect discovery `/.well-known/openid-configuration`) at `issuer`.
    public static func discover(issuer: String, clientID: String, scopes: [String], caFile: String? = nil) throws(OAuthError) -> OAuthConfig {
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        let http = OAuthHTTP(caFile: caFile)
        var lastStatus = 0
        for path in ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"] {
            let response = try http.get(base + path)
            lastStatus = response.status
            guard response.status == 200,
                  let json = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] else { continue }
            guard let authorization = json["authorization_endpoint"] as? String, let token = json["token_endpoint"] as? String else {
                throw .invalidConfiguration("\(base + path) lacks authorization_endpoint or token_endpoint")
            }
            return OAuthConfig(authorizationEndpoint: authorization, tokenEndpoint: token,
                               deviceAuthorizationEndpoint: json["device_authorization_endpoint"] as? String,
                               revocationEndpoint: json["revocation_endpoint"] as? String, clientID: clientID,
                               scopes: scopes, emailSource: scopes.contains("openid") ? .idToken : .user)
        }
        throw .invalidConfiguration("no OAuth metadata at \(base)/.well-known/ (HTTP \(lastStatus)); check --oauth-issuer")
    }
}
