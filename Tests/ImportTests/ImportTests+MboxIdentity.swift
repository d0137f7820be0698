@testable import EventLog
import EventModel
import Foundation
import MailStore
import XCTest

/// An mbox message is known by its bytes, not its ordinal: another mbox in the same folder, or the same one after
/// messages were deleted from it, is not taken for mail the log has.
extension ImportTests {
    private func mbox(_ ids: [String]) -> String {
        ids.map { "From x@example.com Mon Jan 15 09:30:00 2024\r\n" + message($0) + "\r\n" }.joined()
    }

    private func importMbox(_ name: String, folder: String = "INBOX", tracked: Int? = nil) throws -> ImportSummary {
        var options = Importer.Options()
        options.folder = folder
        if let tracked { options.maxTrackedCopies = tracked }
        return try Importer(store: store, options: options).importMbox(dir.file(name))
    }

    func testASecondMboxInTheSameFolderIsImportedAndEachAgainAppendsNothing() throws {
        try write("a.mbox", mbox(["a1", "a2", "a3"]))
        try write("b.mbox", mbox(["b1", "b2"]))
        XCTAssertEqual(try importMbox("a.mbox").imported, 3)
        let second = try importMbox("b.mbox")
        XCTAssertEqual(second.imported, 2, "the messages at ordinals 1 and 2 of another mbox are new mail")
        XCTAssertEqual(second.alreadyPresent, 0)
        XCTAssertEqual(try importMbox("a.mbox").imported, 0)
        XCTAssertEqual(try importMbox("b.mbox").imported, 0)
        let r = try received()
        XCTAssertEqual(r.map(\.messageID), ["a1@example.com", "a2@example.com", "a3@example.com", "b1@example.com", "b2@example.com"])
        XCTAssertEqual(Set(r.map(\.emailID)).count, 5, "each message its own email id")
        XCTAssertEqual(r.map(\.sourceLocation), ["#1", "#2", "#3", "#1", "#2"], "the location shown stays the ordinal")
    }

    func testAnMboxWithMessagesDeletedAndOthersAddedImportsOnlyTheNewOnes() throws {
        try write("box.mbox", mbox(["m1", "m2", "m3", "m4"]))
        XCTAssertEqual(try importMbox("box.mbox").imported, 4)
        // A client compacted the mbox (m2 gone) and new mail came: m5 sits at ordinal 4, which m4 had.
        try write("box.mbox", mbox(["m1", "m3", "m4", "m5"]))
        let again = try importMbox("box.mbox")
        XCTAssertEqual(again.imported, 1)
        XCTAssertEqual(again.alreadyPresent, 3)
        XCTAssertEqual(try received().map(\.messageID).last, "m5@example.com")
    }

    func testIdenticalCopiesInAnMboxAreEachImportedOnce() throws {
        try write("dup.mbox", mbox(["d1", "d2", "d1", "d1"]))
        let s = try importMbox("dup.mbox")
        XCTAssertEqual(s.found, 4)
        XCTAssertEqual(s.imported, 4)
        XCTAssertEqual(try importMbox("dup.mbox").imported, 0)
        // The first copy of d1 deleted: the two left are the first and second copies, both in the log.
        try write("dup.mbox", mbox(["d2", "d1", "d1"]))
        XCTAssertEqual(try importMbox("dup.mbox").imported, 0)
        try write("dup.mbox", mbox(["d2", "d1", "d1", "d1", "d1"]))
        XCTAssertEqual(try importMbox("dup.mbox").imported, 1, "a fourth copy")
    }

