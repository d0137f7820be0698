import Foundation

/// A running throwaway Dovecot (Tools/test-server/dovecot) and the ways to use it in a test.
public struct DovecotServer: Sendable {
    /// The loopback address it listens on.
    public let host: String
    /// The plain IMAP port (STARTTLS), served through the relay so Dovecot does not take it for a secure connection.
    public let plainPort: UInt16
    /// The implicit-TLS IMAP port.
    public let tlsPort: UInt16
    /// The private CA that signed the server certificate (PEM).
    public let caFile: String
    /// The server's folder (config, users, mail, log).
    public let dir: String
    /// The control script.
    let script: String

    /// The server described by `dir/env` (written by `dovecot start`).
    init(dir: String, script: String) throws {
        let envFile = dir + "/env"
        let values = try ServerEnvironmentFile.read(envFile, required: ["IMAP_HOST", "IMAP_PORT", "IMAPS_PORT", "CA_FILE"],
                                                    startCommand: "Tools/test-server/dovecot start \(dir)")
        guard let host = values["IMAP_HOST"], let plain = values["IMAP_PORT"].flatMap(UInt16.init),
              let tls = values["IMAPS_PORT"].flatMap(UInt16.init), let caFile = values["CA_FILE"]
        else { throw TestServerError("\(envFile) has an IMAP_PORT or IMAPS_PORT that is not a port") }
        self.host = host
        self.plainPort = plain
        self.tlsPort = tls
        self.caFile = caFile
        self.dir = dir
        self.script = script
    }

    /// Creates a user of its own for one test (`prefix` + random hex + `@example.com`) with a
    /// random password, also written to a 0600 file.
    public func newUser(_ prefix: String = "t") throws -> (user: String, password: String, passwordFile: String) {
        let user = prefix + DovecotServer.randomHex(6) + "@example.com"
        let password = DovecotServer.randomHex(16)
        try control("adduser", user, password)
        let passwordFile = try TestServers.privateFolder() + "/" + user + ".password"
        guard FileManager.default.createFile(atPath: passwordFile, contents: Data(password.utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw TestServerError("cannot write \(passwordFile)")
        }
        return (user, password, passwordFile)
    }

    /// Makes `folder` read-only for `user` with the given ACL rights (`dovecot readonly`).
    public func readOnly(user: String, folder: String, rights: String = "lr") throws {
        try control("readonly", user, folder, rights)
    }

    /// Gives `user` full rights on `folder` again (`dovecot readwrite`).
    public func readWrite(user: String, folder: String) throws {
        try control("readwrite", user, folder)
    }

    /// Runs the control script's `command` on this server.
    func control(_ command: String, _ arguments: String...) throws {
        let result = try ScriptRunner.run(script, [command, dir] + arguments)
        guard result.status == 0 else {
            throw TestServerError("`dovecot \(command)` failed (status \(result.status)): \(result.output)")
        }
    }

    /// `count` random bytes as lowercase hex.
    static func randomHex(_ count: Int) -> String {
        (0..<count).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }
}
