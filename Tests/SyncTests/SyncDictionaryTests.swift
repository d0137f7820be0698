import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import MailStore
import XCTest

/// The account's blob dictionary at sync: trained on the first batch big enough, then used; the stored bytes
/// stay the server's bytes.
final class SyncDictionaryTests: SyncTestCase {
    func testFirstBigBatchTrainsTheAccountsDictionaryAndBlobsStayExact() throws {
        let c = try server()
        defer { c.logout() }
        let footer = String(repeating: "discussion mailing list, https://lists.example.org/mailman/listinfo/discussion\r\n", count: 8)
        var sent: [String: [UInt8]] = [:]
        for i in 0..<60 {
            let bytes = SyncTestCase.message("d\(i)", subject: "[discussion] item \(i % 9)", day: 1 + i % 27,
                                             body: "Point \(i * 7919) of the minutes.\r\n\(footer)")
            sent["d\(i)@example.com"] = bytes
            _ = try c.append(to: MailboxName("INBOX"), message: bytes, flags: [])
        }
        try addAccount()
        XCTAssertNil(try store.log.blobDictionary(account: accountName))
        let report = try sync(batch: 500)
        XCTAssertEqual(report.received, 60)
        XCTAssertNotNil(try store.log.blobDictionary(account: accountName), "the first batch of 60 trained one")
        let inbox = try views.syncedCopies(account: accountName, folder: "INBOX")
        XCTAssertEqual(inbox.count, 60)
        for copy in inbox.values {
            let stored = try XCTUnwrap(try store.email(id: copy.emailID)).payload
            XCTAssertEqual(try store.log.blob(stored.blob), sent[copy.messageID ?? ""], "byte-exact through the dictionary")
        }
        let verify = try store.log.verify()
        XCTAssertTrue(verify.isClean, "\(verify.problems)")
        XCTAssertEqual(verify.dictionariesChecked, 1)
    }
}
