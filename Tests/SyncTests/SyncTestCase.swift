import EventLog
import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import Projections
import SecureTransport
import TestSupport
import Views
import XCTest

/// Syncs against a real IMAP server started by `TestServers`: each test has its own user (an empty mailbox)
/// and its own store. `server` is a second client that changes the mailbox the way another device would.
/// The server is Dovecot unless the test's name says otherwise (`...OnCourier`, `...OnCyrus`: see
/// ``IMAPPersonality/init(testName:)``); folder names in tests go through ``path(_:)``.
class SyncTestCase: XCTestCase {
    var imap: IMAPServer!
    var user: String!
    var passwordFile: String!
    var dir: TemporaryDirectory!
    var store: MailStore!
    var views: ViewStore!
    let accountName = "test"

    override func setUpWithError() throws {
        imap = try TestServers.imap(IMAPPersonality(testName: name))
        let u = try imap.newUser("sync")
        user = u.user
        passwordFile = u.passwordFile
        dir = TemporaryDirectory("sync")
        store = try MailStore.create(at: dir.file("store"))
        views = try store.openViews()
    }

    override func tearDown() {
        views = nil
        store = nil
        dir = nil
    }

    /// The earlier name of ``imap`` (every test ran against Dovecot then).
    var dovecot: IMAPServer { imap }

    /// Which server this test runs against.
    var personality: IMAPPersonality { imap.personality }

    /// The server's name (and the views' path) for the top-level folder `name` (`INBOX.name` on Courier).
    func path(_ name: String) -> String { imap.folder(name) }

    /// Adds the test account (TLS with the test CA unless told otherwise).
    func addAccount(security: String = "tls", caFile: Bool = true) throws {
        let port = security == "tls" ? imap.tlsPort : imap.plainPort
        try store.addAccount(AccountSettings(name: accountName, email: user, host: imap.host, port: port, security: security,
                                             credential: .file(passwordFile), caFile: caFile ? imap.caFile : nil))
    }

    /// Adds the test account with submission through `smtp` (one CA file trusting both test servers' CAs: each
    /// made its own).
    func addAccount(smtp: SMTPServer) throws {
        let bundle = dir.file("ca-bundle.pem")
        let pem = try String(contentsOfFile: imap.caFile, encoding: .utf8) + "\n" + String(contentsOfFile: smtp.caFile, encoding: .utf8)
        try pem.write(toFile: bundle, atomically: true, encoding: .utf8)
        try store.addAccount(AccountSettings(name: accountName, email: user, host: imap.host, port: imap.tlsPort, security: "tls",
                                             credential: .file(passwordFile), caFile: bundle, smtpHost: smtp.host,
                                             smtpPort: smtp.submissionPort, smtpSecurity: "starttls", smtpUsername: smtp.user,
                                             smtpCredential: .file(smtp.passwordFile)))
    }

