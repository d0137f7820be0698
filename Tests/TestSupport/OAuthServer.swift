import Foundation

/// The local OAuth 2.0 server of Tools/test-server/oauth-server (`$MAILSTORE_TEST_OAUTH`, else started now),
/// with the Dovecot and SMTP server in the same folder that accept its tokens. Its HTTP endpoints are driven
/// here with curl (as a browser or the user would), never with mailstore's own client.
package struct OAuthServer: Sendable {
    /// `http://127.0.0.1:PORT`.
    package let issuer: String
    package let clientID: String
    /// The user the server signs in by default.
    package let user: String
    /// Dovecot with an oauth2 passdb introspecting at `issuer`.
    package let imap: IMAPServer
    /// aiosmtpd accepting XOAUTH2 and OAUTHBEARER tokens of `issuer`.
    package let smtp: SMTPServer
    package let dir: String

    init(dir: String, script: String) throws {
        let values = try ServerEnvironmentFile.read(dir + "/oauth-env", required: ["OAUTH_ISSUER", "OAUTH_CLIENT_ID", "OAUTH_USER"],
                                                    startCommand: "\(script) start \(dir)")
        issuer = values["OAUTH_ISSUER"]!
        clientID = values["OAUTH_CLIENT_ID"]!
        user = values["OAUTH_USER"]!
        imap = try IMAPServer(dir: dir, script: (script as NSString).deletingLastPathComponent + "/dovecot", personality: .dovecot)
        smtp = try SMTPServer(dir: dir)
        self.dir = dir
    }

    /// GETs `url` without following redirects; returns the status line's code, the Location header and the body.
    package func get(_ url: String) throws -> (status: Int, location: String?, body: String) {
        let out = try curl(["-s", "-i", "--max-time", "30", url])
        return Self.parse(out)
    }

    /// POSTs the form `fields` to `path` under the issuer; returns the JSON object answered.
    @discardableResult
    package func post(_ path: String, _ fields: [String: String]) throws -> [String: Any] {
        var args = ["-s", "-X", "POST", "--max-time", "30", issuer + path]
        for (k, v) in fields.sorted(by: { $0.key < $1.key }) { args += ["--data-urlencode", "\(k)=\(v)"] }
        let out = try curl(args)
        guard let json = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any] else {
            throw TestServerError("\(path) answered no JSON object: \(out)")
        }
        return json
    }

    /// Every access token issued so far now expired (refresh tokens stay valid).
    package func expireAccessTokens() throws { try post("/control/expire", [:]) }

    /// Revokes `token` (a refresh token also revokes its access tokens).
    package func revoke(_ token: String) throws { try post("/revoke", ["token": token]) }

    /// What `/control/family` answers about the sign-in (the refresh token family) a refresh token belongs to.
    package struct Family {
        /// Refreshes granted.
        package var refreshes: Int
        /// Refreshes waiting out the family's delay now.
        package var pending: Int
        /// Whether the family was revoked (a revocation, or a rotated-out refresh token used again).
        package var revoked: Bool
        /// The new refresh token, after `rotateNow`.
        package var refreshToken: String?
    }

    /// Switches refresh token rotation (`rotate`: each refresh issues a new one, the old one refused), reuse detection
    /// (`reuseDetection`: a rotated-out one used again revokes the whole sign-in) and a `delay` (seconds) before each
    /// refresh answers for the sign-in `refreshToken` belongs to only (nil leaves a setting as it is), or rotates its
    /// current refresh token at once (`rotateNow`, as another client's refresh would); returns its state.
    @discardableResult
    package func family(of refreshToken: String, rotate: Bool? = nil, reuseDetection: Bool? = nil, delay: Double? = nil,
                        rotateNow: Bool = false) throws -> Family {
        var fields = ["token": refreshToken]
        if let rotate { fields["rotate"] = rotate ? "1" : "0" }
        if let reuseDetection { fields["reuse_detection"] = reuseDetection ? "1" : "0" }
        if let delay { fields["delay"] = String(delay) }
        if rotateNow { fields["rotate_now"] = "1" }
        let j = try post("/control/family", fields)
        guard let refreshes = j["refreshes"] as? Int, let pending = j["pending"] as? Int, let revoked = j["revoked"] as? Bool else {
            throw TestServerError("/control/family answered \(j)")
        }
        return Family(refreshes: refreshes, pending: pending, revoked: revoked, refreshToken: j["refresh_token"] as? String)
    }

    /// An access and refresh token for `user` through the device grant, approved at once.
    package func tokens(for user: String? = nil) throws -> (access: String, refresh: String) {
        let d = try post("/device", ["client_id": clientID, "scope": "mail"])
        guard let code = d["device_code"] as? String, let userCode = d["user_code"] as? String,
              let uri = d["verification_uri"] as? String else { throw TestServerError("bad device answer \(d)") }
        _ = try get(uri + "?user_code=\(userCode)&login_hint=\(user ?? self.user)")
        let t = try post("/token", ["client_id": clientID, "device_code": code,
                                    "grant_type": "urn:ietf:params:oauth:grant-type:device_code"])
        guard let access = t["access_token"] as? String, let refresh = t["refresh_token"] as? String else {
            throw TestServerError("no tokens: \(t)")
        }
        return (access, refresh)
    }

    private func curl(_ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        p.arguments = args
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static func parse(_ response: String) -> (status: Int, location: String?, body: String) {
        let parts = response.components(separatedBy: "\r\n\r\n")
        let head = parts.first ?? ""
        let lines = head.components(separatedBy: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let location = lines.first { $0.lowercased().hasPrefix("location:") }
            .map { String($0.dropFirst(9)).trimmingCharacters(in: .whitespaces) }
        return (status, location, parts.dropFirst().joined(separator: "\r\n\r\n"))
    }
}
