import EventModel
import Foundation
import MailStore
import Projections
import Views
import XCTest

/// A folder's role learnt (or lost) after its mail was folded, in a later batch: the rows it moves are
/// recomputed, so the views equal a rebuild that folds it all in one batch.
final class FolderRoleChangeTests: ViewsTestCase {
    private func assertEqualsRebuild(_ views: ViewStore, _ message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try event(.emailCategorized(EmailCategorized(emailID: "nonexistent", category: .social)))
        try views.catchUp()
        let (_, diffs) = try views.compareWithRebuild()
        XCTAssertEqual(diffs, [], message, file: file, line: line)
    }

    /// Mail folded into "Box", then "Box" found to be the Inbox: its threads join the unified Inbox; then
    /// found to be something else: they leave it.
    func testThreadsMoveInAndOutOfTheUnifiedInboxWithTheirFoldersRole() throws {
        let views = try views()
        for i in 0..<5 { try receive("m\(i)", folder: "Box", messageID: "m\(i)@x") }
        try views.catchUp()
        XCTAssertEqual(try FetchThreadsUseCase(views: views).fetchThreads(accountId: "*", folderId: "INBOX").threads.count, 0)

        try folder("Box", role: .inbox)
        try views.catchUp()
        XCTAssertEqual(try FetchThreadsUseCase(views: views).fetchThreads(accountId: "*", folderId: "INBOX").threads.count, 5,
                       "Box is the Inbox now: its threads are in the unified Inbox")
        try assertEqualsRebuild(views, "after the role was learnt")

        try folder("Box", role: .archive)
        try views.catchUp()
        XCTAssertEqual(try FetchThreadsUseCase(views: views).fetchThreads(accountId: "*", folderId: "INBOX").threads.count, 0)
        try assertEqualsRebuild(views, "after the role changed again")
    }

    /// A starred thread is listed under the virtual Starred folder until the account has a Starred folder of
    /// its own, and again once that folder is gone.
    func testStarredThreadsFollowTheAccountsOwnStarredFolder() throws {
        let views = try views()
        try receive("s1", flags: ["\\Flagged"])
        try receive("s2", folder: "Lists", flags: ["\\Flagged"])
        try receive("plain")
        try views.catchUp()
        // The index's listing (the use case refuses the virtual folder's name once the account has its own).
        let virtual = { try views.threadPage(scope: "acct", folder: ThreadsProjector.virtualStarred, category: nil, after: nil, limit: 100).threads.count }
        XCTAssertEqual(try virtual(), 2)

        try folder("Starred", role: .flagged)
        try views.catchUp()
        XCTAssertEqual(try virtual(), 0, "the account has a Starred folder of its own")
        try assertEqualsRebuild(views, "after a Starred folder was found")

        try event(.folderRemoved(FolderRemoved(folder: "Starred")), stream: .folder(account: "acct", path: "Starred"))
        try views.catchUp()
        XCTAssertEqual(try virtual(), 2, "the virtual Starred folder again")
        try assertEqualsRebuild(views, "after the Starred folder went")
    }
}
