import EventModel
import Projections
import XCTest

/// The notification decision rules (spec AC-N-03..13, E-01..E-16, E-20, E-22) on the pure decider.
final class NotificationDeciderTests: XCTestCase {
    /// 2023-11-14 22:13:20 UTC.
    let now = Timestamp(microseconds: 1_700_000_000_000_000)

    func email(_ id: String, from: String = "john@example.com", name: String? = "John Doe", thread: String = "T-1",
               roles: Set<FolderRole> = [.inbox], category: AICategory = .uncategorized, ageSeconds: Int64 = 60,
               snippet: String? = "Hi team", messageKey: String? = nil) -> NotificationCandidate {
        NotificationCandidate(emailID: id, messageKey: messageKey, threadID: thread, account: "work", fromName: name, fromAddress: from,
                              subject: "Meeting Tomorrow", snippet: snippet,
                              dateReceived: Timestamp(microseconds: now.microseconds - ageSeconds * 1_000_000),
                              folderRoles: roles, category: category)
    }

    func sync(background: Bool = false, first: Bool = false, active: FolderRole? = nil, at minute: Int64? = nil) -> NotificationSync {
        guard let minute else { return NotificationSync(time: now, background: background, isFirstSync: first, activeFolder: active) }
        let midnight = now.microseconds / 86_400_000_000 * 86_400_000_000
        return NotificationSync(time: Timestamp(microseconds: midnight + minute * 60_000_000), background: background,
                                isFirstSync: first, activeFolder: active)
    }

    func decide(_ c: [NotificationCandidate], _ s: NotificationSettings = NotificationSettings(), _ y: NotificationSync? = nil) -> [NotificationDecided] {
        NotificationDecider.decide(c, settings: s, sync: y ?? sync())
    }

    func one(_ c: NotificationCandidate, _ s: NotificationSettings = NotificationSettings(), _ y: NotificationSync? = nil) -> (NotificationOutcome, String) {
        let d = decide([c], s, y)
        XCTAssertEqual(d.count, 1)
        return (d[0].outcome, d[0].reason)
    }

    // AC-N-13, E-13: a session's first sync (the app just launched) suppresses everything, however new; the account's
    // first sync keeps its own reason; the decision carries the message key (dedup across copies gone since).
    func testASessionStartSuppressesEverything() {
        let start = NotificationSync(time: now, isSessionStart: true)
        let d = decide((0..<15).map { email("e\($0)", thread: "T\($0)", ageSeconds: 5) }, NotificationSettings(), start)
        XCTAssertEqual(d.count, 15)
        XCTAssertTrue(d.allSatisfy { $0.outcome == .suppressed && $0.reason == "session-start" })
        XCTAssertTrue(one(email("e1"), NotificationSettings(), NotificationSync(time: now, isFirstSync: true, isSessionStart: true))
            == (.suppressed, "first-sync"))
        XCTAssertTrue(one(email("e1")) == (.posted, "passed"), "later syncs of the session decide as usual")
        XCTAssertEqual(decide([email("e1", messageKey: "m1@example.com")])[0].messageKey, "m1@example.com")
    }

    /// A copy skipped as decided (outside the Inbox, a copy of its message decided before) does not take the message
    /// from a later copy of the same sync that is to be decided (the Inbox's): it is decided.
    func testACopySkippedAsDecidedLeavesTheMessageToTheInboxCopy() {
        let important = email("imp", roles: [.custom], messageKey: "m@x")
        let inbox = email("inb", roles: [.inbox], messageKey: "m@x")
        let d = NotificationDecider.decide([important, inbox], settings: NotificationSettings(), sync: sync()) { $0.emailID == "imp" }
        XCTAssertEqual(d.map(\.emailID), ["inb"])
        XCTAssertEqual(d.first?.outcome, .posted)
        XCTAssertEqual(decide([inbox, email("all", roles: [.all], messageKey: "m@x")]).map(\.emailID), ["inb"],
                       "two new copies of one message: one decision")
    }

    // AC-N-03
    func testContent() {
        let long = String(repeating: "abcdefghij", count: 15)
        let d = decide([email("e1", snippet: long)])[0]
        XCTAssertEqual(d.title, "John Doe")
        XCTAssertEqual(d.subtitle, "Meeting Tomorrow")
        XCTAssertEqual(d.body, String(long.prefix(100)))  // E-03
        XCTAssertEqual(d.body.count, 100)
        XCTAssertEqual(d.threadID, "T-1")
        XCTAssertEqual(d.fromAddress, "john@example.com")
        XCTAssertEqual(d.syncTime, now)
        XCTAssertEqual(NotificationRecord(decision: d, account: "work", position: 0).identifier, "email-e1")
    }

