import Foundation

/// A token endpoint's answer (RFC 6749 5.1), or its error (5.2).
struct OAuthTokenResponse: Sendable, Decodable {
    var accessToken: String?
    var refreshToken: String?
    var expiresIn: Double?
    var idToken: String?
    var error: String?
    var errorDescription: String?
    // RFC 8628 device authorization response.
    var deviceCode: String?
    var userCode: String?
    var verificationURI: String?
    var verificationURIComplete: String?
    var interval: Double?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", refreshToken = "refresh_token", expiresIn = "expires_in", idToken = "id_token"
        case error, errorDescription = "error_description", deviceCode = "device_code", userCode = "user_code"
        case verificationURI = "verification_uri", verificationURIComplete = "verification_uri_complete", interval
        case verificationURL = "verification_url"
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try c.decodeIfPresent(String.self, forKey: .accessToken)
        refreshToken = try c.decodeIfPresent(String.self, forKey: .refreshToken)
        idToken = try c.decodeIfPresent(String.self, forKey: .idToken)
        error = try c.decodeIfPresent(String.self, forKey: .error)
        errorDescription = try c.decodeIfPresent(String.self, forKey: .errorDescription)
        deviceCode = try c.decodeIfPresent(String.self, forKey: .deviceCode)
        userCode = try c.decodeIfPresent(String.self, forKey: .userCode)
        // Google's device endpoint names it `verification_url`.
        verificationURI = try c.decodeIfPresent(String.self, forKey: .verificationURI)
            ?? c.decodeIfPresent(String.self, forKey: .verificationURL)
        verificationURIComplete = try c.decodeIfPresent(String.self, forKey: .verificationURIComplete)
        // Numbers that some servers send as strings (Entra's device code endpoint has sent `expires_in` so).
        expiresIn = OAuthTokenResponse.number(c, .expiresIn)
        interval = OAuthTokenResponse.number(c, .interval)
    }

    private static func number(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) -> Double? {
        if let d = try? c.decodeIfPresent(Double.self, forKey: key) { return d }
        return (try? c.decodeIfPresent(String.self, forKey: key)).flatMap { $0.flatMap(Double.init) }
    }

    /// Decodes `body` (at most 1 MiB, so bounded by ``OAuthHTTP``); a body that is not JSON is an error
    /// naming the HTTP status.
    static func decode(_ response: OAuthHTTP.Response) throws(OAuthError) -> OAuthTokenResponse {
        do {
            return try JSONDecoder().decode(OAuthTokenResponse.self, from: Data(response.body))
        } catch {
            throw .server("HTTP \(response.status) with a body that is not an OAuth JSON answer")
        }
    }

    /// The email in the id_token's payload: `email`, else `preferred_username` (unverified: the token
    /// came straight from the token endpoint over TLS, RFC 6749 / OIDC core 3.1.3.7 allows that).
    static func email(fromIDToken token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[1].count <= 64 * 1024 else { return nil }
        var b64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while b64.count % 4 != 0 { b64 += "=" }
        guard let data = Data(base64Encoded: b64),
              let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        let value = (claims["email"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? (claims["preferred_username"] as? String)
        return value.flatMap { $0.contains("@") ? $0 : nil }
    }
}
