import EventLog
import EventModel
import MailStore
import Projections
import Views
import XCTest

/// `history --thread`: every copy that ever belonged to the thread keeps its events in the thread's history (its
/// receipt, flag changes and expunge), not only the copies there now.
final class ThreadHistoryTests: ViewsTestCase {
    /// Each event of thread `t`'s history as "Type emailID" (the email an email event is about; actions by type).
    private func timeline(_ t: String) throws -> [String] {
        try store.history(of: .thread(t)).map { ev in
            switch try ev.decode() {
            case .emailReceived(let p): "EmailReceived \(p.emailID)"
            case .emailExpunged(let p): "EmailExpunged \(p.emailID)"
            case .flagsChanged(let p): "FlagsChanged \(p.emailID)"
            default: ev.envelope.type.name
            }
        }
    }

    /// An archived thread whose Inbox copy the server replaced by its Archive copy (the write-back's move, seen by
    /// the next sync): the Inbox copy's receipt and expunge stay in the history beside the Archive copy's receipt.
    func testAnArchivedThreadKeepsItsReplacedInboxCopy() throws {
        try folder("INBOX", role: .inbox)
        try folder("Archive", role: .archive)
        try receive("x1")
        let t = try XCTUnwrap(try views().emailRecord(id: "x1")).threadID
        try ManageThreadActionsUseCase(store: store).archiveThread(id: t)
        try event(.emailExpunged(EmailExpunged(emailID: "x1", folder: "Archive")), stream: .email("x1"))
        try receive("y1", folder: "Archive", messageID: "x1@example.com")
        XCTAssertEqual(try views().threadEmails(id: t).map(\.id), ["y1"], "the Archive copy is the thread's now")
        let history = try timeline(t)
        for line in ["EmailReceived x1", "ThreadArchived", "EmailExpunged x1", "EmailReceived y1"] {
            XCTAssertTrue(history.contains(line), "history lacks \(line): \(history)")
        }
    }

    /// A thread all of whose mail the server expunged, with no action on it: its history is the receipt and the
    /// expunge (it had been "no thread ... it never was").
    func testAThreadWhollyExpungedShowsItsReceiptAndExpunge() throws {
        try folder("INBOX", role: .inbox)
        try receive("z1")
        let t = try XCTUnwrap(try views().emailRecord(id: "z1")).threadID
        try event(.flagsChanged(FlagsChanged(emailID: "z1", folder: "INBOX", flags: ["\\Flagged"])), stream: .email("z1"))
        try event(.emailExpunged(EmailExpunged(emailID: "z1", folder: "INBOX")), stream: .email("z1"))
        XCTAssertNil(try views().thread(id: t), "no row: the thread is gone")
        XCTAssertEqual(try timeline(t), ["EmailReceived z1", "FlagsChanged z1", "EmailExpunged z1"])
    }

    /// A reply the user starred, then expunged on the server: its receipt, flag change and expunge stay in its
    /// thread's history. A batch star over two threads brings the other thread's copies into neither history.
    func testACopyAnActionTookKeepsItsEventsAfterItsExpunge() throws {
        try folder("INBOX", role: .inbox)
        try receive("e1", subject: "One")
        try receive("e2", messageID: "e2@example.com", inReplyTo: ["e1@example.com"], subject: "Re: One")
        try receive("o1", subject: "Other")
        let v = try views()
        let t = try XCTUnwrap(try v.emailRecord(id: "e1")).threadID
        let other = try XCTUnwrap(try v.emailRecord(id: "o1")).threadID
        try ManageThreadActionsUseCase(store: store).starThreads(ids: [t, other])
        try event(.flagsChanged(FlagsChanged(emailID: "e2", folder: "INBOX", flags: ["\\Flagged", "\\Seen"])), stream: .email("e2"))
        try event(.emailExpunged(EmailExpunged(emailID: "e2", folder: "INBOX")), stream: .email("e2"))
        try event(.emailExpunged(EmailExpunged(emailID: "o1", folder: "INBOX")), stream: .email("o1"))
        let history = try timeline(t)
        for line in ["EmailReceived e1", "EmailReceived e2", "ThreadStarred", "FlagsChanged e2", "EmailExpunged e2"] {
            XCTAssertTrue(history.contains(line), "history lacks \(line): \(history)")
        }
        XCTAssertFalse(history.contains { $0.hasSuffix(" o1") }, "the other thread's copy: \(history)")
        XCTAssertEqual(try timeline(other).filter { $0.hasPrefix("Email") }, ["EmailReceived o1", "EmailExpunged o1"])
    }
}
