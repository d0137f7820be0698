import Foundation

/// A running throwaway IMAP server (Tools/test-server/dovecot, courier or cyrus) and the ways to use it
/// in a test. Every personality's script has the same commands (`adduser`, `readonly`, `readwrite`, `seed`).
package struct IMAPServer: Sendable {
    /// Which server it is.
    package let personality: IMAPPersonality
    /// The loopback address it listens on.
    package let host: String
    /// The plain IMAP port (STARTTLS; no login before it).
    package let plainPort: UInt16
    /// The implicit-TLS IMAP port.
    package let tlsPort: UInt16
    /// The private CA that signed the server certificate (PEM).
    package let caFile: String
    /// The server's folder (config, users, mail, log).
    package let dir: String
    /// The control script.
    let script: String

    /// The server described by `dir/env` (written by the script's `start`).
    init(dir: String, script: String, personality: IMAPPersonality) throws {
        let envFile = dir + "/env"
        let values = try ServerEnvironmentFile.read(envFile, required: ["IMAP_HOST", "IMAP_PORT", "IMAPS_PORT", "CA_FILE"],
                                                    startCommand: "\(script) start \(dir)")
        guard let host = values["IMAP_HOST"], let plain = values["IMAP_PORT"].flatMap(UInt16.init),
              let tls = values["IMAPS_PORT"].flatMap(UInt16.init), let caFile = values["CA_FILE"]
        else { throw TestServerError("\(envFile) has an IMAP_PORT or IMAPS_PORT that is not a port") }
        let named = values["IMAP_PERSONALITY"] ?? IMAPPersonality.dovecot.rawValue
        guard named == personality.rawValue else {
            throw TestServerError("\(envFile) describes a \(named) server, not \(personality.rawValue)")
        }
        self.personality = personality
        self.host = host
        self.plainPort = plain
        self.tlsPort = tls
        self.caFile = caFile
        self.dir = dir
        self.script = script
    }

    /// The server's name for the top-level folder `name` (`INBOX` stays): Courier keeps personal folders
    /// under `INBOX.`, the others at the top.
    package func folder(_ name: String) -> String {
        guard name.uppercased() != "INBOX" else { return "INBOX" }
        return personality == .courier && !name.hasPrefix("INBOX.") ? "INBOX." + name : name
    }

    /// Creates a user of its own for one test (`prefix` + random hex + `@example.com`) with a
    /// random password, also written to a 0600 file.
    /// `layout` (Dovecot only): the user's folder layout, `plain` (no SPECIAL-USE, only INBOX, separator `/`) or
    /// `dotted` (the same with separator `.`), `basic` (the usual folders, CAPABILITY without MOVE, UIDPLUS and the
    /// other extensions); nil: the server's usual folders with SPECIAL-USE.
    package func newUser(_ prefix: String = "t", layout: String? = nil) throws -> (user: String, password: String, passwordFile: String) {
        let user = prefix + IMAPServer.randomHex(6) + "@example.com"
        let password = IMAPServer.randomHex(16)
        if let layout {
            guard personality == .dovecot else { throw TestServerError("folder layouts are a Dovecot test server feature") }
            try control("adduser", user, password, layout)
        } else {
            try control("adduser", user, password)
        }
        let passwordFile = try TestServers.privateFolder() + "/" + user + ".password"
        guard FileManager.default.createFile(atPath: passwordFile, contents: Data(password.utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw TestServerError("cannot write \(passwordFile)")
        }
        return (user, password, passwordFile)
    }

    /// Makes `folder` (the server's name, see ``folder(_:)``) read-only for `user` with the given ACL rights.
    package func readOnly(user: String, folder: String, rights: String = "lr") throws {
        try control("readonly", user, folder, rights)
    }

    /// Gives `user` full rights on `folder` again.
    package func readWrite(user: String, folder: String) throws {
        try control("readwrite", user, folder)
    }

    /// Runs the control script's `command` on this server.
    func control(_ command: String, _ arguments: String...) throws {
        let result = try ScriptRunner.run(script, [command, dir] + arguments)
        guard result.status == 0 else {
            throw TestServerError("`\(personality.rawValue) \(command)` failed (status \(result.status)): \(result.output)")
        }
    }

    /// `count` random bytes as lowercase hex.
    static func randomHex(_ count: Int) -> String {
        (0..<count).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }
}

/// The Dovecot tests' name for an ``IMAPServer``.
package typealias DovecotServer = IMAPServer