    // E-01, E-02
    func testTitleFallsBackToAddressAndEmptySnippet() {
        XCTAssertEqual(decide([email("e1", name: nil, snippet: nil)])[0].title, "john@example.com")
        XCTAssertEqual(decide([email("e1", name: "", snippet: nil)])[0].title, "john@example.com")
        XCTAssertEqual(decide([email("e1", snippet: nil)])[0].body, "")
    }

    // AC-N-05: passes all filters; empty list.
    func testPassesAndEmpty() {
        XCTAssertTrue(decide([]).isEmpty)
        XCTAssertTrue(one(email("e1")) == (.posted, "passed"))
    }

    // AC-N-06
    func testAccountSpamFolderFilters() {
        XCTAssertTrue(one(email("e1"), NotificationSettings(disabledAccounts: ["work"])) == (.suppressed, "account-disabled"))
        XCTAssertTrue(one(email("e1"), NotificationSettings(disabledAccounts: ["home"])) == (.posted, "passed"))
        XCTAssertTrue(one(email("e1", roles: [.junk])) == (.suppressed, "junk"))
        XCTAssertTrue(one(email("e1", roles: [.sent])) == (.suppressed, "not-in-inbox"))
        XCTAssertTrue(one(email("e1", roles: [.drafts])) == (.suppressed, "not-in-inbox"))  // E-05
        XCTAssertTrue(one(email("e1", roles: [.inbox, .flagged])) == (.posted, "passed"))  // E-06
    }

    // Not in the spec: the user's own mail in the Inbox (a list's copy of what they wrote, a note to self) is not news;
    // outside the Inbox the folder says why; a VIP (the user made themselves one) still bypasses it.
    func testTheUsersOwnMailIsSuppressed() {
        var mine = email("e1", from: "me@example.com")
        mine.fromUser = true
        XCTAssertTrue(one(mine) == (.suppressed, "own-mail"))
        var sent = mine
        sent.folderRoles = [.sent]
        XCTAssertTrue(one(sent) == (.suppressed, "not-in-inbox"))
        XCTAssertTrue(one(mine, NotificationSettings(vips: ["me@example.com"])) == (.posted, "vip"))
        XCTAssertTrue(one(email("e2", from: "me@example.com")) == (.posted, "passed"))
    }

    // AC-N-07, E-07
    func testCategoryFilter() {
        let off = NotificationSettings(disabledCategories: [.promotions])
        XCTAssertTrue(one(email("e1", category: .promotions), off) == (.suppressed, "category-off"))
        XCTAssertTrue(one(email("e1", category: .primary), off) == (.posted, "passed"))
        XCTAssertTrue(one(email("e1", category: .uncategorized), NotificationSettings(disabledCategories: Set(AICategory.allCases))) == (.posted, "passed"))
    }

    // AC-N-07, E-08, E-09, E-10
    func testQuietHours() {
        let night = NotificationSettings(quietHours: QuietHours(parsing: "22:00-07:00"))
        XCTAssertTrue(one(email("e1", ageSeconds: -100_000), night, sync(at: 23 * 60 + 30)) == (.suppressed, "quiet-hours"))
        XCTAssertTrue(one(email("e1", ageSeconds: -100_000), night, sync(at: 6 * 60 + 59)) == (.suppressed, "quiet-hours"))
        XCTAssertTrue(one(email("e1", ageSeconds: -100_000), night, sync(at: 7 * 60)) == (.posted, "passed"))
        XCTAssertTrue(one(email("e1", ageSeconds: -100_000), night, sync(at: 12 * 60)) == (.posted, "passed"))
        let day = NotificationSettings(quietHours: QuietHours(parsing: "09:00-17:00"))
        XCTAssertTrue(one(email("e1", ageSeconds: -100_000), day, sync(at: 12 * 60)) == (.suppressed, "quiet-hours"))
        XCTAssertTrue(one(email("e1", ageSeconds: -100_000), NotificationSettings(), sync(at: 23 * 60)) == (.posted, "passed"))
        // Local time: 21:30 UTC is 23:30 at UTC+2.
        var local = sync(at: 21 * 60 + 30)
        local.utcOffsetSeconds = 7_200
        XCTAssertTrue(one(email("e1", ageSeconds: -100_000), night, local) == (.suppressed, "quiet-hours"))
    }

    func testQuietHoursParsing() {
        XCTAssertEqual(QuietHours(parsing: "22:00-07:00"), QuietHours.preset)
        XCTAssertEqual(QuietHours.preset.text, "22:00-07:00")
        for bad in ["", "22:00", "24:00-07:00", "22:60-07:00", "2:00-07:00", "22:00-07:00-01:00", "aa:bb-cc:dd"] {
            XCTAssertNil(QuietHours(parsing: bad), bad)
        }
        XCTAssertNil(QuietHours(start: 1440, end: 0))
    }