    /// The environment of a `mailstore` child process on this test's store.
    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["MAILSTORE_HOME"] = dir.file("store")
        return env
    }

    /// Runs the `mailstore` binary on this test's store (with `extra` environment) and checks its status.
    @discardableResult
    func mailstore(_ args: [String], env extra: [String: String] = [:], expect status: Int32 = 0,
                   file: StaticString = #filePath, line: UInt = #line) throws -> ChildProcess.Result {
        let r = try ChildProcess.run(BuiltProducts.executable("mailstore"), args, environment: environment.merging(extra) { _, b in b })
        XCTAssertEqual(r.status, status, "mailstore \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r
    }

    /// Starts `mailstore sync --quiet EXTRA` on this test's store in a child process (output discarded).
    func startSync(_ extra: [String]) throws -> Process {
        try startMailstore(["sync", "--quiet"] + extra)
    }

    /// Starts `mailstore ARGS` on this test's store (with `extra` environment) in a child process, output discarded.
    func startMailstore(_ args: [String], env extra: [String: String] = [:]) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuiltProducts.executable("mailstore"))
        p.arguments = args
        p.environment = environment.merging(extra) { _, b in b }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    /// Runs one sync in this process.
    @discardableResult
    func sync(batch: Int = 500) throws -> SyncReport {
        guard let account = try views.account(named: accountName)?.settings else { throw SyncError.noAccount(accountName) }
        return try SyncEngine(store: store, account: account, options: SyncOptions(batchMessages: batch)).run()
    }

    /// A second client, logged in as the test user over TLS.
    func server() throws -> IMAPConnection {
        let c = try IMAPConnection.connect(ServerEndpoint(host: imap.host, port: imap.tlsPort, security: .tls,
                                                          caFile: imap.caFile, timeoutSeconds: 30))
        try c.authenticate(username: user, credential: .password(try String(contentsOfFile: passwordFile, encoding: .utf8)),
                           mechanism: .plain)
        return c
    }

    /// The bytes of the message with Message-ID `messageID` in the server's folder `folder` (nil when none), as the
    /// server gives them back.
    func serverCopy(messageID: String, in folder: String) throws -> [UInt8]? {
        let c = try server()
        defer { c.logout() }
        _ = try c.select(MailboxName(path(folder)), readOnly: true)
        guard let uid = try c.uidSearch([.header("Message-ID", messageID)]).first else { return nil }
        var copy: [UInt8]?
        try c.uidFetch(UIDSet(uid), [.uid, .body(.entire)]) { m in copy = m.body }
        return copy
    }

    /// A small RFC 5322 message.
    static func message(_ id: String, subject: String, from: String = "Alice <alice@example.com>", replyTo parent: String? = nil,
                        day: Int = 1, body: String = "Hello") -> [UInt8] {
        var h = "From: \(from)\r\nTo: Test <test@example.com>\r\nSubject: \(subject)\r\n"
        h += "Date: \(String(format: "%02d", day)) Mar 2026 10:00:00 +0000\r\nMessage-ID: <\(id)@example.com>\r\n"
        if let parent { h += "In-Reply-To: <\(parent)@example.com>\r\nReferences: <\(parent)@example.com>\r\n" }
        h += "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\(body) (\(id))\r\n"
        return Array(h.utf8)
    }

    /// Creates the folder `name` (unless INBOX; see ``path(_:)``) and APPENDs messages to it.
    func fill(_ name: String, _ messages: [(id: String, subject: String, parent: String?, flags: [String])], via c: IMAPConnection) throws {
        let folder = path(name)
        if folder != "INBOX", try !c.list().contains(where: { $0.mailbox.name == folder }) { try c.create(MailboxName(folder)) }
        for (i, m) in messages.enumerated() {
            _ = try c.append(to: MailboxName(folder), message: SyncTestCase.message(m.id, subject: m.subject, replyTo: m.parent, day: 1 + i % 27),
                             flags: m.flags)
        }
    }

    /// The server's view of a folder: UID -> flags (without \Recent).
    func serverFlags(_ folder: String, via c: IMAPConnection) throws -> [UInt32: Set<String>] {
        let sel = try c.select(MailboxName(path(folder)), readOnly: true)
        var out: [UInt32: Set<String>] = [:]
        guard sel.exists > 0 else { return out }
        try c.uidFetch(.all, [.uid, .flags]) { m in
            if let uid = m.uid { out[uid] = Set((m.flags ?? []).filter { $0.lowercased() != "\\recent" }) }
        }
        return out
    }

    /// Asserts the views agree with the server for every folder the server lists: copies and flags,
    /// unread and total counts, and the folders view.
    func assertViewsMatchServer(file: StaticString = #filePath, line: UInt = #line) throws {
        let c = try server()
        defer { c.logout() }
        try views.catchUp()
        let listed = try c.list().filter(\.isSelectable).map { $0.mailbox.isInbox ? "INBOX" : $0.mailbox.name }
        XCTAssertEqual(Set(try views.folders(account: accountName).map(\.path)), Set(listed), "folders", file: file, line: line)
        for folder in listed {
            let onServer = try serverFlags(folder, via: c)
            let local = try views.syncedCopies(account: accountName, folder: folder).mapValues { Set($0.flags) }
            XCTAssertEqual(local, onServer, "copies and flags of \(folder)", file: file, line: line)
            let unseen = onServer.values.filter { !$0.contains("\\Seen") }.count
            XCTAssertEqual(try views.unreadCount(account: accountName, folder: folder, category: "all"), unseen,
                           "unread in \(folder)", file: file, line: line)
            XCTAssertEqual(try views.unreadCount(account: accountName, folder: folder, category: UnreadProjector.totalCategory),
                           onServer.count, "total in \(folder)", file: file, line: line)
        }
    }

    /// The number of `EmailReceived` events in the log.
    func receivedEvents() throws -> Int {
        var n = 0
        try store.log.scan(filter: ScanFilter(types: [.emailReceived])) { _ in
            n += 1
            return true
        }
        return n
    }

    /// Thread partition (sets of Message-IDs) of a folder (see ``path(_:)``).
    func threads(_ folder: String) throws -> Set<Set<String>> {
        let u = FetchThreadsUseCase(views: views)
        var out = Set<Set<String>>()
        var cursor: ThreadCursor?
        repeat {
            let page = try u.fetchThreads(accountId: accountName, folderId: path(folder), cursor: cursor, pageSize: 50)
            for t in page.threads { out.insert(Set(t.messageIds)) }
            cursor = page.nextCursor
        } while cursor != nil
        return out
    }
}
