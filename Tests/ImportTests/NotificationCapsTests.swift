import EventModel
import Foundation
import MailStore
import TestSupport
import XCTest

/// The bounds on notifications a store keeps and posts: `vip add` and `mute` past their caps are refused with nothing
/// recorded (the fold still keeps a log with more bounded), and the flood caps across syncs (per minute, per thread)
/// decide from the log, the same after a replay.
final class NotificationCapsTests: XCTestCase {
    var dir: TemporaryDirectory!
    var store: MailStore!

    override func setUpWithError() throws {
        dir = TemporaryDirectory("notify-caps")
        store = try MailStore.create(at: dir.file("store"))
    }

    func preference(_ change: NotificationPreference, _ value: String) -> NewEvent {
        NewEvent(event: .notificationPreferenceChanged(NotificationPreferenceChanged(change: change, value: value, quietStart: 0, quietEnd: 0)),
                 account: "", stream: NotificationCoordinator.settingsStream, actor: .user)
    }

    /// Commits `events` in batches (as many processes' adds would).
    func commit(_ events: [NewEvent]) throws {
        var rest = events[...]
        while !rest.isEmpty {
            _ = try store.commit(Array(rest.prefix(500)))
            rest = rest.dropFirst(500)
        }
    }

    /// Imports messages (subject, references) dated now into `work`'s Inbox as a sync files them; returns their email ids
    /// by subject.
    func importing(_ messages: [(subject: String, references: String?)]) throws -> [String: String] {
        let md = dir.file("md-\(UUID().uuidString)")
        for sub in ["cur", "new", "tmp"] { try FileManager.default.createDirectory(atPath: md + "/" + sub, withIntermediateDirectories: true) }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        for (subject, references) in messages {
            let text = "Message-ID: <\(subject)@example.com>\r\n" + (references.map { "References: <\($0)@example.com>\r\n" } ?? "")
                + "From: Ann <ann@example.com>\r\nTo: me@example.com\r\nSubject: \(subject)\r\nDate: \(f.string(from: Date()))\r\n\r\nhello\r\n"
            XCTAssertTrue(FileManager.default.createFile(atPath: md + "/cur/\(subject):2,", contents: Data(text.utf8)))
        }
        var options = Importer.Options()
        options.account = "work"
        options.underServerAccount = true
        let before = try store.head().sequence
        _ = try Importer(store: store, options: options).importMaildir(md)
        var ids: [String: String] = [:]
        try store.scan(from: before + 1, filter: ScanFilter(types: [.emailReceived])) { ev in
            if case .emailReceived(let p) = try ev.decode() { ids[p.subject] = p.emailID }
            return true
        }
        return ids
    }

    func testAVIPAddPastTheCapIsRefusedWithNothingRecordedAndTheFoldStaysBounded() throws {
        let c = NotificationCoordinator(store: store)
        let cap = NotificationCoordinator.maxVIPs
        XCTAssertEqual(cap, 1_000)
        try commit((1..<cap).map { preference(.vipAdded, "vip\($0)@vips.example") })
        XCTAssertEqual(try c.addVIP("VIP1000@vips.example"), "vip1000@vips.example", "the 1,000th is kept")
        let head = try store.head().sequence
        XCTAssertThrowsError(try c.addVIP("extra1@vips.example")) { error in
            XCTAssertEqual(error as? NotificationError, .tooManyVIPs(cap: cap))
            XCTAssertEqual(ErrorCategory(of: error), .refused, "exit 7, a refused request")
            XCTAssertTrue("\(error)".contains("1000 VIPs already") && "\(error)".contains("vip remove"), "\(error)")
        }
        XCTAssertEqual(try store.head().sequence, head, "nothing recorded")
        XCTAssertNoThrow(try c.addVIP("vip5@vips.example"), "one kept already is no add past the cap")
        // A log with more (another build, or adds racing past the check): the first 1,000 are kept, the rest counted.
        try commit((1...5).map { preference(.vipAdded, "late\($0)@vips.example") })
        var s = try c.settings()
        XCTAssertEqual(s.vips.count, cap)
        XCTAssertFalse(s.isVIP("late1@vips.example"))
        XCTAssertTrue(s.isVIP("vip1@vips.example"))
        XCTAssertEqual(try c.leftOut().vips, 5)
        // The same after a rebuild of the views.
        _ = try store.replay()
        XCTAssertEqual(try c.settings().vips.count, cap)
        XCTAssertEqual(try c.leftOut().vips, 5)
        // Room made: an add is taken again.
        try c.removeVIP("vip1@vips.example")
        try c.addVIP("extra1@vips.example")
        s = try c.settings()
        XCTAssertTrue(s.isVIP("extra1@vips.example"))
        XCTAssertEqual(s.vips.count, cap)
        try c.reset()
        XCTAssertEqual(try c.leftOut().vips, 0)
    }

