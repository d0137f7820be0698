import EventLog
import EventModel
import Foundation
import LMDB
import MailStore
import Projections
import TestSupport
import Views
import XCTest

/// Events the views could not decode: one a newer mailstore wrote is named (the views lack its mail: upgrade), and
/// views an older build folded without events this build reads are rebuilt. A build had shown a newer build's store
/// without its mail, exit 0, and the newer build then kept those views without the mail too.
final class UnreadableEventsTests: ViewsTestCase {
    func page(_ views: ViewStore) throws -> [String] {
        try views.read { try ThreadsReader($0).page(scope: "acct", folder: "INBOX", category: nil, after: nil, limit: 100).threads.map(\.subject) }
    }

    /// An `EmailReceived` as a newer build writes it: schema 3 (its bytes, here, version 2's).
    func receiveFromANewerBuild(_ id: String, subject: String) throws {
        let p = EmailReceived(emailID: id, folder: "INBOX", messageID: "\(id)@example.com", inReplyTo: [], references: [],
                              gmailThreadID: nil, subject: subject, from: [EmailAddress(name: "Ann", email: "ann@example.com")],
                              to: [], date: tick(), dateSource: .header, flags: [], snippet: "", attachments: [], size: 10,
                              blob: BlobHash(bytes: [UInt8](repeating: 2, count: 32))!)
        var w = ByteWriter()
        DomainEvent.emailReceived(p).encodePayload(to: &w)
        try event(.unknown(type: .emailReceived, version: EmailReceived.schemaVersion + 1, payload: w.bytes), stream: .email(id))
    }

    func testEventsOfANewerBuildAreNamedNotPassedOverInSilence() throws {
        try folder("INBOX", role: .inbox)
        try receive("m1", subject: "old")
        try receiveFromANewerBuild("m2", subject: "new")
        var notes: [String] = []
        let views = try store.openViews(notice: { notes.append($0) })
        XCTAssertEqual(try page(views), ["old"])
        XCTAssertTrue(notes.contains { $0.contains("written by a newer mailstore") && $0.contains("upgrade mailstore") }, "\(notes)")

        // verify: sound records of a newer build are not damage to restore from a backup.
        let report = try store.verifyLog()
        XCTAssertTrue(report.isClean, "\(report.problems)")
        XCTAssertEqual(report.newerRecords, 1)
        XCTAssertEqual(report.firstNewerRecord?.sequence, try store.log.head().sequence)
    }

    func testViewsFoldedWithoutAnEventThisBuildReadsAreRebuilt() throws {
        try folder("INBOX", role: .inbox)
        try receive("m1", subject: "one")
        try receive("m2", subject: "boom")
        try receive("m3", subject: "three")
        // An older build's fold: it set m2 aside (here: a projector failing on it, and the entry of an event that did
        // not decode, as the older build's).
        let flaky = ViewCatalog([FlakyThreadsProjector.self] + ViewCatalog.all.filter { $0.name != .threads })
        let seq: UInt64
        do {
            let old = try ViewStore.open(store: store.directory, log: store.log, catalog: flaky)
            XCTAssertEqual(try page(old).sorted(), ["one", "three"])
            seq = try XCTUnwrap(try old.quarantined().first?.sequence)
            let entry = QuarantinedEvent(sequence: seq, view: "*", error: "does not decode: EmailReceived schema version 2 is newer than this build reads (up to 1): upgrade mailstore")
            let q = try old.environment.openDatabase("views.quarantine")
            try old.environment.write { txn in _ = try txn.put(q, key: entry.key, value: Array(entry.error.utf8)) }
        }
        var notes: [String] = []
        let views = try store.openViews(notice: { notes.append($0) })
        XCTAssertTrue(notes.contains { $0.contains("could not read event \(seq)") }, "\(notes)")
        XCTAssertEqual(try page(views).sorted(), ["boom", "one", "three"])
        XCTAssertEqual(try views.quarantined(), [])
    }
}

/// A long-running process (a `sync --watch`) follows a replay made meanwhile: its views are opened again on the new
/// generation. It had gone on folding into the old one, deleted, for its whole life.
final class ReplacedViewsTests: ViewsTestCase {
    func testViewsAReplayReplacedAreOpenedAgain() throws {
        try receive("m1")
        let first = try store.views()
        XCTAssertFalse(try store.reopenViewsIfReplaced(), "the views are current")
        _ = try ViewStore.replay(store: store.directory, log: store.log)
        XCTAssertTrue(try store.reopenViewsIfReplaced())
        let now = try store.views()
        XCTAssertNotEqual(now.path, first.path)
        XCTAssertEqual(ViewStore.currentGeneration(store.directory.viewsPath), (now.path as NSString).lastPathComponent)
        XCTAssertFalse(try store.reopenViewsIfReplaced())
    }
}
