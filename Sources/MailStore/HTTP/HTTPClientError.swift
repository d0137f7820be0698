/// Why an HTTP request of ``HTTPClient`` failed, and what to do about it.
enum HTTPClientError: Error, Equatable, CustomStringConvertible {
    /// Not an absolute `http` or `https` URL.
    case invalidURL(String)
    /// Plain `http` to a host that is not a loopback address: everything else must be `https`.
    case insecureURL(String)
    /// The host could not be reached, or the connection failed midway (retryable).
    case unreachable(String)
    /// The server sent nothing within the time allowed.
    case timeout(host: String, seconds: Double)
    /// The response is not HTTP/1.x as RFC 9112 has it (status line, headers, body framing).
    case badResponse(host: String, String)
    /// The response is longer than the caller allows.
    case tooLarge(host: String, limit: Int)
    /// More redirects than allowed, or a redirect without a usable `Location`.
    case badRedirect(String)

    var description: String {
        switch self {
        case .invalidURL(let u): "\(u) is not an http(s) URL"
        case .insecureURL(let u): "\(u): only https is allowed (plain http only to a loopback address)"
        // A transport's reason says what to check already ("the host name, the port and the network").
        case .unreachable(let m): m.contains("check the") ? "cannot connect: \(m); then try again" : "cannot connect: \(m); check the network and try again"
        case .timeout(let host, let s): "\(host) sent nothing for \(Int(s.rounded(.up))) s"
        case .badResponse(let host, let m): "\(host) sent a bad HTTP response: \(m)"
        case .tooLarge(let host, let limit): "\(host) sent more than \(limit) bytes"
        case .badRedirect(let m): "redirect refused: \(m)"
        }
    }
}