    /// The hashes kept in memory to number copies are bounded (`maxTrackedCopies`): past it the table moves to a file
    /// in the store's scratch folder, so a copy however far from the first is still a message of its own, numbered the
    /// same way whatever the bound (before, the count started again: the later copy was taken for the first and lost).
    func testIdenticalCopiesFarApartAreEachImportedPastTheTrackedBound() throws {
        try write("far.mbox", mbox(["f1", "f2", "f3", "f1", "f2"]))
        let s = try importMbox("far.mbox", tracked: 2)
        XCTAssertEqual(s.found, 5)
        XCTAssertEqual(s.imported, 5, "the second copies of f1 and f2 are messages of their own")
        XCTAssertEqual(s.alreadyPresent, 0)
        XCTAssertEqual(try importMbox("far.mbox", tracked: 2).imported, 0)
        let whole = try importMbox("far.mbox")
        XCTAssertEqual(whole.imported, 0, "tracked in memory in full, the copies have the same numbers: nothing new")
        XCTAssertEqual(whole.alreadyPresent, 5)
        // As the audit found it: a message twice, then more distinct messages than the bound, then the message again.
        try write("audit.mbox", mbox(["a", "a", "x1", "x2", "x3", "x4", "a"]))
        let audit = try importMbox("audit.mbox", folder: "Audit", tracked: 2)
        XCTAssertEqual(audit.found, 7)
        XCTAssertEqual(audit.imported, 7, "the third copy of a is kept")
        XCTAssertEqual(audit.alreadyPresent, 0)
        XCTAssertEqual(try importMbox("audit.mbox", folder: "Audit").imported, 0)
        XCTAssertEqual(try importMbox("audit.mbox", folder: "Audit", tracked: 0).imported, 0)
        let copies = try received().filter { $0.folder == "Audit" && $0.messageID == "a@example.com" }
        XCTAssertEqual(copies.map(\.sourceLocation), ["#1", "#2", "#7"])
        XCTAssertEqual(Set(copies.map(\.emailID)).count, 3)
        XCTAssertEqual(ScratchFolder.entries(of: dir.file("store") + "/" + ScratchFolder.folderName, most: 16) ?? [], [],
                       "the table's file goes with the import")
    }

    /// The table in its file doubles as it fills (at 513 distinct messages past a bound of 1): the counts are kept
    /// through the copy.
    func testCopiesAreNumberedThroughTheTableFileGrowing() throws {
        let distinct = (0..<600).map { "g\($0)" }
        try write("grow.mbox", mbox(["a"] + distinct + ["a", "g0", "a"]))
        let s = try importMbox("grow.mbox", tracked: 1)
        XCTAssertEqual(s.found, 604)
        XCTAssertEqual(s.imported, 604)
        XCTAssertEqual(try importMbox("grow.mbox").imported, 0, "the same numbers as in memory")
        XCTAssertEqual(try importMbox("grow.mbox", tracked: 1).imported, 0)
        XCTAssertEqual(Set(try received().map(\.emailID)).count, 604)
    }

    /// A store whose mbox messages were imported under ids of their ordinals (before 2026-12-04): importing the same
    /// mbox again appends nothing (the event at the ordinal's id holds the same bytes); a message at an ordinal the log
    /// has with other bytes is new mail.
    func testAnMboxImportedUnderOrdinalIdsIsNotImportedAgain() throws {
        let bytes = ["o1", "o2"].map { Array(message($0).utf8) }
        let identity = try Identity()
        // As an import then wrote them: the folder's discovery first (the id every import derives for it), then its messages.
        var legacy = [NewEvent(id: identity.eventID("FolderDiscovered", "local", "INBOX"),
                               event: .folderDiscovered(FolderDiscovered(folder: "INBOX", displayName: "Inbox", role: .inbox, delimiter: "/")),
                               account: "local", stream: .folder(account: "local", path: "INBOX"), actor: .system)]
        for (i, b) in bytes.enumerated() {
            let hash = try store.log.putBlob(b)
            let emailID = identity.emailID(account: "local", folder: "INBOX", location: "#\(i + 1)")
            let p = EmailReceived(emailID: emailID, folder: "INBOX", sourceLocation: "#\(i + 1)", messageID: "o\(i + 1)@example.com",
                                  subject: "Hello", from: [EmailAddress(name: "Alice", email: "alice@example.com")],
                                  date: Timestamp(microseconds: 1_705_311_000_000_000), dateSource: .header,
                                  size: UInt64(b.count), blob: hash)
            legacy.append(NewEvent(id: identity.eventID("EmailReceived", "local", "INBOX", "#\(i + 1)"), event: .emailReceived(p),
                                   account: "local", stream: .email(emailID), actor: .system))
        }
        try store.log.append(legacy)
        try write("old.mbox", mbox(["o1", "o2", "o3"]))
        let s = try importMbox("old.mbox")
        XCTAssertEqual(s.imported, 1, "o1 and o2 are in the log under their ordinals' ids")
        XCTAssertEqual(s.alreadyPresent, 2)
        try write("other.mbox", mbox(["x1"]))
        XCTAssertEqual(try importMbox("other.mbox").imported, 1, "ordinal 1 holds other bytes in the log")
        XCTAssertEqual(try received().map(\.messageID), ["o1@example.com", "o2@example.com", "o3@example.com", "x1@example.com"])
    }
}
