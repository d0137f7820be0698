import Foundation

extension OAuthConfig {
    /// The settings of a custom provider from its metadata (RFC 8414 `/.well-known/oauth-authorization-server`,
    /// else OpenID Connect discovery `/.well-known/openid-configuration`) at `issuer`. The metadata's `issuer`
    /// must be the one asked for (RFC 8414 3.3, OpenID Connect Discovery 4.3; a trailing `/` aside): metadata
    /// naming another issuer is refused, never used (the mix-up defence), and so is metadata without one.
    public static func discover(issuer: String, clientID: String, scopes: [String], caFile: String? = nil) throws(OAuthError) -> OAuthConfig {
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        let http = OAuthHTTP(caFile: caFile)
        var lastStatus = 0
        for path in ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"] {
            let response = try http.get(base + path)
            lastStatus = response.status
            guard response.status == 200,
                  let json = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] else { continue }
            try checkIssuer(json["issuer"], asked: base, at: base + path)
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

    /// Refuses metadata whose `issuer` is not `asked` (compared without a trailing `/`).
    private static func checkIssuer(_ value: Any?, asked: String, at url: String) throws(OAuthError) {
        guard let named = value as? String, !named.isEmpty else {
            throw .invalidConfiguration("\(url) names no issuer (RFC 8414 requires it), so it cannot be trusted; check --oauth-issuer")
        }
        let trimmed = named.hasSuffix("/") ? String(named.dropLast()) : named
        guard trimmed == asked else {
            // The server's text, cut to 200 characters (it is sanitised when printed).
            let shown = named.count > 200 ? String(named.prefix(200)) + "..." : named
            throw .invalidConfiguration("\(url) is the metadata of the issuer \"\(shown)\", not of \(asked) asked for; "
                                        + "it is not used (RFC 8414 3.3: a mix-up or a misconfigured server). "
                                        + "Check --oauth-issuer (the server's own issuer URL) or ask the server's operator")
        }
    }
}
