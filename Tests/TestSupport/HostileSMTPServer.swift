import Foundation

/// A misbehaving SMTP server over implicit TLS on loopback (Tools/test-server/hostile-smtp.py), with the test SMTP
/// server's certificate (names localhost and 127.0.0.1, signed by its CA): no 8BITMIME, only AUTH LOGIN, 504 to AUTH
/// PLAIN, no AUTH, an AUTH that never ends. Stopped when the value is deinitialised.
package final class HostileSMTPServer {
    /// The port it listens on (127.0.0.1).
    package let port: UInt16
    /// Where it writes its transcript and the messages it accepted.
    package let folder = TemporaryDirectory("hostile-smtp")
    private let process: Process

    /// Starts the server in `mode` (see the script) with the certificate of the test SMTP server whose CA is `caFile`.
    package init(mode: String, caFile: String) throws {
        let tls = (caFile as NSString).deletingLastPathComponent + "/tls"
        let started = try LoopbackScript.start(["Tools/test-server/hostile-smtp.py", mode, tls + "/server.pem", tls + "/server.key",
                                                 folder.path])
        process = started.process
        port = started.port
    }

    deinit { stop() }

    /// Ends the server (a test holding it past its end, as XCTest keeps test cases, would otherwise keep it running).
    package func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// The client's lines so far (AUTH by its mechanism only; MAIL FROM, RCPT TO, DATA), and what it refused.
    package func transcript() -> [String] {
        let text = (try? String(contentsOfFile: folder.file("transcript"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// The messages it accepted, in order, as received (dot-unstuffed).
    package func messages() -> [[UInt8]] {
        (1...).lazy.map { self.folder.file("\($0).eml") }.prefix { FileManager.default.fileExists(atPath: $0) }
            .compactMap { FileManager.default.contents(atPath: $0).map(Array.init) }
    }
}
