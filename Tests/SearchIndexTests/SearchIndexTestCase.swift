import EventLog
import EventModel
import Foundation
import MailStore
@testable import SearchIndex
import SearchQuery
import TestSupport
import Views
import XCTest

/// A store filled from a maildir of hand-written messages, and its search index.
class SearchIndexTestCase: XCTestCase {
    var dir: TemporaryDirectory!
    var store: MailStore!

    override func setUpWithError() throws {
        dir = TemporaryDirectory("search")
        store = try MailStore.create(at: dir.file("store"))
    }

    override func tearDown() {
        store = nil
        dir = nil
    }

    /// Writes `messages` (name -> RFC 5322 text) into maildir `md/<folder>/cur` and imports it.
    func importMessages(_ messages: [(folder: String, name: String, text: String)], account: String = "local") throws {
        let root = dir.file("md-\(UUID().uuidString.prefix(6))")
        for m in messages {
            let sub = m.folder == "INBOX" ? root : root + "/." + m.folder
            for d in ["cur", "new", "tmp"] { try FileManager.default.createDirectory(atPath: sub + "/" + d, withIntermediateDirectories: true) }
            let crlf = m.text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
            try Data(crlf.utf8).write(to: URL(fileURLWithPath: sub + "/cur/" + m.name))
        }
        var o = Importer.Options()
        o.account = account
        _ = try Importer(store: store, options: o).importMaildir(root)
    }

    func index() throws -> SearchIndex {
        try SearchIndex.open(folder: store.directory.viewsPath + "/search", log: store.log)
    }

    /// Message-IDs matching `query`, newest first.
    func ids(_ query: String, _ index: SearchIndex? = nil, account: String? = nil, oldestFirst: Bool = false) throws -> [String] {
        let idx = try index ?? self.index()
        let views = try store.openViews()
        var out: [String] = []
        try idx.search(try SearchQuery.parse(query), account: account, oldestFirst: oldestFirst,
                       threadEmails: { try views.threadEmails(id: $0).map(\.id) }) { h in
            out.append(h.messageID ?? "?")
            return true
        }
        return out
    }

    /// The email id of the copy with Message-ID `mid`.
    func emailID(_ mid: String) throws -> String {
        var found: String?
        try index().search(try SearchQuery.parse("id:\(mid)")) { h in
            found = h.emailID
            return false
        }
        return try XCTUnwrap(found, "no copy of \(mid)")
    }

    func append(_ e: DomainEvent, account: String = "local") throws {
        try store.log.append(NewEvent(event: e, account: account, stream: "test", actor: .sync))
    }
}
