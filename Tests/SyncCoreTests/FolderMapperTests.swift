import EventModel
import IMAPProtocol
import SyncCore
import XCTest

final class FolderMapperTests: XCTestCase {
    private func item(_ name: String, _ attributes: [String] = [], delimiter: String? = "/") -> ListItem {
        ListItem(attributes: attributes, delimiter: delimiter, mailbox: MailboxName(name))
    }

    private func roles(_ items: [ListItem], _ provider: Provider = ProviderRegistry.custom) throws -> [String: FolderRole] {
        Dictionary(uniqueKeysWithValues: try FolderMapper.map(items, provider: provider).map { ($0.path, $0.role) })
    }

    func testSpecialUseWinsOverNames() throws {
        let r = try roles([item("INBOX"), item("Papers", ["\\HasNoChildren", "\\Sent"]), item("Sent"),
                           item("Bin", ["\\Trash"]), item("Spam", ["\\Junk"])])
        XCTAssertEqual(r["INBOX"], .inbox)
        XCTAssertEqual(r["Papers"], .sent)
        // A name heuristic never gives a role SPECIAL-USE already gave.
        XCTAssertEqual(r["Sent"], .custom)
        XCTAssertEqual(r["Bin"], .trash)
        XCTAssertEqual(r["Spam"], .junk)
    }

    func testGmailProviderNamesAndExcludedAllMail() throws {
        let items = [item("INBOX"), item("[Gmail]", ["\\Noselect", "\\HasChildren"]), item("[Gmail]/Sent Mail"),
                     item("[Gmail]/All Mail"), item("[Gmail]/Spam"), item("[Gmail]/Trash"), item("[Gmail]/Starred"),
                     item("[Gmail]/Drafts"), item("Receipts")]
        let mapped = try FolderMapper.map(items, provider: ProviderRegistry.gmail)
        let r = Dictionary(uniqueKeysWithValues: mapped.map { ($0.path, $0.role) })
        XCTAssertNil(r["[Gmail]"], "\\Noselect is skipped")
        XCTAssertNil(r["[Gmail]/All Mail"], "Gmail's All Mail is excluded")
        XCTAssertEqual(r["[Gmail]/Sent Mail"], .sent)
        XCTAssertEqual(r["[Gmail]/Spam"], .junk)
        XCTAssertEqual(r["[Gmail]/Trash"], .trash)
        XCTAssertEqual(r["[Gmail]/Starred"], .flagged)
        XCTAssertEqual(r["[Gmail]/Drafts"], .drafts)
        XCTAssertEqual(r["Receipts"], .custom)
        XCTAssertEqual(mapped.first { $0.path == "[Gmail]/Sent Mail" }?.tier, .providerName)
        XCTAssertEqual(mapped.first { $0.path == "[Gmail]/Sent Mail" }?.displayName, "Sent Mail")
    }

    func testGmailsAllMailWithSpecialUseIsKnownButNotSynced() throws {
        let items = [item("INBOX"), item("[Gmail]/All Mail", ["\\HasNoChildren", "\\All"]), item("[Gmail]/Sent Mail", ["\\Sent"])]
        let mapped = try FolderMapper.map(items, provider: ProviderRegistry.gmail)
        let all = try XCTUnwrap(mapped.first { $0.path == "[Gmail]/All Mail" }, "kept for its role: Gmail's archive target")
        XCTAssertEqual(all.role, .all)
        XCTAssertFalse(all.syncable, "excluded from sync all the same")
        XCTAssertTrue(mapped.filter { $0.path != "[Gmail]/All Mail" }.allSatisfy(\.syncable))
        XCTAssertThrowsError(try FolderMapper.map([item("[Gmail]/All Mail", ["\\All"])], provider: ProviderRegistry.gmail),
                             "an unsyncable folder alone is no email folder")
    }

    func testProviderMapsOutlookYahooICloud() throws {
        let outlook = try roles([item("INBOX"), item("Sent Items"), item("Deleted Items"), item("Junk Email")], ProviderRegistry.outlook)
        XCTAssertEqual(outlook, ["INBOX": .inbox, "Sent Items": .sent, "Deleted Items": .trash, "Junk Email": .junk])
        let yahoo = try roles([item("Inbox"), item("Bulk Mail"), item("Draft"), item("Sent")], ProviderRegistry.yahoo)
        XCTAssertEqual(yahoo["Bulk Mail"], .junk)
        XCTAssertEqual(yahoo["Draft"], .drafts)
        XCTAssertEqual(yahoo["INBOX"], .inbox, "INBOX is case-insensitive and recorded as INBOX")
        let icloud = try roles([item("INBOX"), item("Sent Messages"), item("Deleted Messages"), item("Notes"),
                                item("Notes/Work")], ProviderRegistry.icloud)
        XCTAssertEqual(icloud["Sent Messages"], .sent)
        XCTAssertEqual(icloud["Deleted Messages"], .trash)
        XCTAssertNil(icloud["Notes"], "iCloud Notes is excluded")
        XCTAssertNil(icloud["Notes/Work"], "and its children")
    }

    func testHeuristicsTranslationsAndSubstrings() throws {
        let r = try roles([item("INBOX"), item("INBOX.Gesendete Objekte", delimiter: "."), item("INBOX.Papierkorb", delimiter: "."),
                           item("INBOX.Brouillons", delimiter: "."), item("INBOX.My Spam Folder", delimiter: "."),
                           item("INBOX.Archiv 2024", delimiter: "."), item("INBOX.Projects", delimiter: ".")])
        XCTAssertEqual(r["INBOX.Gesendete Objekte"], .sent)
        XCTAssertEqual(r["INBOX.Papierkorb"], .trash)
        XCTAssertEqual(r["INBOX.Brouillons"], .drafts)
        XCTAssertEqual(r["INBOX.My Spam Folder"], .junk, "substring")
        XCTAssertEqual(r["INBOX.Archiv 2024"], .archive, "substring")
        XCTAssertEqual(r["INBOX.Projects"], .custom)
    }

    func testExactNameBeatsSubstringForTheSameRole() throws {
        let r = try roles([item("INBOX"), item("Sent to boss"), item("Sent")])
        XCTAssertEqual(r["Sent"], .sent)
        XCTAssertEqual(r["Sent to boss"], .custom)
    }

    func testNoSelectableFolderIsAnError() {
        XCTAssertThrowsError(try FolderMapper.map([item("[Gmail]", ["\\Noselect"]), item("Other", ["\\NonExistent"])],
                                                  provider: ProviderRegistry.custom)) { error in
            XCTAssertTrue("\(error)".hasPrefix("No email folders found"))
        }
        XCTAssertThrowsError(try FolderMapper.map([], provider: ProviderRegistry.custom))
    }

    func testModifiedUTF7NamesAreDecoded() throws {
        let list = ListItem(attributes: [], delimiter: "/", mailbox: MailboxName(raw: Array("Entw&APw-rfe".utf8)))
        let mapped = try FolderMapper.map([item("INBOX"), list], provider: ProviderRegistry.custom)
        XCTAssertEqual(mapped[1].path, "Entwürfe")
        XCTAssertEqual(mapped[1].role, .drafts)
        XCTAssertEqual(mapped[1].mailbox.raw, Array("Entw&APw-rfe".utf8), "the wire name is kept for commands")
    }
}
