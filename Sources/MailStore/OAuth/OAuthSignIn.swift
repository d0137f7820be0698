import Foundation
import SecureTransport

/// Interactive sign-in: the authorization code grant with PKCE through a loopback redirect (RFC 8252: a
/// listener on 127.0.0.1, the URL printed and a browser opened when there is one), or the device grant
/// (RFC 8628). `say` receives what the user must see (the URL, the code); never a token.
public enum OAuthSignIn {
    /// The longest a sign-in waits for the user.
    public static let defaultTimeoutSeconds = 300.0
    /// The most bytes of a redirect request read.
    static let maxRequestBytes = 16 * 1024

    /// Signs in through the browser and returns the tokens. The endpoints are checked (https, or http on a
    /// loopback address) before the URL is shown, so a sign-in that could not finish is not started. Only the
    /// redirect carrying this sign-in's `state` counts: any other request to the listener (no or another
    /// state, a probe, a forged `error=`) is answered with an error page and the wait goes on, up to
    /// `timeoutSeconds` in all. The browser's page says "Signed in" only once the code was exchanged for tokens.
    public static func browser(_ client: OAuthClient, loginHint: String?, openBrowser: Bool = true,
                               timeoutSeconds: Double = defaultTimeoutSeconds,
                               say: (String) -> Void) throws(OAuthError) -> OAuthClient.Tokens {
        try OAuthHTTP.check(client.config.authorizationEndpoint)
        try OAuthHTTP.check(client.config.tokenEndpoint)
        let listener = try LoopbackListener()
        defer { listener.close() }
        let redirect = "http://127.0.0.1:\(listener.port)/"
        let (verifier, challenge) = OAuthClient.pkce()
        let state = OAuthClient.randomState()
        let url = client.authorizationURL(redirect: redirect, challenge: challenge, state: state, loginHint: loginHint)
        say("Open this URL in a browser to sign in (waiting on \(redirect)):\n\(url)")
        if openBrowser { open(url) }
        // On the monotonic clock: a wall clock stepped back does not stretch the wait (it had, by the step).
        let deadline = Deadline(secondsFromNow: timeoutSeconds)
        while true {
            let request = try listener.nextRequest(deadline: deadline)
            guard request.query["state"] == state else {
                // Not this sign-in's redirect (another tab, a probe, a forged link): nothing happened.
                request.answer(status: 400, "This is not the sign-in mailstore is waiting for; nothing was done. "
                               + "Use the URL mailstore printed.")
                continue
            }
            if let error = request.query["error"] {
                request.answer(status: 400, "Sign-in refused. You can close this window; mailstore says why.")
                throw OAuthError.fromResponse(error: error, description: request.query["error_description"] ?? "",
                                              account: client.account)
            }
            guard let code = request.query["code"], !code.isEmpty else {
                request.answer(status: 400, "The redirect carries no authorization code; nothing was done.")
                continue
            }
            let tokens: OAuthClient.Tokens
            do {
                tokens = try client.exchange(code: code, verifier: verifier, redirect: redirect)
            } catch {
                request.answer(status: 502, "Sign-in failed. You can close this window; mailstore says why.")
                throw error
            }
            request.answer(status: 200, "Signed in. You can close this window and return to mailstore.")
            return tokens
        }
    }

    /// Signs in with the device grant: shows the code and where to enter it (an https address only), then
    /// polls; `timeoutSeconds` bounds the whole of it, the first request included.
    public static func device(_ client: OAuthClient, timeoutSeconds: Double = defaultTimeoutSeconds,
                              say: (String) -> Void) throws(OAuthError) -> OAuthClient.Tokens {
        try OAuthHTTP.check(client.config.tokenEndpoint)
        let deadline = Deadline(secondsFromNow: timeoutSeconds)
        let d = try client.bounded(by: deadline).startDevice()
        say("On any device, open \(d.verificationURI) and enter the code \(d.userCode)")
        return try client.pollDevice(d, until: deadline)
    }

    /// Opens `url` with xdg-open when a graphical session is there (best effort, never waited for).
    static func open(_ url: String) {
        let env = ProcessInfo.processInfo.environment
        guard env["DISPLAY"] != nil || env["WAYLAND_DISPLAY"] != nil,
              FileManager.default.isExecutableFile(atPath: "/usr/bin/xdg-open") else { return }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/xdg-open")
        p.arguments = [url]
        p.environment = ShellProcess.childEnvironmentDictionary()
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try? p.run()
    }
}
