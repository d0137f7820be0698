import Foundation
import TestSupport

extension SyncTestCase {
    /// Starts this test's SMTP server and writes one CA file trusting both it and the IMAP server (each made
    /// its own CA); returns the server and the bundle's path.
    func smtpWithCABundle() throws -> (SMTPServer, String) {
        let smtp = try TestServers.smtp(SMTPPersonality(testName: name))
        let bundle = dir.file("ca-bundle.pem")
        let pem = try String(contentsOfFile: imap.caFile, encoding: .utf8) + "\n" + String(contentsOfFile: smtp.caFile, encoding: .utf8)
        try pem.write(toFile: bundle, atomically: true, encoding: .utf8)
        return (smtp, bundle)
    }
}