    // AC-N-08, E-22
    func testMutedAndVIPCaseInsensitive() {
        XCTAssertTrue(one(email("e1", thread: "T-123"), NotificationSettings(mutedThreads: ["T-123"])) == (.suppressed, "muted"))
        XCTAssertTrue(one(email("e1", thread: "T-9"), NotificationSettings(mutedThreads: ["T-123"])) == (.posted, "passed"))
        let vip = NotificationSettings(vips: ["john@example.com"])
        XCTAssertTrue(one(email("e1", from: "John@Example.com"), vip) == (.posted, "vip"))
        XCTAssertTrue(NotificationSettings(vips: ["John@Example.COM"]).isVIP("john@example.com"))
    }

    // AC-N-05, E-04: a VIP bypasses every filter at once.
    func testVIPBypassesEveryFilter() {
        let s = NotificationSettings(disabledAccounts: ["work"], disabledCategories: [.promotions], quietHours: QuietHours.preset,
                                     vips: ["john@example.com"], mutedThreads: ["T-1"])
        let c = email("e1", roles: [.junk], category: .promotions, ageSeconds: -100_000)
        XCTAssertTrue(one(c, s, sync(at: 23 * 60)) == (.posted, "vip"))
        // Without the VIP, the first failing filter is the reason (AND logic).
        var plain = s
        plain.vips = []
        XCTAssertTrue(one(c, plain, sync(at: 23 * 60)) == (.suppressed, "account-disabled"))
        plain.disabledAccounts = []
        XCTAssertTrue(one(email("e1", category: .promotions, ageSeconds: -100_000), plain, sync(at: 12 * 60)) == (.suppressed, "category-off"))
    }

    // AC-N-13, E-13: nothing from an account's first sync, however many (VIPs too).
    func testFirstSyncSuppressesAll() {
        let many = (0..<500).map { email("e\($0)") }
        let d = decide(many, NotificationSettings(vips: ["john@example.com"]), sync(first: true))
        XCTAssertEqual(d.count, 500)
        XCTAssertTrue(d.allSatisfy { $0.outcome == .suppressed && $0.reason == "first-sync" })
        // The next sync posts the new ones.
        XCTAssertEqual(decide((0..<3).map { email("n\($0)", ageSeconds: 120) }).map(\.outcome), [.posted, .posted, .posted])
    }

    // E-15, E-16: recency against the sync's time.
    func testRecency() {
        XCTAssertTrue(one(email("e1", ageSeconds: 10 * 60)) == (.suppressed, "too-old"))
        XCTAssertTrue(one(email("e1", ageSeconds: 5 * 60)) == (.posted, "passed"))
        XCTAssertTrue(one(email("e1", ageSeconds: 10 * 60), NotificationSettings(), sync(background: true)) == (.posted, "passed"))
        XCTAssertTrue(one(email("e1", ageSeconds: 2 * 3600), NotificationSettings(), sync(background: true)) == (.suppressed, "too-old"))
    }

    // E-14: 15 qualifying give the 10 newest as banners, 5 badge-only.
    func testFloodCapKeepsTheTenNewest() {
        let c = (0..<15).map { email("e\($0)", ageSeconds: Int64(100 - $0)) }  // e14 is the newest
        let d = decide(c.shuffled())
        XCTAssertEqual(d.filter { $0.outcome == .posted }.count, 10)
        XCTAssertEqual(d.filter { $0.outcome == .badgeOnly && $0.reason == "flood-cap" }.count, 5)
        XCTAssertEqual(Set(d.filter { $0.outcome == .posted }.map(\.emailID)), Set((5..<15).map { "e\($0)" }))
    }

    // E-11, AC-N-10: one per message across folders, and nothing for what was decided before.
    func testDedup() {
        let d = decide([email("a", roles: [.inbox], messageKey: "m1"), email("b", roles: [.all], messageKey: "m1")])
        XCTAssertEqual(d.map(\.emailID), ["a"])
        let again = NotificationDecider.decide([email("a")], settings: NotificationSettings(), sync: sync()) { $0.emailID == "a" }
        XCTAssertTrue(again.isEmpty)
    }

    // AC-N-12, E-20, E-24: the folder the user looks at gives badge only; none given, no effect.
    func testActiveFolder() {
        XCTAssertTrue(one(email("e1"), NotificationSettings(), sync(active: .inbox)) == (.badgeOnly, "active-folder"))
        XCTAssertTrue(one(email("e1"), NotificationSettings(), sync(active: .archive)) == (.posted, "passed"))
        XCTAssertTrue(one(email("e1"), NotificationSettings(), sync(active: nil)) == (.posted, "passed"))
    }

    // Replay: the same inputs decide the same, whatever the wall clock.
    func testDeterministic() {
        let c = (0..<30).map { email("e\($0)", thread: "T\($0 % 4)", ageSeconds: Int64($0 * 7)) }
        let s = NotificationSettings(mutedThreads: ["T2"])
        XCTAssertEqual(decide(c, s), decide(c, s))
    }

