import Foundation
import MailStore
import XCTest

/// Two From_ lines in a row: the first one's message is empty, skipped and said; the second is a separator, never the
/// next message's content (it was stored at the start of its raw bytes before).
extension ImportTests {
    func testAFromLineRightAfterAnotherIsASeparatorAndTheEmptyMessageIsSkipped() throws {
        let second = "From: b@example.com\nMessage-ID: <b@x>\nSubject: b\n\nbody b\n"
        try write("empty.mbox", "From a@example.com Mon Jan  1 10:00:00 2024\nFrom: a@example.com\nMessage-ID: <a@x>\n\nbody a\n\n"
                  + "From a@example.com Mon Jan  1 10:00:00 2024\nFrom b@example.com Mon Jan  1 10:01:00 2024\n" + second)
        let s = try Importer(store: store).importMbox(dir.file("empty.mbox"))
        XCTAssertEqual(s.imported, 2)
        XCTAssertEqual(s.skippedCount, 1)
        XCTAssertTrue(s.skipped.first?.hasSuffix("#2: an empty message (its From_ line is followed by another From_ line or the file's end)") == true, "\(s.skipped)")
        let b = try XCTUnwrap(try received().first { $0.messageID == "b@x" })
        XCTAssertEqual(try store.blob(b.blob), Array(second.utf8), "no separator line in the message")
        XCTAssertEqual(b.sourceLocation, "#3")
    }

    /// `--folder inbox` (any case) is the Inbox, `INBOX`: not a second Inbox beside it.
    func testAnMboxFolderNamedInboxInAnyCaseIsTheInbox() throws {
        try write("a.mbox", "From a@example.com Mon Jan  1 10:00:00 2024\n" + message("a"))
        var options = Importer.Options()
        options.folder = "inbox"
        _ = try Importer(store: store, options: options).importMbox(dir.file("a.mbox"))
        options.folder = "InBox"
        _ = try Importer(store: store, options: options).importMbox(dir.file("a.mbox"))
        XCTAssertEqual(try folders().map(\.folder), ["INBOX"])
        XCTAssertEqual(try received().map(\.folder), ["INBOX"])
        options.folder = ""
        XCTAssertThrowsError(try Importer(store: store, options: options).importMbox(dir.file("a.mbox"))) {
            XCTAssertEqual($0 as? ImportError, .invalidFolder(""))
        }
    }
}
