import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
@testable import MailStore
import Projections
import TestSupport
import XCTest

/// A folder's UIDVALIDITY changes under the store against the real Dovecot: another client deletes the folder and
/// creates it again with the same messages, in reverse order, so each old UID now names another message (RFC 3501:
/// every UID of the old value is void). Actions queued before, flags changed since first arrival, and the sync
/// view's copies must all come out as the server has them.
final class UIDValidityChangeTests: SyncTestCase {
    private var actions: ManageThreadActionsUseCase { ManageThreadActionsUseCase(store: store) }
    private let count = 4

    /// Fills G with g0...g3 (UIDs 1...4), adds the account and syncs.
    private func prepare(via c: IMAPConnection) throws {
        try fill("G", (0..<count).map { (id: "g\($0)", subject: "G\($0)", parent: nil, flags: [String]()) }, via: c)
        try addAccount()
        try sync()
    }

    /// Deletes G and creates it again with the same messages (as `fill` made them) in reverse order, each with its
    /// flags of the moment: g3 gets UID 1 ... g0 UID 4.
    private func recreateReversed(via c: IMAPConnection) throws {
        var flags: [String: [String]] = [:]
        for i in 0..<count { flags["g\(i)"] = Array(try serverFlags(of: "g\(i)", in: "G", via: c) ?? []) }
        _ = try c.select(MailboxName("INBOX"), readOnly: true)  // Dovecot ends a session whose selected mailbox is deleted
        try c.delete(MailboxName(path("G")))
        try c.create(MailboxName(path("G")))
        for i in (0..<count).reversed() {
            _ = try c.append(to: MailboxName(path("G")), message: SyncTestCase.message("g\(i)", subject: "G\(i)", day: 1 + i),
                             flags: flags["g\(i)"] ?? [])
        }
        XCTAssertEqual(try c.select(MailboxName(path("G")), readOnly: true).exists, UInt32(count))
        XCTAssertEqual(try c.uidSearch([.header("Message-ID", "g0@example.com")]), [UInt32(count)], "g0 moved to the last UID")
    }

    private func thread(_ id: String) throws -> String {
        let copy = try XCTUnwrap(try views.copies(account: accountName, messageID: "\(id)@example.com").first)
        return try XCTUnwrap(try views.emailRecord(id: copy.emailID)).threadID
    }

    /// The flags (without \Recent) of the message `id@example.com` in `folder`; nil when it is not there.
    private func serverFlags(of id: String, in folder: String, via c: IMAPConnection) throws -> Set<String>? {
        _ = try c.select(MailboxName(path(folder)), readOnly: true)
        guard let uid = try c.uidSearch([.header("Message-ID", "\(id)@example.com")]).first else { return nil }
        var flags: Set<String> = []
        try c.uidFetch(UIDSet(uid), [.uid, .flags]) { m in flags = Set((m.flags ?? []).filter { $0.lowercased() != "\\recent" }) }
        return flags
    }

    /// Views agree with the server and with a rebuild, and a sync with nothing new records nothing.
    private func assertSettled(file: StaticString = #filePath, line: UInt = #line) throws {
        try assertViewsMatchServer(file: file, line: line)
        let rebuild = try views.compareWithRebuild()
        XCTAssertTrue(rebuild.differences.isEmpty, "verify --views: \(rebuild.differences)", file: file, line: line)
        XCTAssertEqual(try sync().events, 0, "a sync with nothing new appends nothing", file: file, line: line)
        XCTAssertEqual(try sync().received, 0, "nothing is fetched again", file: file, line: line)
    }

