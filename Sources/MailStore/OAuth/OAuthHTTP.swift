import Foundation
import SecureTransport

/// The small HTTP/1.1 client OAuth needs: one form POST or GET per connection (`Connection: close`), over
/// TLS with the certificate and host name verified; plain `http` only to a loopback address (a local test
/// server, RFC 8252's loopback redirect). Responses are capped at 1 MiB and every wait at `timeoutSeconds`.
struct OAuthHTTP: Sendable {
    /// A response: status code and body.
    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    static let maxResponseBytes = 1 << 20
    var caFile: String?
    var timeoutSeconds: Double = 30

    /// POSTs `form` (application/x-www-form-urlencoded) to `url`.
    func post(_ url: String, form: [(String, String)]) throws(OAuthError) -> Response {
        let body = Array(OAuthHTTP.formEncode(form).utf8)
        return try send("POST", url, body: body, contentType: "application/x-www-form-urlencoded")
    }

    /// GETs `url`.
    func get(_ url: String) throws(OAuthError) -> Response { try send("GET", url, body: [], contentType: nil) }

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

    /// Whether `host` is a loopback address or name.
    static func isLoopback(_ host: String) -> Bool {
        ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host.lowercased())
    }

    private func send(_ method: String, _ url: String, body: [UInt8], contentType: String?) throws(OAuthError) -> Response {
        guard let u = URL(string: url), let scheme = u.scheme?.lowercased(), let host = u.host, !host.isEmpty else {
            throw .invalidConfiguration("\(url) is not an http(s) URL")
        }
        let security: ConnectionSecurity
        switch scheme {
        case "https": security = .tls
        case "http" where OAuthHTTP.isLoopback(host): security = .plain
        default: throw .invalidConfiguration("\(url): OAuth endpoints must be https (http only on a loopback address)")
        }
        let port = UInt16(exactly: u.port ?? (security == .tls ? 443 : 80)) ?? 443
        var path = u.path.isEmpty ? "/" : u.path
        if let q = u.query { path += "?" + q }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\(u.port.map { ":\($0)" } ?? "")\r\n"
            + "User-Agent: mailstore\r\nAccept: application/json\r\nConnection: close\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        if method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        do {
            let conn = try SecureConnection.open(ServerEndpoint(host: host, port: port, security: security, caFile: caFile,
                                                                timeoutSeconds: timeoutSeconds))
            defer { conn.close() }
            conn.setDeadline(secondsFromNow: timeoutSeconds * 2)
            try conn.write(Array(head.utf8) + body)
            var raw: [UInt8] = []
            while true {
                // Empty at the end of the stream; nil when a wait passed with nothing (a stalled server).
                guard let chunk = try conn.read(maxCount: 64 * 1024) else {
                    throw OAuthError.unreachable("\(host):\(port) sent nothing for \(Int(timeoutSeconds)) s")
                }
                if chunk.isEmpty { break }
                raw += chunk
                guard raw.count <= OAuthHTTP.maxResponseBytes else {
                    throw OAuthError.server("\(host) sent more than 1 MiB")
                }
            }
            return try OAuthHTTP.parse(raw, from: host)
        } catch let error as OAuthError {
            throw error
        } catch {
            throw .unreachable("\(host):\(port): \(error)")
        }
    }

    /// Parses a whole response (read to the connection's end): status line, headers, body by
    /// Content-Length, chunked, or to the end.
    static func parse(_ raw: [UInt8], from host: String) throws(OAuthError) -> Response {
        let crlfcrlf: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, raw.count - 3)).first(where: { Array(raw[$0..<$0 + 4]) == crlfcrlf }) else {
            throw .server("\(host) sent no complete HTTP response")
        }
        let lines = String(decoding: raw[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw .server("\(host) sent a bad HTTP status line")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(raw[(end + 4)...])
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            body = try dechunk(body, from: host)
        } else if let length = headers["content-length"].flatMap(Int.init), length >= 0, length <= body.count {
            body = Array(body[..<length])
        }
        return Response(status: status, headers: headers, body: body)
    }

    private static func dechunk(_ data: [UInt8], from host: String) throws(OAuthError) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < data.count {
            guard let lineEnd = (i..<max(i, data.count - 1)).first(where: { data[$0] == 13 && data[$0 + 1] == 10 }),
                  let size = Int(String(decoding: data[i..<lineEnd], as: UTF8.self).split(separator: ";")[0]
                    .trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                throw .server("\(host) sent a bad chunked body")
            }
            if size == 0 { break }
            let start = lineEnd + 2
            guard start + size <= data.count else { throw .server("\(host) sent a truncated chunked body") }
            out += data[start..<start + size]
            i = start + size + 2
        }
        return out
    }
}
