import Foundation
import MailStore
import TestSupport
import XCTest

/// Runs the real `mailstore` binary against a temp store.
class CLITestCase: FolderTestCase {
    override class var folderPrefix: String { "cli" }
    var store: String { dir.file("store") }

    /// Files a Maildir's (`maildir`) or an mbox's (`mbox`, in `folder`) messages in `account` as a sync would, in this
    /// process: `mailstore import` refuses a server account's name (its folders mirror its server).
    func fileAsSynced(maildir: String? = nil, mbox: String? = nil, folder: String = "INBOX", account: String) throws {
        let store = try MailStore.open(at: self.store, bulk: true)
        var options = Importer.Options()
        options.account = account
        options.underServerAccount = true
        let importer: Importer
        if let maildir {
            importer = try Importer(store: store, options: options)
            _ = try importer.importMaildir(maildir)
        } else if let mbox {
            options.folder = folder
            importer = try Importer(store: store, options: options)
            _ = try importer.importMbox(mbox)
        }
    }

    @discardableResult
    func mailstore(_ args: String..., stdin: String? = nil, expect status: Int32 = 0, file: StaticString = #filePath,
                   line: UInt = #line) throws -> ChildProcess.Result {
        try mailstore(args, stdin: stdin, expect: status, file: file, line: line)
    }

    /// The same, with the arguments as an array.
    @discardableResult
    func mailstore(_ args: [String], stdin: String? = nil, expect status: Int32 = 0, file: StaticString = #filePath,
                   line: UInt = #line) throws -> ChildProcess.Result {
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = store
        let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), args, environment: env, stdin: stdin)
        XCTAssertEqual(r.status, status, "mailstore \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r
    }

    /// Configures account `name` (an IMAP server that is never reached; its password in a 0600 file).
    func addAccount(_ name: String, email: String = "me@example.com") throws {
        let pw = dir.file("pw-\(name)")
        try Data("secret".utf8).write(to: URL(fileURLWithPath: pw))
        chmod(pw, 0o600)
        try mailstore("account", "add", name, "--email", email, "--host", "imap.example.com", "--security", "tls", "--password-file", pw)
    }
}
