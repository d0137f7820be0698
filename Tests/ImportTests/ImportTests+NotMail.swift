import Foundation
import MailStore
import XCTest

/// notmuch's database (`.notmuch/`), Maildir++ bookkeeping (`maildirsize`) and an mbox file lying in a folder were
/// imported as (binary, giant) messages before; a loose message file in a folder (notmuch-style) still is.
/// Maildir++ names in modified UTF-7 (Dovecot's on-disk encoding) are decoded.
extension ImportTests {
    func testNotmuchsDatabaseBookkeepingAndAnMboxLyingInAFolderAreNotImported() throws {
        try write("md/cur/1700000000.1.host:2,S", message("inbox"))
        try write("md/maildirsize", "1048576S,100C\n   1234 1\n")
        try write("md/.notmuch/xapian/postlist.glass", [0, 1, 2, 3, 0xFF])
        try write("md/.notmuch/xapian/iamglass", "binary")
        try write("md/foo/cur/1700000001.2.host:2,S", message("foo"))
        try write("md/foo/06:2,", message("loose"))
        try write("md/foo/lists.mbox", "From a@example.com Mon Jan 15 09:30:00 2024\n" + message("in-mbox"))
        try write("md/foo/dovecot-uidlist", "3 V1 N1\n")
        try write("md/.Sent/cur/1700000002.3.host:2,S", message("sent"))
        try write("md/.Sent/courierimapuiddb", "1 1\n")
        try write("md/cur/.hidden", message("dot-file"))
        let s = try Importer(store: store).importMaildir(dir.file("md"))
        XCTAssertEqual(try received().compactMap(\.messageID).sorted(), ["foo@example.com", "inbox@example.com", "loose@example.com", "sent@example.com"])
        XCTAssertEqual(s.found, 5)
        XCTAssertEqual(Set(try folders().map(\.folder)), ["INBOX", "foo", "Sent"], "no folder for notmuch's database")
        XCTAssertEqual(s.skipped, [dir.file("md/foo/lists.mbox")
                                   + ": an mbox file lying in a folder (it begins with a From_ line), not a message; import it with --mbox"])
    }

    func testMaildirPlusPlusNamesInModifiedUTF7AreDecodedAndOthersKept() throws {
        for (i, name) in [".Entw&APw-rfe", ".Gel&APY-schte Elemente", ".Entwürfe", ".Lists.R&AOk-sum&AOk-", ".Bad&Name"].enumerated() {
            try write("md/\(name)/cur/170000000\(i).\(i).host:2,S", message("m\(i)"))
        }
        _ = try Importer(store: store).importMaildir(dir.file("md"))
        XCTAssertEqual(Set(try folders().map(\.folder)),
                       ["INBOX", "Entwürfe", "Gelöschte Elemente", "Lists/Résumé", "Bad&Name"])
    }
}
