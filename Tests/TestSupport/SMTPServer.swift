import Foundation

/// A running SMTP test server (Tools/test-server/smtp: aiosmtpd, or Tools/test-server/exim) and what a
/// test needs to use it. Both write the same spool (`NAME.eml` and `index.jsonl`).
package struct SMTPServer: Sendable {
    /// One message the server accepted: a line of its `index.jsonl`.
    package struct SpoolEntry: Sendable {
        /// The `.eml` file in the spool.
        package var file: String
        /// The envelope sender (`MAIL FROM`).
        package var from: String
        /// The envelope recipients (`RCPT TO`).
        package var to: [String]
        /// The `MAIL FROM` parameters, e.g. `BODY=8BITMIME`.
        package var mailOptions: [String]
        /// The user that had logged in.
        package var authUser: String?
        /// Whether the session was encrypted.
        package var tls: Bool
        /// `submission` (STARTTLS port) or `smtps` (implicit TLS port).
        package var listener: String
    }

    /// Which server it is.
    package let personality: SMTPPersonality
    /// The loopback address it listens on.
    package let host: String
    /// The submission port (STARTTLS; AUTH only after it).
    package let submissionPort: UInt16
    /// The implicit-TLS port.
    package let tlsPort: UInt16
    /// The private CA that signed the server certificate (PEM).
    package let caFile: String
    /// The user that may log in.
    package let user: String
    /// The file holding the user's password (no newline).
    package let passwordFile: String
    /// The folder where accepted messages go (`NAME.eml` and `index.jsonl`).
    package let spoolDir: String
    /// Exim's queue (`SMTP_QUEUE`): Exim answers 250 before it delivers to the spool; nil for aiosmtpd,
    /// which writes the spool before it answers.
    let queueDir: String?

    /// The server described by `dir/smtp-env` (written by `smtp start`).
    init(dir: String, personality: SMTPPersonality = .aiosmtpd) throws {
        let envFile = dir + "/smtp-env"
        let values = try ServerEnvironmentFile.read(
            envFile, required: ["SMTP_HOST", "SMTP_PORT", "SMTPS_PORT", "CA_FILE", "SMTP_USER", "SMTP_PASSWORD_FILE", "SMTP_SPOOL"],
            startCommand: "Tools/test-server/\(personality.script) start \(dir)")
        guard let host = values["SMTP_HOST"], let submission = values["SMTP_PORT"].flatMap(UInt16.init),
              let tls = values["SMTPS_PORT"].flatMap(UInt16.init), let caFile = values["CA_FILE"],
              let user = values["SMTP_USER"], let passwordFile = values["SMTP_PASSWORD_FILE"], let spool = values["SMTP_SPOOL"]
        else { throw TestServerError("\(envFile) has an SMTP_PORT or SMTPS_PORT that is not a port") }
        let named = values["SMTP_PERSONALITY"] ?? SMTPPersonality.aiosmtpd.rawValue
        guard named == personality.rawValue else {
            throw TestServerError("\(envFile) describes a \(named) server, not \(personality.rawValue)")
        }
        self.personality = personality
        self.host = host
        self.submissionPort = submission
        self.tlsPort = tls
        self.caFile = caFile
        self.user = user
        self.passwordFile = passwordFile
        self.spoolDir = spool
        self.queueDir = values["SMTP_QUEUE"]
    }

    /// Waits (up to 20 s) until Exim delivered every message it accepted, so the spool holds them all.
    /// No wait for aiosmtpd.
    func settle() {
        guard let queueDir else { return }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let queued = (try? FileManager.default.contentsOfDirectory(atPath: queueDir))?.contains { $0.hasSuffix("-H") } ?? false
            if !queued { return }
            usleep(20_000)
        }
    }

    /// The user's password, read from ``passwordFile``.
    package func password() throws -> String {
        guard let password = try? String(contentsOfFile: passwordFile, encoding: .utf8) else {
            throw TestServerError("cannot read \(passwordFile)")
        }
        return password
    }

    /// Every message the server accepted so far, oldest first.
    package func spoolEntries() throws -> [SpoolEntry] {
        settle()
        let index = spoolDir + "/index.jsonl"
        guard FileManager.default.fileExists(atPath: index) else { return [] }
        let text = try String(contentsOfFile: index, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let file = object["file"] as? String, let from = object["from"] as? String,
                  let to = object["to"] as? [String]
            else { throw TestServerError("\(index) has a line that is not a spool entry: \(line.prefix(200))") }
            return SpoolEntry(file: file, from: from, to: to, mailOptions: object["mail_options"] as? [String] ?? [],
                              authUser: object["auth_user"] as? String, tls: object["tls"] as? Bool ?? false,
                              listener: object["listener"] as? String ?? "")
        }
    }

    /// Every accepted message whose bytes hold `marker`, oldest first.
    package func spooledMessages(containing marker: String) throws -> [SpoolEntry] {
        let needle = Data(marker.utf8)
        return try spoolEntries().filter { entry in
            FileManager.default.contents(atPath: spoolDir + "/" + entry.file)?.range(of: needle) != nil
        }
    }

    /// The accepted message whose bytes hold `marker`, with its entry; nil when there is none.
    package func spooledMessage(containing marker: String) throws -> (entry: SpoolEntry, bytes: [UInt8])? {
        let needle = Data(marker.utf8)
        for entry in try spoolEntries() {
            guard let data = FileManager.default.contents(atPath: spoolDir + "/" + entry.file) else { continue }
            if data.range(of: needle) != nil { return (entry, [UInt8](data)) }
        }
        return nil
    }
}
