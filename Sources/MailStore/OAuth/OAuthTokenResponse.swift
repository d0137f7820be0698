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
    }

    /// Decodes `body` (at most 1 MiB, so bounded by ``OAuthHTTP``); a body that is not JSON is an error
    /// naming the HTTP status.
    static func decode(_ response: OAuthHTTP.Response) throws(OAuthError) -> OAuthTokenResponse {
        do {
            let r = try JSONDecoder().decode(OAuthTokenResponse.self, from: Data(response.body))
            // `expires_in` may come as a string (Entra's older endpoints).
            return r
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
