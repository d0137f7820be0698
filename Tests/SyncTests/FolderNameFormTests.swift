import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import XCTest

/// Two server folders whose names differ only in Unicode form (NFC "Café", NFD "Cafe" + U+0301), against the real
/// Dovecot: one is synced, the other named in the report (`foldersAlike`) and left alone, and the views stay equal to a
/// rebuild. Both had been synced under names Swift's strings take as one: the unread counts merged by batch (`verify
/// --views` found a difference after a `replay`), the second folder's mail was never fetched, an action on it counted
/// applied; a folder that changed form was neither discovered nor removed.
final class FolderNameFormTests: SyncTestCase {
    let composed = "Caf\u{E9}"
    let decomposed = "Cafe\u{301}"

    func testFoldersNamedAlikeButForTheirUnicodeFormAreNotMerged() throws {
        let c = try server()
        defer { c.logout() }
        try c.create(MailboxName(path(composed)))
        try c.create(MailboxName(path(decomposed)))
        XCTAssertEqual(try c.list().filter { $0.mailbox.name.unicodeScalars.first == "C" }.count, 2, "the server keeps both")
        try fill(composed, (0..<3).map { (id: "nfc\($0)", subject: "Composed \($0)", parent: nil, flags: [String]()) }, via: c)
        try fill(decomposed, (0..<2).map { (id: "nfd\($0)", subject: "Decomposed \($0)", parent: nil, flags: [String]()) }, via: c)
        try addAccount()
        let first = try sync()
        // The first listed is synced (Dovecot lists by bytes: the decomposed one), alone; the other is named.
        let alike = try views.folders(account: accountName).filter { $0.path == composed }
        XCTAssertEqual(alike.count, 1)
        let kept = try XCTUnwrap(alike.first?.path)
        let keptComposed = kept.utf8.elementsEqual(path(composed).utf8)
        XCTAssertEqual(first.foldersAlike.count, 1)
        XCTAssertFalse(first.foldersAlike.first?.utf8.elementsEqual(kept.utf8) ?? true)
        XCTAssertEqual(try views.unreadCount(account: accountName, folder: kept, category: "all"), keptComposed ? 3 : 2)
        // More mail in both, synced in steps: still one folder's mail, and the views equal a rebuild.
        try fill(decomposed, [(id: "nfd9", subject: "Later", parent: nil, flags: [String]())], via: c)
        try sync()
        try fill(composed, [(id: "nfc9", subject: "Later", parent: nil, flags: [String]())], via: c)
        try sync()
        XCTAssertEqual(try views.unreadCount(account: accountName, folder: kept, category: "all"), keptComposed ? 4 : 3)
        let report = try views.compareWithRebuild()
        XCTAssertTrue(report.differences.isEmpty, "\(report.differences)")
    }

    /// The folder the views know in one form, on the server now in the other (deleted and made again by another client
    /// in the other form): it keeps the form the views know, and its mail is synced under it.
    func testAFolderThatChangedFormKeepsTheFormTheViewsKnow() throws {
        let c = try server()
        defer { c.logout() }
        try c.create(MailboxName(path(composed)))
        try fill(composed, (0..<2).map { (id: "old\($0)", subject: "Old \($0)", parent: nil, flags: [String]()) }, via: c)
        try addAccount()
        try sync()
        try c.delete(MailboxName(path(composed)))
        try c.create(MailboxName(path(decomposed)))
        try fill(decomposed, (0..<3).map { (id: "new\($0)", subject: "New \($0)", parent: nil, flags: [String]()) }, via: c)
        let r = try sync()
        XCTAssertTrue(r.foldersAlike.isEmpty)
        let named = try views.folders(account: accountName).filter { $0.path == composed }
        XCTAssertEqual(named.map { Array($0.path.unicodeScalars) }, [Array(path(composed).unicodeScalars)])
        XCTAssertEqual(try views.unreadCount(account: accountName, folder: path(composed), category: "all"), 3, "the new folder's mail, the old one's gone")
        let report = try views.compareWithRebuild()
        XCTAssertTrue(report.differences.isEmpty, "\(report.differences)")
    }

    /// The folder the views know stays the one synced when a folder of the other form appears and is listed before it
    /// (Dovecot lists by bytes: the decomposed name first): the newcomer is named, the known one's mail is kept.
    func testTheKnownFolderIsKeptWhenOneOfTheOtherFormIsListedFirst() throws {
        let c = try server()
        defer { c.logout() }
        try c.create(MailboxName(path(composed)))
        try fill(composed, (0..<2).map { (id: "known\($0)", subject: "Known \($0)", parent: nil, flags: [String]()) }, via: c)
        try addAccount()
        try sync()
        try c.create(MailboxName(path(decomposed)))
        try fill(decomposed, (0..<5).map { (id: "late\($0)", subject: "Late \($0)", parent: nil, flags: [String]()) }, via: c)
        let r = try sync()
        XCTAssertEqual(r.foldersAlike.map { Array($0.unicodeScalars) }, [Array(path(decomposed).unicodeScalars)])
        XCTAssertEqual(try views.unreadCount(account: accountName, folder: path(composed), category: "all"), 2, "the known folder's mail")
        XCTAssertTrue(try views.copies(account: accountName, messageID: "known0@example.com").count == 1)
        XCTAssertTrue(try views.copies(account: accountName, messageID: "late0@example.com").isEmpty)
        let report = try views.compareWithRebuild()
        XCTAssertTrue(report.differences.isEmpty, "\(report.differences)")
    }
}
