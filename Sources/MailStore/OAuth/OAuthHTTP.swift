import Foundation
import SyncCore

/// OAuth's HTTP requests: form POSTs and metadata GETs through ``HTTPClient`` (TLS verified, plain `http`
/// only to a loopback address, responses capped at 1 MiB, every wait at `timeoutSeconds`), its errors told
/// as ``OAuthError``s.
struct OAuthHTTP: Sendable {
    typealias Response = HTTPResponse

    static let maxResponseBytes = 1 << 20
    var caFile: String?
    var timeoutSeconds: Double = 30

    /// POSTs `form` (application/x-www-form-urlencoded) to `url`.
    func post(_ url: String, form: [(String, String)]) throws(OAuthError) -> Response {
        let body = Array(OAuthHTTP.formEncode(form).utf8)
        return try map { () throws(HTTPClientError) in try client.post(url, body: body, contentType: "application/x-www-form-urlencoded") }
    }

    /// GETs `url`.
    func get(_ url: String) throws(OAuthError) -> Response {
        try map { () throws(HTTPClientError) in try client.get(url) }
    }

    private var client: HTTPClient {
        HTTPClient(caFile: caFile, timeoutSeconds: timeoutSeconds, deadlineSeconds: timeoutSeconds * 2,
                   maxResponseBytes: OAuthHTTP.maxResponseBytes, accept: "application/json")
    }

    private func map(_ body: () throws(HTTPClientError) -> Response) throws(OAuthError) -> Response {
        do {
            return try body()
        } catch {
            switch error {
            case .invalidURL, .insecureURL: throw .invalidConfiguration("\(error); OAuth endpoints must be https (http only on a loopback address)")
            case .unreachable, .timeout: throw .unreachable("\(error)")
            case .badResponse, .tooLarge, .badRedirect: throw .server("\(error)")
            }
        }
    }

    /// `application/x-www-form-urlencoded` of `pairs` (RFC 6749 appendix B).
    static func formEncode(_ pairs: [(String, String)]) -> String {
        pairs.map { percentEncode($0.0) + "=" + percentEncode($0.1) }.joined(separator: "&")
    }

    /// Percent-encodes all but the unreserved characters (RFC 3986).
    static func percentEncode(_ s: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-._~")
        return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
