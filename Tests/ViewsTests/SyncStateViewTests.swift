import EventModel
import MailStore
import Projections
import Views
import XCTest

/// The sync state and accounts views, folded from the events the sync engine and `account add` write.
final class SyncStateViewTests: ViewsTestCase {
    private func copy(_ id: String, uid: UInt32, validity: UInt32 = 7, folder: String = "INBOX", flags: [String] = [],
                      messageID: String? = nil) throws {
        let p = EmailReceived(emailID: id, folder: folder, uid: uid, uidValidity: validity, messageID: messageID ?? "\(id)@x",
                              subject: "s", date: tick(), dateSource: .header, flags: flags, size: 10 + UInt64(uid),
                              blob: BlobHash(bytes: [UInt8](repeating: 2, count: 32))!)
        try event(.emailReceived(p), stream: .email(id))
    }

    func testCopiesFlagsExpungesAndCheckpoints() throws {
        try copy("e1", uid: 1)
        try copy("e2", uid: 2, flags: ["\\Seen"])
        try copy("e3", uid: 3)
        try event(.folderSyncCheckpointed(FolderSyncCheckpointed(folder: "INBOX", uidValidity: 7, highestUID: 3, uidNext: 4,
                                                                 highestModSeq: 11, lowestUIDFetched: nil)))
        try event(.flagsChanged(FlagsChanged(emailID: "e1", folder: "INBOX", flags: ["\\Flagged"], added: ["\\Flagged"])))
        try event(.emailExpunged(EmailExpunged(emailID: "e3", folder: "INBOX", uid: 3)))
        let v = try views()
        let copies = try v.syncedCopies(account: "acct", folder: "INBOX")
        XCTAssertEqual(Set(copies.keys), [1, 2])
        XCTAssertEqual(copies[1]?.flags, ["\\Flagged"])
        XCTAssertEqual(copies[2]?.flags, ["\\Seen"])
        XCTAssertEqual(copies[1]?.size, 11)
        XCTAssertEqual(try v.syncedCount(account: "acct", folder: "INBOX"), 2)
        XCTAssertEqual(try v.syncState(account: "acct", folder: "INBOX"),
                       FolderSyncState(uidValidity: 7, highestUID: 3, uidNext: 4, highestModSeq: 11, lowestUIDFetched: nil))
        XCTAssertNil(try v.syncState(account: "acct", folder: "Sent"))
        XCTAssertEqual(try v.syncedCount(account: "acct", folder: "Sent"), 0)
    }

    func testACopyMatchedAgainMovesToItsNewUID() throws {
        try copy("e1", uid: 5, validity: 7)
        try copy("e1", uid: 1, validity: 9)
        let copies = try views().syncedCopies(account: "acct", folder: "INBOX")
        XCTAssertEqual(Array(copies.keys), [1])
        XCTAssertEqual(copies[1]?.uidValidity, 9)
        XCTAssertEqual(try views().syncedCount(account: "acct", folder: "INBOX"), 1)
    }

    func testImportedCopiesWithoutUIDAreNotSyncState() throws {
        try receive("imported")
        XCTAssertTrue(try views().syncedCopies(account: "acct", folder: "INBOX").isEmpty)
    }

    func testFolderRemovedDropsItsCheckpoint() throws {
        try event(.folderSyncCheckpointed(FolderSyncCheckpointed(folder: "Old", uidValidity: 1, highestUID: 0)))
        try event(.folderRemoved(FolderRemoved(folder: "Old")))
        XCTAssertNil(try views().syncState(account: "acct", folder: "Old"))
    }

    func testAccountsViewFollowsAddAndRemove() throws {
        let added = AccountAdded(name: "work", email: "w@example.com", provider: "custom", imapHost: "imap.example.com",
                                 imapPort: 993, imapSecurity: "tls", auth: "plain", username: "w@example.com",
                                 credentialSource: "env:WORK_PASSWORD")
        try event(.accountAdded(added), account: "work", stream: "account/work")
        XCTAssertEqual(try views().accountList().map(\.settings), [added])
        XCTAssertEqual(try views().account(named: "work")?.settings.imapHost, "imap.example.com")
        try event(.accountRemoved(AccountRemoved(name: "work")), account: "work", stream: "account/work")
        XCTAssertTrue(try views().accountList().isEmpty)
    }

    func testSyncStateRebuildsToTheSameTables() throws {
        try copy("e1", uid: 1)
        try copy("e2", uid: 2)
        try event(.flagsChanged(FlagsChanged(emailID: "e2", folder: "INBOX", flags: ["\\Seen"])))
        let report = try views().compareWithRebuild()
        XCTAssertTrue(report.differences.isEmpty, "\(report.differences)")
    }
}
