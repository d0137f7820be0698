import EventModel
import Foundation
@testable import MailStore
import XCTest

/// Two files of one folder with the same Maildir unique name (`new/1.a` and `cur/1.a:2,S`; the root and `.INBOX/`;
/// `Sent/` and `.Sent/`): with other bytes each is a message, with the same bytes one. Before, the second was counted
/// "already present" and never stored.
extension ImportTests {
    func testFilesOfOneFolderSharingAUniqueNameAreEachImportedWhenTheirBytesDiffer() throws {
        try write("md/new/1700000001.a.host", message("new-a"))
        try write("md/cur/1700000001.a.host:2,S", message("cur-a"))
        try write("md/cur/1700000002.b.host:2,S", message("root-b"))
        try write("md/.INBOX/cur/1700000002.b.host:2,S", message("dot-inbox-b"))
        try write("md/Sent/cur/1700000003.c.host:2,S", message("plain-sent-c"))
        try write("md/.Sent/cur/1700000003.c.host:2,S", message("dot-sent-c"))
        // The same bytes twice (a file copied, or renamed from new/ to cur/ while listed): one message.
        try write("md/new/1700000004.d.host", message("same-d"))
        try write("md/cur/1700000004.d.host:2,S", message("same-d"))
        // Folders listed between the two listings of one path (root, .Drafts, .INBOX; .Sent, Archive, Sent), with names
        // of their own that are no collision.
        try write("md/.Drafts/cur/1700000002.b.host:2,S", message("drafts-b"))
        try write("md/Archive/cur/1700000003.c.host:2,S", message("archive-c"))
        let s = try Importer(store: store).importMaildir(dir.file("md"))
        XCTAssertEqual(s.imported, 9, "\(s)")
        XCTAssertEqual(s.alreadyPresent, 1)
        let ids = try received().map { $0.messageID ?? "" }.sorted()
        XCTAssertEqual(ids, ["archive-c", "cur-a", "dot-inbox-b", "dot-sent-c", "drafts-b", "new-a", "plain-sent-c", "root-b", "same-d"]
                           .map { "\($0)@example.com" }.sorted())
        XCTAssertEqual(Set(try received().map(\.emailID)).count, 9, "each its own email id")
        // Again: nothing appended, each found.
        let again = try Importer(store: store).importMaildir(dir.file("md"))
        XCTAssertEqual(again.imported, 0, "\(again)")
        XCTAssertEqual(again.alreadyPresent, 10)
        XCTAssertEqual(try received().count, 9)
    }
}
