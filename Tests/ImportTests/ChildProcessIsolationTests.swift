import EventModel
import Foundation
import Glibc
@testable import MailStore
import TestSupport
import XCTest

/// A command the store runs (a notify, withdraw or password command) gets none of the store's descriptors and none of
/// the accounts' `env:` secrets. It had inherited the environment whole, `MAILSTORE_PW_...` of every account included,
/// and the log's and the views' data files open for writing (LMDB opens them without close-on-exec): a notify command
/// that wrote to its descriptor 4 damaged the log.
final class ChildProcessIsolationTests: XCTestCase {
    private static let imapVariable = "MAILSTORE_TEST_F6_IMAP_SECRET"
    private static let smtpVariable = "MAILSTORE_TEST_F6_SMTP_SECRET"
    private static let keptVariable = "MAILSTORE_TEST_F6_KEPT"

    override func tearDown() {
        for name in [Self.imapVariable, Self.smtpVariable, Self.keptVariable] { unsetenv(name) }
        super.tearDown()
    }

    /// What a command sees: its shell's open descriptors (`ls -l /proc/$$/fd`), then its environment.
    private static let probe = "ls -l /proc/$$/fd; echo ENVIRONMENT; env"

    private func check(_ output: String, store: String, file: StaticString = #filePath, line: UInt = #line) {
        let parts = output.components(separatedBy: "ENVIRONMENT\n")
        XCTAssertEqual(parts.count, 2, output, file: file, line: line)
        let descriptors = parts[0], environment = parts.last ?? ""
        XCTAssertFalse(descriptors.contains(store), "a descriptor of the store reached the command:\n\(descriptors)", file: file, line: line)
        XCTAssertFalse(environment.contains(Self.imapVariable), "an account's secret variable reached the command", file: file, line: line)
        XCTAssertFalse(environment.contains(Self.smtpVariable), "an account's secret variable reached the command", file: file, line: line)
        XCTAssertTrue(environment.contains("\(Self.keptVariable)=kept"), "the rest of the environment is passed on", file: file, line: line)
    }

    func testACommandGetsNoStoreDescriptorAndNoAccountsSecretVariable() throws {
        setenv(Self.imapVariable, "imap-secret", 1)
        setenv(Self.smtpVariable, "smtp-secret", 1)
        setenv(Self.keptVariable, "kept", 1)
        let dir = TemporaryDirectory()
        let path = dir.file("store")
        do {
            // Recorded as another process's `account add` would have (no credential of this process ever looked at).
            let store = try MailStore.create(at: path)
            let added = AccountAdded(name: "work", email: "me@example.com", provider: "custom", imapHost: "imap.example.com",
                                     imapPort: 993, imapSecurity: "tls", auth: "plain", username: "me@example.com",
                                     credentialSource: "env:\(Self.imapVariable)", smtpHost: "smtp.example.com", smtpPort: 587,
                                     smtpSecurity: "starttls", smtpCredentialSource: "env:\(Self.smtpVariable)")
            try store.commit([NewEvent(event: .accountAdded(added), account: "work", stream: .account("work"), actor: .user)])
        }
        let store = try MailStore.open(at: path)
        // The log, the views and the search index open, as a `sync --watch` has them when it runs its commands.
        _ = try store.views().accountList()
        _ = try store.search("hello")

        let out = dir.file("notify.out")
        let notify = NotifyCommand(command: "{ \(Self.probe); } > '\(out)' 2>&1", timeoutSeconds: 10)
        XCTAssertEqual(notify.run(input: Array("{}\n".utf8)), .exited(0))
        check(try String(contentsOfFile: out, encoding: .utf8), store: path)

        let printed = try PasswordCommand(command: Self.probe).run()
        check(String(decoding: printed, as: UTF8.self), store: path)
        withExtendedLifetime(store) {}
    }
}
