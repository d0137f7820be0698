import EventLog
import EventModel
import Foundation
import MailStore
import Projections
import TestSupport
import Views
import XCTest

/// A store with helpers to append mail events and read the views.
class ViewsTestCase: XCTestCase {
    var dir: TemporaryDirectory!
    var store: MailStore!
    var clock: Int64 = 1_700_000_000_000_000

    override func setUpWithError() throws {
        dir = TemporaryDirectory("views")
        store = try MailStore.create(at: dir.file("store"))
    }

    override func tearDown() {
        store = nil
        dir = nil
    }

    func tick(_ minutes: Int64 = 1) -> Timestamp {
        clock += minutes * 60_000_000
        return Timestamp(microseconds: clock)
    }

    @discardableResult
    func receive(_ id: String, account: String = "acct", folder: String = "INBOX", messageID: String? = nil,
                 inReplyTo: [String] = [], references: [String] = [], subject: String = "Hello",
                 from: String = "alice@example.com", name: String? = "Alice", date: Timestamp? = nil,
                 flags: [String] = [], attachment: Bool = false, gmailThread: UInt64? = nil) throws -> String {
        let d = date ?? tick()
        let p = EmailReceived(emailID: id, folder: folder, messageID: messageID ?? "\(id)@example.com", inReplyTo: inReplyTo,
                              references: references, gmailThreadID: gmailThread, subject: subject,
                              from: [EmailAddress(name: name, email: from)], to: [EmailAddress(name: nil, email: "me@example.com")],
                              date: d, dateSource: .header, flags: flags, snippet: "snippet of \(id)",
                              attachments: attachment ? [AttachmentInfo(filename: "a.pdf", mimeType: "application/pdf", size: 10, isInline: false)] : [],
                              size: 100, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!)
        try store.log.append(NewEvent(event: .emailReceived(p), account: account, stream: .email(id), occurredAt: d, actor: .sync))
        return id
    }

    func folder(_ path: String, role: FolderRole, account: String = "acct") throws {
        try store.log.append(NewEvent(event: .folderDiscovered(FolderDiscovered(folder: path, displayName: FolderNaming.displayName(forPath: path), role: role)),
                                      account: account, stream: .folder(account: account, path: path), actor: .sync))
    }

    func event(_ e: DomainEvent, account: String = "acct", stream: StreamName = "x") throws {
        try store.log.append(NewEvent(event: e, account: account, stream: stream, occurredAt: tick(), actor: .sync))
    }

    func views() throws -> ViewStore { try store.openViews() }

    /// Every table of `types` (default: every view) in `a` and `b`, entry for entry. Returns how many entries
    /// `a` holds per view.
    @discardableResult
    func assertEqualViews(_ a: ViewStore, _ b: ViewStore, _ message: String,
                          types: [any Projector.Type] = ViewCatalog.all) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for type in types {
            for table in ViewCatalog.tables(of: type) {
                var left: [[UInt8]] = [], right: [[UInt8]] = []
                try a.entries(of: table) { k, v in left.append(k + [0xFF] + v) }
                try b.entries(of: table) { k, v in right.append(k + [0xFF] + v) }
                let first = left.indices.first { $0 >= right.count || left[$0] != right[$0] } ?? left.count
                XCTAssertTrue(left == right, "\(message): table \(table) differs (\(left.count) vs \(right.count) entries, first at \(first))")
                counts[type.name.rawValue, default: 0] += left.count
            }
        }
        return counts
    }

    func useCase() throws -> FetchThreadsUseCase { FetchThreadsUseCase(views: try views()) }

    /// The threads of a folder as sets of email Message-IDs.
    func partition(account: String = "acct", folder: String = "INBOX") throws -> Set<Set<String>> {
        var out = Set<Set<String>>()
        var cursor: ThreadCursor?
        let u = try useCase()
        repeat {
            let page = try u.fetchThreads(accountId: account, folderId: folder, cursor: cursor, pageSize: 7)
            for t in page.threads { out.insert(Set(t.messageIds)) }
            cursor = page.nextCursor
        } while cursor != nil
        return out
    }
}
