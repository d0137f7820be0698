import Foundation

/// A real IMAP server the integration tests run against (Tools/test-server/NAME; docs/interop.md says
/// what each offers).
package enum IMAPPersonality: String, Sendable, CaseIterable {
    /// Dovecot 2.3: CONDSTORE, QRESYNC, MOVE, SPECIAL-USE, "/" separator, no namespace prefix.
    case dovecot
    /// Courier-IMAP 5.0: none of CONDSTORE, QRESYNC, MOVE, SPECIAL-USE; "INBOX." namespace, "." separator.
    case courier
    /// Cyrus IMAP 3.6: CONDSTORE, QRESYNC, MOVE, SPECIAL-USE; its own ACL rules (owner's implicit rights).
    case cyrus

    /// The environment variable naming a running server's folder (as `Tools/test` sets it).
    package var environmentVariable: String { "MAILSTORE_TEST_" + rawValue.uppercased() }

    /// The personality a test runs against, from its name: a test method whose name holds `OnCourier` or
    /// `OnCyrus` (e.g. `testSyncOnCourier`) runs against that server, every other one against Dovecot.
    package init(testName: String) {
        self = IMAPPersonality.allCases.first { $0 != .dovecot && testName.contains("On" + $0.rawValue.capitalized) } ?? .dovecot
    }
}

/// A real SMTP server the sending tests run against.
package enum SMTPPersonality: String, Sendable, CaseIterable {
    /// aiosmtpd with the handler in Tools/test-server/smtp_server.py (MAILSTORE_TEST_SMTP).
    case aiosmtpd
    /// Exim 4 (Tools/test-server/exim, MAILSTORE_TEST_EXIM).
    case exim

    /// The control script in Tools/test-server.
    package var script: String { self == .aiosmtpd ? "smtp" : "exim" }
    /// The environment variable naming a running server's folder (as `Tools/test` sets it).
    package var environmentVariable: String { self == .aiosmtpd ? "MAILSTORE_TEST_SMTP" : "MAILSTORE_TEST_EXIM" }

    /// The personality a test runs against, from its name: a test method ending in `OnExim` (or holding
    /// `OnExim`, e.g. `testXOnEximOnCourier`) runs against Exim, every other one against aiosmtpd.
    package init(testName: String) {
        self = testName.contains("OnExim") ? .exim : .aiosmtpd
    }
}
