import Foundation
import SecureTransport
import NativeCodecs

/// The OAuth 2.0 client side: authorization URL with PKCE (RFC 7636), code exchange, refresh with retries,
/// the device authorization grant (RFC 8628) and revocation (RFC 7009). Blocking; every request bounded by
/// ``OAuthHTTP``. `account` only names the account in errors.
public struct OAuthClient: Sendable {
    public var config: OAuthConfig
    public var account: String
    var http: OAuthHTTP
    /// Seconds before the first retry of a refresh the server could not answer; doubled each time (3 retries).
    var retryDelay: Double = 1
    /// How a wait is done (tests pass a no-op).
    var sleep: @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }

    public init(config: OAuthConfig, account: String, caFile: String? = nil) {
        self.config = config
        self.account = account
        self.http = OAuthHTTP(caFile: caFile)
    }

    /// Fresh tokens: an access token, its expiry, the refresh token (a new one when the server rotates it)
    /// and the email found in an id_token.
    public struct Tokens: Sendable {
        public var accessToken: String
        public var expires: Date
        public var refreshToken: String?
        public var email: String?
    }

    /// A PKCE verifier (43 characters from 32 random bytes) and its S256 challenge.
    public static func pkce() -> (verifier: String, challenge: String) {
        var rng = SystemRandomNumberGenerator()
        let verifier = base64URL((0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) })
        let digest = (try? SHA256Hasher().hash(Array(verifier.utf8))) ?? []
        return (verifier, base64URL(digest))
    }

    /// A random `state` value.
    public static func randomState() -> String {
        var rng = SystemRandomNumberGenerator()
        return base64URL((0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) })
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The URL the user opens to sign in (authorization code with PKCE).
    public func authorizationURL(redirect: String, challenge: String, state: String, loginHint: String?) -> String {
        var q: [(String, String)] = [("response_type", "code"), ("client_id", config.clientID), ("redirect_uri", redirect),
                                     ("scope", config.scopes.joined(separator: " ")), ("code_challenge", challenge),
                                     ("code_challenge_method", "S256"), ("state", state)]
        if config.authorizationEndpoint.contains("accounts.google.com") {
            q += [("access_type", "offline"), ("prompt", "consent")]
        }
        if let loginHint { q.append(("login_hint", loginHint)) }
        return config.authorizationEndpoint + (config.authorizationEndpoint.contains("?") ? "&" : "?") + OAuthHTTP.formEncode(q)
    }

    /// Exchanges an authorization code for tokens.
    public func exchange(code: String, verifier: String, redirect: String) throws(OAuthError) -> Tokens {
        try tokens(grant: [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirect),
                           ("code_verifier", verifier)])
    }

    /// New tokens from `refreshToken`: up to 3 retries with exponential backoff (1, 2, 4 s) when the server cannot
    /// be reached or fails on its side; a revoked token is ``OAuthError/signInAgain(account:detail:)`` at once.
    /// With a `deadline` (the caller's own time limit) every request and wait ends by it: a retry whose wait
    /// would pass it is not made, and the last error says the time ran out.
    public func refresh(_ refreshToken: String, deadline: Date? = nil) throws(OAuthError) -> Tokens {
        try refresh(refreshToken, until: deadline.map(Deadline.init(wall:)))
    }

    /// ``refresh(_:deadline:)`` with the deadline on the monotonic clock.
    func refresh(_ refreshToken: String, until deadline: Deadline?) throws(OAuthError) -> Tokens {
        let client = bounded(by: deadline)
        var attempt = 0
        while true {
            do {
                return try client.tokens(grant: [("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
            } catch where error.isRetryable && attempt < 3 {
                let wait = retryDelay * pow(2, Double(attempt))
                if let deadline, wait >= deadline.secondsLeft {
                    throw .unreachable("\(error.detail); no time left to try again within the time allowed")
                }
                sleep(wait)
                attempt += 1
            }
        }
    }

    /// This client with every request ending by `deadline` (itself when nil).
    func bounded(by deadline: Deadline?) -> OAuthClient {
        guard let deadline else { return self }
        var c = self
        c.http.deadline = .earlier(deadline, c.http.deadline ?? deadline)
        return c
    }

    /// A device authorization (RFC 8628 3.2): what to show the user and how to poll.
    public struct DeviceAuthorization: Sendable {
        public var deviceCode: String
        public var userCode: String
        public var verificationURI: String
        public var verificationURIComplete: String?
        public var interval: Double
    }

    /// Starts the device grant.
    public func startDevice() throws(OAuthError) -> DeviceAuthorization {
        guard let endpoint = config.deviceAuthorizationEndpoint else {
            throw .invalidConfiguration("this provider has no device authorization endpoint; sign in without --device")
        }
        let r = try OAuthTokenResponse.decode(try http.post(endpoint, form: clientForm([("scope", config.scopes.joined(separator: " "))])))
        if let error = r.error { throw OAuthError.fromResponse(error: error, description: r.errorDescription ?? "", account: account) }
        guard let device = r.deviceCode, let user = r.userCode, let uri = r.verificationURI else {
            throw .server("the device authorization answer lacks device_code, user_code or verification_uri")
        }
        // Printed as the place to go: only a web address the user can safely open (not `javascript:`, `file:` ...).
        do throws(OAuthError) { try OAuthHTTP.check(uri) } catch {
            throw .server("the device authorization answer's verification_uri is not an https URL; it is not shown")
        }
        guard user.count <= 64 else { throw .server("the device authorization answer's user_code is over 64 characters") }
        return DeviceAuthorization(deviceCode: device, userCode: user, verificationURI: uri,
                                   verificationURIComplete: r.verificationURIComplete,
                                   interval: min(max(r.interval ?? 5, 1), 60))
    }

    /// Polls the token endpoint until the user approved `device` or `deadline` passes: waits the server's
    /// interval between polls (5 s more after each `slow_down`, RFC 8628 3.5), never past `deadline`, and
    /// every poll ends by it too.
    public func pollDevice(_ device: DeviceAuthorization, deadline: Date) throws(OAuthError) -> Tokens {
        try pollDevice(device, until: Deadline(wall: deadline))
    }

    /// ``pollDevice(_:deadline:)`` with the deadline on the monotonic clock.
    func pollDevice(_ device: DeviceAuthorization, until deadline: Deadline) throws(OAuthError) -> Tokens {
        let client = bounded(by: deadline)
        var interval = device.interval
        while true {
            let left = deadline.secondsLeft
            guard left > interval else {
                if left > 0 { sleep(left) }
                throw .timedOut("the code was not approved in time")
            }
            sleep(interval)
            do {
                return try client.tokens(grant: [("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
                                                 ("device_code", device.deviceCode)])
            } catch .refused(let error, _) where error == "authorization_pending" {
                continue
            } catch .refused(let error, _) where error == "slow_down" {
                interval = min(interval + 5, 60)
            } catch .unreachable where deadline.hasPassed {
                throw .timedOut("the code was not approved in time")
            }
        }
    }

    /// Revokes `token` (a refresh token) at the revocation endpoint (RFC 7009), every wait ending by
    /// `deadline`. Returns false when the provider has no revocation endpoint; throws when the server could not
    /// be reached or did not answer HTTP 200.
    @discardableResult
    public func revoke(_ token: String, deadline: Date? = nil) throws(OAuthError) -> Bool {
        try revoke(token, until: deadline.map(Deadline.init(wall:)))
    }

    /// ``revoke(_:deadline:)`` with the deadline on the monotonic clock.
    @discardableResult
    func revoke(_ token: String, until deadline: Deadline?) throws(OAuthError) -> Bool {
        guard let endpoint = config.revocationEndpoint else { return false }
        let response = try bounded(by: deadline).http.post(endpoint, form: clientForm([("token", token),
                                                                                       ("token_type_hint", "refresh_token")]))
        guard response.status == 200 else { throw .server("the revocation endpoint answered HTTP \(response.status)") }
        return true
    }

    private func clientForm(_ form: [(String, String)]) -> [(String, String)] {
        [("client_id", config.clientID)] + (config.clientSecret.isEmpty ? [] : [("client_secret", config.clientSecret)]) + form
    }

    private func tokens(grant: [(String, String)]) throws(OAuthError) -> Tokens {
        let response = try http.post(config.tokenEndpoint, form: clientForm(grant))
        if response.status >= 500 { throw .unreachable("the token endpoint answered HTTP \(response.status)") }
        let r = try OAuthTokenResponse.decode(response)
        if let error = r.error { throw OAuthError.fromResponse(error: error, description: r.errorDescription ?? "", account: account) }
        guard let access = r.accessToken, !access.isEmpty else { throw .server("the token answer has no access_token") }
        let lifetime = min(max(r.expiresIn ?? 3600, 1), 86400 * 30)
        return Tokens(accessToken: access, expires: Date().addingTimeInterval(lifetime), refreshToken: r.refreshToken,
                      email: r.idToken.flatMap(OAuthTokenResponse.email(fromIDToken:)))
    }
}
