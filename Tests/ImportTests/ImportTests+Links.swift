import Foundation
import MailStore
import XCTest

/// What an import does with symbolic links in a Maildir (docs/cli.md, `mailstore import`): a message file in `cur/`
/// or `new/` is read where it points (link folders made for saved searches); a linked folder, `cur/` or loose file
/// is not followed.
extension ImportTests {
    func testAMessageLinkInCurIsReadAndLinkedFoldersAndLooseLinksAreNot() throws {
        try write("elsewhere/one", message("linked"))
        try write("elsewhere/cur/1700000009.9.host:2,S", message("in-linked-cur"))
        try write("elsewhere/.Other/cur/1700000008.8.host:2,S", message("in-linked-folder"))
        try write("elsewhere/loose", message("loose-link"))
        try write("md/cur/1700000000.1.host:2,S", message("plain"))
        try FileManager.default.createDirectory(atPath: dir.file("md/.Sub"), withIntermediateDirectories: true)
        XCTAssertEqual(symlink(dir.file("elsewhere/one"), dir.file("md/cur/1700000001.2.host:2,S")), 0)
        XCTAssertEqual(symlink(dir.file("elsewhere/cur"), dir.file("md/.Sub/cur")), 0)
        XCTAssertEqual(symlink(dir.file("elsewhere/.Other"), dir.file("md/.Other")), 0)
        XCTAssertEqual(symlink(dir.file("elsewhere/loose"), dir.file("md/.Sub/loose")), 0)
        let s = try Importer(store: store).importMaildir(dir.file("md"))
        XCTAssertEqual(s.imported, 2)
        XCTAssertEqual(try received().compactMap(\.messageID).sorted(), ["linked@example.com", "plain@example.com"])
    }
}