    func testAMutePastTheCapIsRefusedWithNothingRecorded() throws {
        let c = NotificationCoordinator(store: store)
        let ids = try importing([("Real thread", nil)])
        let thread = try XCTUnwrap(try store.latestViews().emailRecord(id: try XCTUnwrap(ids["Real thread"]))?.threadID)
        let cap = NotificationCoordinator.maxMutedThreads
        try commit((0..<cap).map { preference(.threadMuted, "M-\($0)") })
        let head = try store.head().sequence
        XCTAssertThrowsError(try c.mute(thread: thread)) { error in
            XCTAssertEqual(error as? NotificationError, .tooManyMutedThreads(cap: cap))
            XCTAssertEqual(ErrorCategory(of: error), .refused)
        }
        XCTAssertEqual(try store.head().sequence, head, "nothing recorded")
        XCTAssertFalse(try c.settings().mutedThreads.contains(thread))
        try c.unmute(thread: "M-0")
        try c.mute(thread: thread)
        XCTAssertTrue(try c.settings().mutedThreads.contains(thread))
        XCTAssertEqual(try c.settings().mutedThreads.count, cap)
    }

    /// A burst over many syncs posts at most `maxBannersPerWindow` a minute, and a thread notified already no more than
    /// `maxBannersPerThread` standing: decided from the recorded decisions' sync times, so a replay folds the same and a
    /// decision after it counts the same.
    func testTheCapsAcrossSyncsGoByTheLogAndHoldAfterAReplay() throws {
        let c = NotificationCoordinator(store: store)
        let singles = (0..<30).map { (subject: "single\($0)", references: String?.none) }
        let replies = (0..<8).map { (subject: "reply\($0)", references: $0 == 0 ? String?.none : "reply0") }
        let ids = try importing(singles + replies)
        XCTAssertEqual(ids.count, 38)
        let t = Timestamp.now
        func decide(_ subjects: [String], after seconds: Int64) throws -> [String: String] {
            let decided = try c.didSyncNewEmails(account: "work", emailIDs: subjects.map { ids[$0]! },
                                                 sync: NotificationSync(time: Timestamp(microseconds: t.microseconds + seconds * 1_000_000), background: true))
            return Dictionary(uniqueKeysWithValues: decided.map { ($0.subtitle, $0.outcome == .posted ? "posted" : $0.reason) })
        }
        func count(_ d: [String: String], _ what: String) -> Int { d.values.filter { $0 == what }.count }
        let s1 = try decide((0..<15).map { "single\($0)" }, after: 0)
        XCTAssertEqual(count(s1, "posted"), 10, "the per-sync cap: \(s1)")
        XCTAssertEqual(count(s1, "flood-cap"), 5)
        let s2 = try decide((15..<30).map { "single\($0)" }, after: 10)
        XCTAssertEqual(count(s2, "posted"), NotificationDecider.maxBannersPerWindow - 10, "20 a minute across syncs: \(s2)")
        let s3 = try decide(["reply0", "reply1"], after: 20)
        XCTAssertEqual(s3, ["reply0": "flood-cap", "reply1": "flood-cap"], "the minute's 20 are used")
        let s4 = try decide(["reply2", "reply3", "reply4"], after: 75)
        XCTAssertEqual(count(s4, "posted"), 3, "a minute later there is room; a thread's first banners: \(s4)")
        let before = try c.recent(limit: 1_000).map { "\($0.decision.subtitle) \($0.decision.outcome) \($0.decision.reason) \($0.state)" }
        XCTAssertEqual(before.count, 35)
        _ = try store.replay()
        let after = try c.recent(limit: 1_000).map { "\($0.decision.subtitle) \($0.decision.outcome) \($0.decision.reason) \($0.state)" }
        XCTAssertEqual(after, before, "the replay folds the recorded decisions, never re-decides")
        // Decided on the rebuilt views: the thread has 3 banners standing from an earlier sync, so its replies give none.
        let s5 = try decide(["reply5", "reply6"], after: 85)
        XCTAssertEqual(s5, ["reply5": "thread-cap", "reply6": "thread-cap"])
        // Past the thread window (10 minutes) it may notify again (background syncs: recency 1 hour).
        let s6 = try decide(["reply7"], after: 75 + NotificationDecider.threadWindowSeconds + 1)
        XCTAssertEqual(s6, ["reply7": "posted"])
    }
}
