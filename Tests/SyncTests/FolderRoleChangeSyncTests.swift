import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import TestSupport
import XCTest

/// A folder whose recorded role the listing changes is said in the sync's summary and JSON (`roleChanges`) with the
/// `FolderDiscovered` that records it. The case the twelfth round left: a nested folder whose role a build before
/// 2026-12-07 guessed from its name (`Work/Spam` as the Spam folder) becomes an ordinary folder at its next sync (a name
/// gives a role only at the top level or directly under INBOX); its mail stays where it is, and that had gone unsaid.
final class FolderRoleChangeSyncTests: SyncTestCase {
    func testANestedFolderWhoseRoleWasGuessedFromItsNameIsSaidToBecomeOrdinary() throws {
        let c = try server()
        defer { c.logout() }
        try fill("INBOX", [(id: "k0", subject: "Kept", parent: nil, flags: [String]())], via: c)
        try fill("Work/Spam", [(id: "w1", subject: "W1", parent: nil, flags: [String]())], via: c)
        try addAccount()
        try sync()
        // What an older build recorded for it on a server without SPECIAL-USE: the Spam folder, by its name.
        try store.commit([NewEvent(event: .folderDiscovered(FolderDiscovered(folder: "Work/Spam", displayName: "Spam", role: .junk, delimiter: "/")),
                                   account: accountName, stream: .folder(account: accountName, path: "Work/Spam"), actor: .sync)])
        XCTAssertEqual(try FetchThreadsUseCase(views: views).fetchFolders(accountId: accountName).first { $0.id == "Work/Spam" }?.role, .junk)

        views = nil
        store = nil
        let text = try mailstore(["sync"]).stdout
        XCTAssertTrue(text.contains("  Work/Spam: role junk -> custom\n"), text)
        store = try MailStore.open(at: dir.file("store"))
        views = try store.openViews()
        let folder = try XCTUnwrap(try FetchThreadsUseCase(views: views).fetchFolders(accountId: accountName).first { $0.id == "Work/Spam" })
        XCTAssertEqual(folder.role, .custom)
        XCTAssertEqual(try views.syncedCount(account: accountName, folder: "Work/Spam"), 1, "its mail stays")

        // Said once: the next sync finds the role it recorded.
        XCTAssertEqual(try sync().roleChanges, [])
        XCTAssertTrue(try mailstore(["sync", "--json"]).stdout.contains("\"roleChanges\":[]"))
    }
}
