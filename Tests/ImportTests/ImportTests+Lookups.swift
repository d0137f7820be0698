import Foundation
import MailStore
import XCTest

/// A folder an import discovers has no message in the log (its discovery is appended before any of them): its
/// messages are parsed without being looked up first. A folder the log had is looked up, so what it holds is not
/// parsed again.
extension ImportTests {
    func testAFolderTheImportDiscoversIsNotLookedUpAndOneTheLogHadIs() throws {
        try write("md/cur/1700000000.1.host:2,S", message("a"))
        try write("md/cur/1700000001.2.host:2,S", message("b"))
        let first = try Importer(store: store)
        XCTAssertEqual(try first.importMaildir(dir.file("md")).imported, 2)
        XCTAssertEqual(first.messagesLookedUp, 0, "a first import looks nothing up")

        // A new folder beside the old one, and a new message in the old one.
        try write("md/.Sent/cur/1700000002.3.host:2,S", message("c"))
        try write("md/cur/1700000003.4.host:2,S", message("d"))
        let second = try Importer(store: store)
        let s = try second.importMaildir(dir.file("md"))
        XCTAssertEqual(s.imported, 2)
        XCTAssertEqual(s.alreadyPresent, 2)
        XCTAssertEqual(second.messagesLookedUp, 3, "the Inbox's three messages, not those of Sent, new")
        XCTAssertEqual(try received().compactMap(\.messageID).sorted(), ["a@example.com", "b@example.com", "c@example.com", "d@example.com"])

        // An mbox into a new folder, then again.
        let box = ["m1", "m2", "m3"].map { "From x@example.com Mon Jan 15 09:30:00 2024\r\n" + message($0) + "\r\n" }.joined()
        try write("box.mbox", box)
        var options = Importer.Options()
        options.folder = "Archive"
        let mbox = try Importer(store: store, options: options)
        XCTAssertEqual(try mbox.importMbox(dir.file("box.mbox")).imported, 3)
        XCTAssertEqual(mbox.messagesLookedUp, 0)
        let again = try Importer(store: store, options: options)
        let a = try again.importMbox(dir.file("box.mbox"))
        XCTAssertEqual(a.imported, 0)
        XCTAssertEqual(a.alreadyPresent, 3)
        XCTAssertEqual(again.messagesLookedUp, 3)
        XCTAssertTrue(try store.log.verify().isClean)
    }
}
