import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import TestSupport
import XCTest

/// A folder another client deletes: the sync's report, its text summary and its JSON name it with the copies
/// expunged (they had said "0 expunged in N folders" and named nothing while the log got `EmailExpunged` and
/// `FolderRemoved`).
final class FolderRemovedReportTests: SyncTestCase {
    func testAFolderDeletedOnTheServerIsReportedWithItsExpungedCopies() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "k0", subject: "Kept", parent: nil, flags: [String]())], via: c)
        try fill("Gone", [(id: "g1", subject: "G1", parent: nil, flags: []), (id: "g2", subject: "G2", parent: nil, flags: [])], via: c)
        try addAccount()
        try sync()
        try c.delete(MailboxName(path("Gone")))
        let report = try sync()
        let gone = try XCTUnwrap(report.folders.first { $0.folder == path("Gone") }, "\(report.folders.map(\.folder))")
        XCTAssertTrue(gone.removed)
        XCTAssertEqual(gone.expunged, 2)
        XCTAssertFalse(gone.unchanged)
        XCTAssertEqual(gone.events, 0, "its events are the account's folderEvents")
        XCTAssertEqual(report.folderEvents, 3, "two expunges and FolderRemoved, as before")
        XCTAssertEqual(report.events, 3)
        XCTAssertFalse(report.folders.contains { $0.folder != path("Gone") && $0.removed })
    }

    func testTheTextSummaryAndTheJSONNameTheRemovedFolder() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "k0", subject: "Kept", parent: nil, flags: [String]())], via: c)
        try fill("Gone", [(id: "g1", subject: "G1", parent: nil, flags: []), (id: "g2", subject: "G2", parent: nil, flags: [])], via: c)
        try fill("Gone2", [(id: "h1", subject: "H1", parent: nil, flags: [])], via: c)
        try addAccount()
        try mailstore(["sync", "--quiet"])
        let before = try mailstore(["sync"]).stdout
        XCTAssertFalse(before.contains("removed"), before)

        try c.delete(MailboxName(path("Gone")))
        let text = try mailstore(["sync"]).stdout
        XCTAssertTrue(text.contains("2 expunged in "), text)
        XCTAssertTrue(text.contains(", 1 folder removed ("), text)
        XCTAssertTrue(text.contains("  \(path("Gone")): removed from the server, 2 expunged"), text)
        XCTAssertFalse(text.contains("\(path("Gone2")): removed"), text)

        try c.delete(MailboxName(path("Gone2")))
        let json = try mailstore(["sync", "--json"]).stdout
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], json)
        let folders = try XCTUnwrap(object["folders"] as? [[String: Any]], json)
        let gone2 = try XCTUnwrap(folders.first { $0["folder"] as? String == path("Gone2") }, json)
        XCTAssertEqual(gone2["removed"] as? Bool, true, json)
        XCTAssertEqual(gone2["expunged"] as? Int, 1, json)
        XCTAssertEqual(gone2["received"] as? Int, 0, "the existing fields are kept")
        let inbox = try XCTUnwrap(folders.first { $0["folder"] as? String == "INBOX" }, json)
        XCTAssertEqual(inbox["removed"] as? Bool, false, json)
        XCTAssertEqual(object["folderEvents"] as? Int, 2, json)
    }

    func testAFolderDeletedOnTheServerIsReportedOnCourier() throws { try testAFolderDeletedOnTheServerIsReportedWithItsExpungedCopies() }
    func testAFolderDeletedOnTheServerIsReportedOnCyrus() throws { try testAFolderDeletedOnTheServerIsReportedWithItsExpungedCopies() }
}
