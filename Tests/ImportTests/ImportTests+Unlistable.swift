import Foundation
@testable import MailStore
import XCTest

/// Maildir folders that cannot be listed (their permissions) or that go away while an import runs: each is said to be
/// skipped with the reason, and the rest of the tree is imported. Before, a `cur/` or `new/` that could not be listed
/// was taken for an empty one (its mail skipped without a word, exit 0), and one unreadable folder anywhere in the tree
/// (a `lost+found` of root's) stopped the whole import. Tests run as root, whom permissions do not stop: the listings
/// are refused through `refusedForTest`.
extension ImportTests {
    func testCurAndNewThatCannotBeListedAreSaidToBeSkipped() throws {
        try write("md/cur/1700000000.1.host:2,S", message("inbox"))
        try write("md/.Locked/cur/1700000001.2.host:2,S", message("locked-cur"))
        try write("md/.Locked/new/1700000002.3.host", message("locked-new"))
        let locked = dir.file("md/.Locked")
        let importer = try Importer(store: store)
        importer.refusedForTest = [locked + "/cur", locked + "/new"]
        let s = try importer.importMaildir(dir.file("md"))
        XCTAssertEqual(s.imported, 1)
        XCTAssertEqual(s.found, 1, "a folder not listed is no entry")
        XCTAssertEqual(s.folders, 2)
        XCTAssertEqual(s.skippedCount, 2, "\(s.skipped)")
        XCTAssertEqual(s.skipped.sorted(), [locked + "/cur", locked + "/new"].map {
            $0 + ": cannot be listed (Permission denied); the messages in it were not imported" + MaildirSource.accessHint
        })
    }

    func testAFolderRenamedAfterTheWalkIsSaidToBeSkipped() throws {
        try write("md/cur/1700000000.1.host:2,S", message("inbox"))
        try write("md/.Trash/cur/1700000001.2.host:2,S", message("trash-cur"))
        try write("md/.Trash/new/1700000002.3.host", message("trash-new"))
        var source = MaildirSource(root: dir.file("md"))
        let listings = try source.scan()
        XCTAssertEqual(listings.map(\.folder.path), ["INBOX", "Trash"])
        // Moved elsewhere between the walk and the reading of its messages.
        XCTAssertEqual(rename(dir.file("md/.Trash"), dir.file("Trash-elsewhere")), 0)
        var listed: [SourceMessage] = []
        var notes: [MaildirSource.Note] = []
        for listing in listings {
            try source.messages(of: listing, chunk: 10) { m, n in
                listed += m
                notes += n
            }
        }
        XCTAssertEqual(listed.map(\.location), ["1700000000.1.host"])
        XCTAssertEqual(notes, ["new", "cur"].map {
            .unlisted(dir.file("md/.Trash/\($0)") + ": gone since the folder was listed (No such file or directory: deleted, renamed or "
                     + "replaced while importing); the messages in it were not imported (import again once it is back)")
        })
    }

    func testAnUnreadableSubfolderIsSkippedAndTheRestImported() throws {
        try write("md/cur/1700000000.1.host:2,S", message("inbox"))
        try write("md/.Sent/cur/1700000001.2.host:2,S", message("sent"))
        try FileManager.default.createDirectory(atPath: dir.file("md/lost+found"), withIntermediateDirectories: true)
        let importer = try Importer(store: store)
        importer.refusedForTest = [dir.file("md/lost+found")]
        let s = try importer.importMaildir(dir.file("md"))
        XCTAssertEqual(s.imported, 2)
        XCTAssertEqual(s.skipped, [dir.file("md/lost+found") + ": a folder that cannot be read (Permission denied); not imported, nor "
                                   + "anything in it" + MaildirSource.accessHint])
        // The root itself unreadable stays an error, with what to do.
        let again = try Importer(store: store)
        again.refusedForTest = [dir.file("md")]
        XCTAssertThrowsError(try again.importMaildir(dir.file("md"))) { error in
            XCTAssertEqual(error as? ImportError, .sourceNotFound(dir.file("md"), "Permission denied" + MaildirSource.accessHint))
        }
    }
}
