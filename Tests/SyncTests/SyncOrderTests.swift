@testable import MailStore
import IMAPProtocol
import SyncCore
import XCTest

/// The order of a full sync's folders.
final class SyncOrderTests: XCTestCase {
    /// The Inbox first, then the role folders in their order, then the others in LIST order.
    func testAFullSyncTakesTheInboxThenTheRoleFoldersThenListOrder() throws {
        let listed: [(String, String?)] = [("B", nil), ("Trash", "\\Trash"), ("A", nil), ("Junk", "\\Junk"), ("Drafts", "\\Drafts"),
                                           ("Archive", "\\Archive"), ("Sent", "\\Sent"), ("INBOX", nil)]
        let items = listed.map { ListItem(attributes: $0.1.map { [$0] } ?? [], delimiter: "/", mailbox: MailboxName($0.0)) }
        let mapped = try FolderMapper.map(items, provider: ProviderRegistry.custom)
        XCTAssertEqual(mapped.map(\.path), listed.map(\.0), "LIST order")
        XCTAssertEqual(SyncEngine.syncOrder(mapped).map(\.path), ["INBOX", "Sent", "Drafts", "Archive", "Junk", "Trash", "B", "A"])
    }
}
