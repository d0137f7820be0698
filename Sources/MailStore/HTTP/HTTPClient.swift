import Foundation
import SecureTransport
import SyncCore

/// The small blocking HTTP/1.1 client mailstore needs (OAuth's token and metadata requests, account
/// discovery's autoconfig GET): one request per connection (`Connection: close`), over TLS 1.2+ with the
/// certificate and host name verified (`caFile`: an extra trusted CA, for tests); plain `http` only to a
/// loopback address (a local test server, RFC 8252's loopback redirect).
///
/// Bounds: a response (headers and body) is at most `maxResponseBytes` and is refused as soon as it passes
/// it; every wait is at most `timeoutSeconds` and a whole request at most `deadlineSeconds`; at most
/// `maxRedirects` redirects are followed, each to a URL allowed as above.
///
/// It replaced Foundation's `URLSession` for discovery: `FoundationNetworking` links libcurl and its
/// ~20 libraries into the process, which cost every `mailstore` command ~6.5 ms of start-up.
struct HTTPClient: Sendable {
    var caFile: String?
    var timeoutSeconds: Double = 30
    var deadlineSeconds: Double = 60
    var maxResponseBytes = 1 << 20
    var maxRedirects = 0
    /// Sent as `Accept`.
    var accept = "*/*"

    /// GETs `url`, following up to `maxRedirects` redirects (with none allowed, a redirect is returned as it is,
    /// for the caller to judge by its status).
    func get(_ url: String) throws(HTTPClientError) -> HTTPResponse {
        var current = url
        var hops = 0
        while true {
            let response = try send("GET", current, body: [], contentType: nil)
            guard maxRedirects > 0, [301, 302, 303, 307, 308].contains(response.status) else { return response }
            guard hops < maxRedirects else { throw .badRedirect("more than \(maxRedirects) redirects from \(url)") }
            guard let location = response.headers["location"], let base = URL(string: current),
                  let next = URL(string: location, relativeTo: base)?.absoluteURL.absoluteString else {
                throw .badRedirect("\(current) answered HTTP \(response.status) without a usable Location")
            }
            current = next
            hops += 1
        }
    }

    /// POSTs `body` as `contentType` to `url` (redirects are not followed).
    func post(_ url: String, body: [UInt8], contentType: String) throws(HTTPClientError) -> HTTPResponse {
        try send("POST", url, body: body, contentType: contentType)
    }

    /// Whether `host` is a loopback address or name.
    static func isLoopback(_ host: String) -> Bool {
        ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host.lowercased())
    }

    /// Where `url` points and how to reach it; throws for a URL this client may not use.
    static func target(_ url: String) throws(HTTPClientError) -> (host: String, port: UInt16, security: ConnectionSecurity, path: String, hostHeader: String) {
        guard let u = URL(string: url), let scheme = u.scheme?.lowercased(), let host = u.host, !host.isEmpty,
              !host.contains(where: { $0.isWhitespace || $0.isNewline }) else { throw .invalidURL(url) }
        let security: ConnectionSecurity
        switch scheme {
        case "https": security = .tls
        case "http" where isLoopback(host): security = .plain
        case "http": throw .insecureURL(url)
        default: throw .invalidURL(url)
        }
        guard let port = UInt16(exactly: u.port ?? (security == .tls ? 443 : 80)), port > 0 else { throw .invalidURL(url) }
        var path = u.path.isEmpty ? "/" : u.path
        if let q = u.query { path += "?" + q }
        // A path or query with a raw space or line break would break the request line.
        guard !path.contains(where: { $0.isWhitespace || $0.isNewline }) else { throw .invalidURL(url) }
        return (host, port, security, path, host + (u.port.map { ":\($0)" } ?? ""))
    }

    private func send(_ method: String, _ url: String, body: [UInt8], contentType: String?) throws(HTTPClientError) -> HTTPResponse {
        let t = try HTTPClient.target(url)
        var head = "\(method) \(t.path) HTTP/1.1\r\nHost: \(t.hostHeader)\r\n"
            + "User-Agent: mailstore\r\nAccept: \(accept)\r\nConnection: close\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        if method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        let raw: [UInt8]
        do {
            let conn = try SecureConnection.open(ServerEndpoint(host: t.host, port: t.port, security: t.security, caFile: caFile,
                                                                timeoutSeconds: timeoutSeconds))
            defer { conn.close() }
            conn.setDeadline(secondsFromNow: deadlineSeconds)
            try conn.write(Array(head.utf8) + body)
            var received: [UInt8] = []
            while true {
                // Empty at the end of the stream; nil when a wait passed with nothing (a stalled server).
                guard let chunk = try conn.read(maxCount: 64 * 1024) else { throw HTTPClientError.timeout(host: t.host, seconds: timeoutSeconds) }
                if chunk.isEmpty { break }
                received += chunk
                guard received.count <= maxResponseBytes else { throw HTTPClientError.tooLarge(host: t.host, limit: maxResponseBytes) }
            }
            raw = received
        } catch let error as HTTPClientError {
            throw error
        } catch TransportError.deadlinePassed(let seconds) {
            throw .timeout(host: t.host, seconds: seconds)
        } catch {
            throw .unreachable("\(t.host):\(t.port): \(error)")
        }
        return try HTTPClient.parse(raw, from: t.host)
    }

    /// Parses a whole response (read to the connection's end): `HTTPResponseParser`, its refusal named by `host`.
    static func parse(_ raw: [UInt8], from host: String) throws(HTTPClientError) -> HTTPResponse {
        do {
            return try HTTPResponseParser.parse(raw)
        } catch {
            throw .badResponse(host: host, error.reason)
        }
    }
}