    /// A thread moved out of G (written back), then G recreated by another client (a new UIDVALIDITY): a sync of G
    /// alone records the moved message's new copy in the Archive first. The re-match had expunged the copy the views
    /// showed in the Archive, and the message was in no folder until the Archive's own sync.
    func testMailMovedOutOfAFolderRecreatedSinceStaysWhereItWent() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(via: c)
        let archive = try actions.moveThread(id: try thread("g0"), toFolderId: path("Archive"))
        XCTAssertEqual(try XCTUnwrap(try store.pushActions(for: archive.description)).applied, 1)
        _ = try c.select(MailboxName("INBOX"), readOnly: true)
        try c.delete(MailboxName(path("G")))
        try c.create(MailboxName(path("G")))
        for i in 1..<count {
            _ = try c.append(to: MailboxName(path("G")), message: SyncTestCase.message("g\(i)", subject: "G\(i)", day: 1 + i), flags: [])
        }
        guard let account = try views.account(named: accountName)?.settings else { throw SyncError.noAccount(accountName) }
        let report = try SyncEngine(store: store, account: account, options: SyncOptions(folders: [path("G")])).run()
        XCTAssertEqual(report.folders.map(\.folder), [path("Archive"), path("G")], "the destination first")
        XCTAssertTrue(try threads("Archive").contains(["g0@example.com"]), "the moved thread shows in the Archive")
        XCTAssertEqual(try views.copies(account: accountName, messageID: "g0@example.com").count, 1)
        try assertSettled()
    }

    /// A delete queued before the change moves the message it was for, not the one now at its old UID.
    func testADeleteQueuedBeforeAUIDValidityChangeDeletesTheRightMessage() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(via: c)
        try actions.deleteThread(id: try thread("g0"))
        try recreateReversed(via: c)
        let report = try sync()
        XCTAssertEqual(report.actions.applied, 1)
        XCTAssertEqual(report.actions.rejected, 0)
        XCTAssertNotNil(try serverFlags(of: "g0", in: "Trash", via: c), "g0 went to Trash")
        XCTAssertNil(try serverFlags(of: "g0", in: "G", via: c))
        for i in 1..<count {
            XCTAssertNotNil(try serverFlags(of: "g\(i)", in: "G", via: c), "g\(i) stays in G")
            XCTAssertNil(try serverFlags(of: "g\(i)", in: "Trash", via: c), "g\(i) not deleted")
        }
        try assertSettled()
    }

    /// A star and a read queued before the change reach the message they were for and only it.
    func testFlagActionsQueuedBeforeAUIDValidityChangeReachTheRightMessage() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(via: c)
        let t = try thread("g0")
        try actions.starThreads(ids: [t])
        try actions.toggleReadStatus(threadId: t)
        try recreateReversed(via: c)
        let report = try sync()
        XCTAssertEqual(report.actions.applied, 2)
        XCTAssertEqual(try serverFlags(of: "g0", in: "G", via: c), ["\\Seen", "\\Flagged"])
        for i in 1..<count { XCTAssertEqual(try serverFlags(of: "g\(i)", in: "G", via: c), [], "g\(i) untouched") }
        XCTAssertEqual(try views.thread(id: t)?.isStarred, true)
        XCTAssertEqual(try views.thread(id: t)?.unreadCount, 0)
        try assertSettled()
    }

    /// Flags changed after first arrival survive the re-match: the copies end with the server's flags.
    func testRematchedCopiesKeepTheServersFlagsNotThoseOfTheirFirstArrival() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(via: c)
        _ = try c.select(MailboxName(path("G")), readOnly: false)
        _ = try c.uidStore(.all, .add, flags: ["\\Seen", "\\Flagged"])
        try sync()
        try recreateReversed(via: c)
        let report = try sync()
        XCTAssertEqual(report.folders.first { $0.folder == path("G") }?.rematched, count)
        for i in 0..<count {
            XCTAssertEqual(try serverFlags(of: "g\(i)", in: "G", via: c), ["\\Seen", "\\Flagged"])
            let t = try views.thread(id: try thread("g\(i)"))
            XCTAssertEqual(t?.isStarred, true, "g\(i) starred")
            XCTAssertEqual(t?.unreadCount, 0, "g\(i) read")
        }
        try assertSettled()
    }

    /// A re-match where the UIDs come back in another order keeps every copy in the sync view.
    func testARematchInReverseOrderKeepsEveryCopy() throws {
        let c = try server()
        defer { c.logout() }
        try prepare(via: c)
        let ids = Set(try views.syncedCopies(account: accountName, folder: path("G")).values.map(\.emailID))
        try recreateReversed(via: c)
        let report = try sync()
        let g = try XCTUnwrap(report.folders.first { $0.folder == path("G") })
        XCTAssertTrue(g.uidValidityChanged)
        XCTAssertEqual(g.rematched, count)
        XCTAssertEqual(g.received, 0)
        let after = try views.syncedCopies(account: accountName, folder: path("G"))
        XCTAssertEqual(after.count, count)
        XCTAssertEqual(Set(after.values.map(\.emailID)), ids, "every copy kept its email id")
        XCTAssertEqual(try views.syncedCount(account: accountName, folder: path("G")), count)
        try assertSettled()
    }
}
