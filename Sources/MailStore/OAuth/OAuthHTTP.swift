import Foundation
import SecureTransport
import SyncCore

/// OAuth's HTTP requests: form POSTs and metadata GETs through ``HTTPClient`` (TLS verified, plain `http`
/// only to a loopback address, responses capped at 1 MiB, every wait at `timeoutSeconds`, a whole request at
/// twice that and never past `deadline`), its errors told as ``OAuthError``s.
struct OAuthHTTP: Sendable {
    typealias Response = HTTPResponse

    static let maxResponseBytes = 1 << 20
    var caFile: String?
    var timeoutSeconds: Double = 30
    /// When set, no request waits past it (a command's own time limit); a request started later fails at once. On the
    /// monotonic clock: a wall clock stepped meanwhile neither stretches nor ends it.
    var deadline: Deadline?

    /// POSTs `form` (application/x-www-form-urlencoded) to `url`.
    func post(_ url: String, form: [(String, String)]) throws(OAuthError) -> Response {
        let body = Array(OAuthHTTP.formEncode(form).utf8)
        return try map { () throws(HTTPClientError) in try client.post(url, body: body, contentType: "application/x-www-form-urlencoded") }
    }

    /// GETs `url`.
    func get(_ url: String) throws(OAuthError) -> Response {
        try map { () throws(HTTPClientError) in try client.get(url) }
    }

    /// Seconds left before `deadline` (nil without one).
    var secondsLeft: Double? { deadline.map(\.secondsLeft) }

    private var client: HTTPClient {
        let whole = min(timeoutSeconds * 2, max(0.1, secondsLeft ?? .infinity))
        return HTTPClient(caFile: caFile, timeoutSeconds: min(timeoutSeconds, whole), deadlineSeconds: whole,
                          maxResponseBytes: OAuthHTTP.maxResponseBytes, accept: "application/json")
    }

    /// Checks that `url` is one OAuth may use (https, or http on a loopback address) without asking it anything.
    static func check(_ url: String) throws(OAuthError) {
        _ = try OAuthHTTP().map { () throws(HTTPClientError) in
            _ = try HTTPClient.target(url)
            return Response(status: 0, headers: [:], body: [])
        }
    }

    private func map(_ body: () throws(HTTPClientError) -> Response) throws(OAuthError) -> Response {
        if let left = secondsLeft, left <= 0 { throw .unreachable("no time left for another request within the time allowed") }
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
