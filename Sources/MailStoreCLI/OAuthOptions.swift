import ArgumentParser
import Foundation
import MailStore

/// The OAuth 2.0 options of `account add --auth oauth2` and `account login`.
struct OAuthOptions: ParsableArguments {
    @Option(help: ArgumentHelp("OAuth: the authorization server of a custom provider (its metadata is read from /.well-known/).",
                               valueName: "url")) var oauthIssuer: String?
    @Option(help: ArgumentHelp("OAuth: the app's client id (your registration with the provider).", valueName: "id")) var clientId: String?
    @Option(help: ArgumentHelp("OAuth: a scope to ask for (repeatable; a custom provider's default is \"mail\").",
                               valueName: "scope")) var oauthScope: [String] = []
    @Flag(help: "OAuth: sign in with a code entered on another device (RFC 8628), for machines without a browser.") var device = false
    @Flag(help: "OAuth: print the sign-in URL only, never open a browser.") var noBrowser = false
    @Option(parsing: .unconditional, help: ArgumentHelp("OAuth: seconds to wait for the sign-in (default 300).", valueName: "seconds")) var signInTimeout: Double?

    /// Checks what `account add --auth oauth2` needs (`provider`: the one `--provider` declares, else the host's).
    func validate(host: String?, provider: String? = nil) throws {
        guard let clientId, !clientId.isEmpty else { throw ValidationError("--auth oauth2 needs --client-id (your app's registration)") }
        // Without --host the servers (and so the provider) come from the registry when the command runs.
        if let host, oauthIssuer == nil && OAuthConfig.provider(provider ?? MailStore.providerID(forHost: host), clientID: clientId) == nil {
            throw ValidationError("\(host) is not Gmail or Outlook: give --oauth-issuer URL for its OAuth server")
        }
        if let t = signInTimeout, !(t > 0 && t <= 3600) { throw ValidationError("--sign-in-timeout is 1-3600 seconds") }
    }

    /// The OAuth settings: the provider's built-in ones (of `provider`, else the host's), or those the issuer's metadata gives.
    func config(host: String, provider: String? = nil, caFile: String?) throws -> OAuthConfig {
        let id = clientId ?? ""
        if let oauthIssuer {
            return try OAuthConfig.discover(issuer: oauthIssuer, clientID: id, scopes: oauthScope.isEmpty ? ["mail"] : oauthScope,
                                            caFile: caFile)
        }
        guard var config = OAuthConfig.provider(provider ?? MailStore.providerID(forHost: host), clientID: id) else {
            throw ValidationError("\(host) is not Gmail or Outlook: give --oauth-issuer URL")
        }
        if !oauthScope.isEmpty { config.scopes = oauthScope }
        return config
    }

    /// The interactive sign-in these options ask for.
    func signIn(loginHint: String?) -> (OAuthClient) throws -> OAuthClient.Tokens {
        let timeout = signInTimeout ?? OAuthSignIn.defaultTimeoutSeconds
        // Unbuffered, so a caller reading the output sees the URL or code at once; server text sanitised.
        let say: (String) -> Void = { StandardStream.out(Data((TerminalSanitiser.block($0) + "\n").utf8)) }
        return { [device, noBrowser] client in
            device ? try OAuthSignIn.device(client, timeoutSeconds: timeout, say: say)
                : try OAuthSignIn.browser(client, loginHint: loginHint, openBrowser: !noBrowser, timeoutSeconds: timeout, say: say)
        }
    }
}
