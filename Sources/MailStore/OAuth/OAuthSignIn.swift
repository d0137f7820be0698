import Foundation

/// Interactive sign-in: the authorization code grant with PKCE through a loopback redirect (RFC 8252: a
/// listener on 127.0.0.1, the URL printed and a browser opened when there is one), or the device grant
/// (RFC 8628). `say` receives what the user must see (the URL, the code); never a token.
public enum OAuthSignIn {
    /// The longest a sign-in waits for the user.
    public static let defaultTimeoutSeconds = 300.0
    /// The most bytes of a redirect request read.
    static let maxRequestBytes = 16 * 1024

    /// Signs in through the browser and returns the tokens.
    public static func browser(_ client: OAuthClient, loginHint: String?, openBrowser: Bool = true,
                               timeoutSeconds: Double = defaultTimeoutSeconds,
                               say: (String) -> Void) throws(OAuthError) -> OAuthClient.Tokens {
        let listener = try LoopbackListener()
        defer { listener.close() }
        let redirect = "http://127.0.0.1:\(listener.port)/"
        let (verifier, challenge) = OAuthClient.pkce()
        let state = OAuthClient.randomState()
        let url = client.authorizationURL(redirect: redirect, challenge: challenge, state: state, loginHint: loginHint)
        say("Open this URL in a browser to sign in (waiting on \(redirect)):\n\(url)")
        if openBrowser { open(url) }
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while true {
            let query = try listener.nextRedirect(deadline: deadline)
            guard query["state"] == state else { continue }   // not ours (another tab, a probe): keep waiting
            if let error = query["error"] {
                throw OAuthError.fromResponse(error: error, description: query["error_description"] ?? "", account: client.account)
            }
            guard let code = query["code"], !code.isEmpty else { continue }
            return try client.exchange(code: code, verifier: verifier, redirect: redirect)
        }
    }

    /// Signs in with the device grant: shows the code and where to enter it, then polls.
    public static func device(_ client: OAuthClient, timeoutSeconds: Double = defaultTimeoutSeconds,
                              say: (String) -> Void) throws(OAuthError) -> OAuthClient.Tokens {
        let d = try client.startDevice()
        say("On any device, open \(d.verificationURI) and enter the code \(d.userCode)")
        return try client.pollDevice(d, deadline: Date().addingTimeInterval(timeoutSeconds))
    }

    /// Opens `url` with xdg-open when a graphical session is there (best effort, never waited for).
    static func open(_ url: String) {
        let env = ProcessInfo.processInfo.environment
        guard env["DISPLAY"] != nil || env["WAYLAND_DISPLAY"] != nil,
              FileManager.default.isExecutableFile(atPath: "/usr/bin/xdg-open") else { return }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/xdg-open")
        p.arguments = [url]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try? p.run()
    }
}

/// A TCP listener on 127.0.0.1 (a free port) that reads one HTTP request per connection and answers a
/// short page: the redirect target of a browser sign-in.
final class LoopbackListener {
    let fd: Int32
    let port: UInt16

    init() throws(OAuthError) {
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard s >= 0 else { throw .unreachable("cannot open a socket: \(String(cString: strerror(errno)))") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, len) } }
        guard bound == 0, listen(s, 8) == 0,
              withUnsafeMutablePointer(to: &addr, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(s, $0, &len) } }) == 0
        else {
            let reason = String(cString: strerror(errno))
            Glibc.close(s)
            throw .unreachable("cannot listen on 127.0.0.1: \(reason)")
        }
        fd = s
        port = UInt16(bigEndian: addr.sin_port)
    }

    func close() { Glibc.close(fd) }

    /// Waits for the next request and returns its query parameters (empty for a request without any).
    func nextRedirect(deadline: Date) throws(OAuthError) -> [String: String] {
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw .timedOut("no answer from the browser within the time allowed") }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(min(left, 1) * 1000))
            if ready <= 0 { continue }
            let c = accept(fd, nil, nil)
            guard c >= 0 else { continue }
            defer { Glibc.close(c) }
            var tv = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            var request: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while request.count < LoopbackListener.maxBytes, !request.containsHeaderEnd {
                let n = read(c, &buffer, buffer.count)
                guard n > 0 else { break }
                request += buffer[0..<n]
            }
            let line = String(decoding: request.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
            let parts = line.split(separator: " ")
            guard parts.count >= 2, parts[0] == "GET" else { continue }
            let query = URLComponents(string: String(parts[1]))?.queryItems ?? []
            var result: [String: String] = [:]
            for item in query { result[item.name] = item.value ?? "" }
            let page = result["error"] != nil
                ? "Sign-in refused. You can close this window and return to mailstore."
                : "Signed in. You can close this window and return to mailstore."
            let response = "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(page.utf8.count)\r\n"
                + "Connection: close\r\n\r\n" + page
            _ = response.utf8CString.withUnsafeBufferPointer { write(c, $0.baseAddress, $0.count - 1) }
            if !result.isEmpty { return result }
        }
    }

    static let maxBytes = OAuthSignIn.maxRequestBytes
}

extension Array where Element == UInt8 {
    fileprivate var containsHeaderEnd: Bool {
        count >= 4 && (0...(count - 4)).contains { self[$0] == 13 && self[$0 + 1] == 10 && self[$0 + 2] == 13 && self[$0 + 3] == 10 }
    }
}