    /// An earlier sync's posted decision (at `secondsAgo` before `now`) of `thread`, as the notifications view lists it.
    func earlier(_ id: String, thread: String, secondsAgo: Int64, state: NotificationRecord.State = .delivered) -> NotificationRecord {
        NotificationRecord(decision: NotificationDecided(emailID: id, threadID: thread, outcome: .posted, reason: "passed",
                                                         syncTime: Timestamp(microseconds: now.microseconds - secondsAgo * 1_000_000),
                                                         title: "t", subtitle: "s", body: "b", fromAddress: "a@b.c"),
                           account: "work", position: 0, state: state)
    }

    // The flood cap across syncs: the banners of the last minute count, older ones do not; the rest badge only, flood-cap.
    func testTheFloodCapCountsTheBannersOfTheLastMinute() {
        let c = (0..<15).map { email("e\($0)", thread: "N\($0)", ageSeconds: Int64(100 - $0)) }
        let recent = (0..<12).map { earlier("x\($0)", thread: "X\($0)", secondsAgo: 30) }
        var d = NotificationDecider.decide(c, settings: NotificationSettings(), sync: sync(), recentlyPosted: recent)
        XCTAssertEqual(d.filter { $0.outcome == .posted }.count, NotificationDecider.maxBannersPerWindow - 12)
        XCTAssertEqual(Set(d.filter { $0.outcome == .posted }.map(\.emailID)), Set((7..<15).map { "e\($0)" }), "the newest")
        XCTAssertEqual(d.filter { $0.reason == "flood-cap" }.count, 7)
        let old = (0..<30).map { earlier("x\($0)", thread: "X\($0)", secondsAgo: 61) }
        d = NotificationDecider.decide(c, settings: NotificationSettings(), sync: sync(), recentlyPosted: old)
        XCTAssertEqual(d.filter { $0.outcome == .posted }.count, 10, "a minute ago: only the per-sync cap")
    }

    // The thread cap: a thread with banners standing from an earlier sync gets new ones only up to 3 standing; read
    // (withdrawn) or older than 10 minutes, they do not count; a thread's first sync is bounded by the per-sync cap alone.
    func testAThreadNotifiedBeforeGetsAtMostThreeStanding() {
        let c = (0..<5).map { email("r\($0)", thread: "T-1", ageSeconds: Int64(50 - $0)) }
        let outcomes = { (recent: [NotificationRecord]) in
            NotificationDecider.decide(c, settings: NotificationSettings(), sync: self.sync(), recentlyPosted: recent).map { "\($0.emailID) \($0.reason)" }
        }
        XCTAssertEqual(outcomes([earlier("a", thread: "T-1", secondsAgo: 120), earlier("b", thread: "T-1", secondsAgo: 60)]),
                       ["r0 thread-cap", "r1 thread-cap", "r2 thread-cap", "r3 thread-cap", "r4 passed"], "the newest one, to 3 standing")
        XCTAssertEqual(outcomes([earlier("a", thread: "T-1", secondsAgo: 120, state: .withdrawn)]).filter { $0.hasSuffix("passed") }.count, 5,
                       "read since: its banners are gone")
        XCTAssertEqual(outcomes([earlier("a", thread: "T-1", secondsAgo: 601)]).filter { $0.hasSuffix("passed") }.count, 5,
                       "more than 10 minutes ago")
        XCTAssertEqual(outcomes([]).filter { $0.hasSuffix("passed") }.count, 5, "the thread's first sync (AC-N-04)")
        XCTAssertEqual(outcomes([earlier("a", thread: "T-2", secondsAgo: 60)]).filter { $0.hasSuffix("passed") }.count, 5, "another thread")
    }

    // Replay: the caps across syncs are a function of the recorded decisions and the sync's time, not the wall clock.
    func testTheCapsAcrossSyncsAreDeterministic() {
        let c = (0..<30).map { email("e\($0)", thread: "T\($0 % 4)", ageSeconds: Int64($0 * 7)) }
        let recent = (0..<9).map { earlier("x\($0)", thread: "T\($0 % 3)", secondsAgo: Int64($0 * 50)) }
        let a = NotificationDecider.decide(c, settings: NotificationSettings(), sync: sync(), recentlyPosted: recent)
        let b = NotificationDecider.decide(c.reversed(), settings: NotificationSettings(), sync: sync(), recentlyPosted: recent.shuffled())
        XCTAssertEqual(a.sorted { $0.emailID < $1.emailID }, b.sorted { $0.emailID < $1.emailID })
        XCTAssertTrue(a.contains { $0.reason == "thread-cap" }, "the earlier banners count: \(a.map(\.reason))")
    }
}
