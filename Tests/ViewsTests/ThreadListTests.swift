import EventModel
import MailStore
import Projections
import XCTest

final class ThreadListTests: ViewsTestCase {
    func testPaginationByCursor() throws {
        for i in 0..<60 { try receive("m\(i)") }
        let u = try useCase()
        let first = try u.fetchThreads(accountId: "acct", folderId: "INBOX")
        XCTAssertEqual(first.threads.count, FetchThreadsUseCase.defaultPageSize)
        XCTAssertEqual(first.threads.first?.messageIds, ["m59@example.com"], "newest first")
        XCTAssertTrue(first.hasMore)
        let second = try u.fetchThreads(accountId: "acct", folderId: "INBOX", cursor: first.nextCursor)
        XCTAssertEqual(second.threads.first?.messageIds, ["m34@example.com"])
        let third = try u.fetchThreads(accountId: "acct", folderId: "INBOX", cursor: second.nextCursor)
        XCTAssertEqual(third.threads.count, 10)
        XCTAssertFalse(third.hasMore)
        XCTAssertNil(third.nextCursor)
        let all = (first.threads + second.threads + third.threads).map(\.id)
        XCTAssertEqual(Set(all).count, 60, "no thread repeated or skipped")
    }

    func testHasMoreAtExactBoundaries() throws {
        for i in 0..<25 { try receive("e\(i)") }
        var page = try useCase().fetchThreads(accountId: "acct", folderId: "INBOX")
        XCTAssertEqual(page.threads.count, 25)
        XCTAssertFalse(page.hasMore)
        XCTAssertNil(page.nextCursor)
        try receive("e25")
        page = try useCase().fetchThreads(accountId: "acct", folderId: "INBOX")
        XCTAssertTrue(page.hasMore)
        XCTAssertEqual(try useCase().fetchThreads(accountId: "acct", folderId: "INBOX", cursor: page.nextCursor).threads.count, 1)
    }

    func testEmptyListingIsTheSpecsEmptyPage() throws {
        let page = try useCase().fetchThreads(accountId: "nobody", folderId: "INBOX")
        XCTAssertEqual(page, .empty)
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        XCTAssertEqual(String(decoding: try e.encode(page), as: UTF8.self), #"{"hasMore":false,"nextCursor":null,"threads":[]}"#)
    }

    func testThreadsSharingADateAreNeitherSkippedNorRepeated() throws {
        let same = Timestamp(microseconds: 1_800_000_000_000_000)
        for i in 0..<30 { try receive("s\(i)", date: same) }
        var seen: [String] = []
        var cursor: ThreadCursor?
        repeat {
            let p = try useCase().fetchThreads(accountId: "acct", folderId: "INBOX", cursor: cursor, pageSize: 4)
            seen += p.threads.map(\.id)
            cursor = p.nextCursor
        } while cursor != nil
        XCTAssertEqual(seen.count, 30)
        XCTAssertEqual(Set(seen).count, 30)
    }

    func testCursorStaysValidWhileNewMailArrives() throws {
        for i in 0..<30 { try receive("o\(i)") }
        let first = try useCase().fetchThreads(accountId: "acct", folderId: "INBOX", pageSize: 10)
        for i in 0..<5 { try receive("new\(i)") }
        let next = try useCase().fetchThreads(accountId: "acct", folderId: "INBOX", cursor: first.nextCursor, pageSize: 10)
        XCTAssertEqual(next.threads.first?.messageIds, ["o19@example.com"], "the next page continues where the first ended")
        XCTAssertTrue(Set(next.threads.map(\.id)).isDisjoint(with: first.threads.map(\.id)))
    }

    func testCategoryFilter() throws {
        try receive("p1"); try receive("s1"); try receive("f1"); try receive("u1")
        try event(.emailCategorized(EmailCategorized(emailID: "p1", category: .primary)))
        try event(.emailCategorized(EmailCategorized(emailID: "s1", category: .social)))
        try event(.emailCategorized(EmailCategorized(emailID: "f1", category: .forums)))
        let u = try useCase()
        XCTAssertEqual(u.fetchThreadsIDs(.primary), ["p1@example.com"])
        XCTAssertEqual(u.fetchThreadsIDs(.social), ["s1@example.com"])
        XCTAssertEqual(u.fetchThreadsIDs(.forums), [], "forums only under All")
        XCTAssertEqual(u.fetchThreadsIDs(.uncategorized), [], "uncategorized only under All")
        XCTAssertEqual(Set(u.fetchThreadsIDs(nil)), ["p1@example.com", "s1@example.com", "f1@example.com", "u1@example.com"])
    }

    func testUnifiedInboxMergesAccountsByDateWithoutDuplicates() throws {
        try folder("INBOX", role: .inbox, account: "work")
        try folder("Posteingang", role: .inbox, account: "home")
        try folder("Archive", role: .archive, account: "home")
        try receive("w1", account: "work")
        let h1Date = tick()
        try receive("h1", account: "home", folder: "Posteingang", date: h1Date)
        try receive("w2", account: "work")
        try receive("h1copy", account: "home", folder: "Archive", messageID: "h1@example.com", date: h1Date)
        try receive("h2", account: "home", folder: "Archive") // not in an inbox
        let page = try useCase().fetchUnifiedThreads()
        XCTAssertEqual(page.threads.map(\.messageIds), [["w2@example.com"], ["h1@example.com"], ["w1@example.com"]])
        XCTAssertEqual(page.threads.map(\.accountId), ["work", "home", "work"])
    }

    func testBadgeCountsInboxOnly() throws {
        try folder("INBOX", role: .inbox)
        try folder("Spam", role: .junk)
        try folder("Archive", role: .archive)
        for i in 0..<50 { try receive("in\(i)") }
        for i in 0..<10 { try receive("sp\(i)", folder: "Spam") }
        for i in 0..<10 { try receive("ar\(i)", folder: "Archive") }
        for i in 0..<5 { try receive("read\(i)", flags: ["\\Seen"]) }
        let u = try useCase()
        XCTAssertEqual(try u.fetchBadgeCount(accountId: "acct"), 50)
        XCTAssertEqual(try u.fetchBadgeCount(), 50)
        XCTAssertEqual(try u.fetchUnreadCounts(accountId: "acct", folderId: "Spam")[nil], 10)
        try event(.emailCategorized(EmailCategorized(emailID: "in3", category: .primary)))
        let counts = try useCase().fetchUnreadCounts(accountId: "acct", folderId: "INBOX")
        XCTAssertEqual(counts[nil], 50)
        XCTAssertEqual(counts[.primary], 1)
        try event(.flagsChanged(FlagsChanged(emailID: "in3", folder: "INBOX", flags: ["\\Seen"])))
        XCTAssertEqual(try useCase().fetchBadgeCount(accountId: "acct"), 49)
        XCTAssertNil(try useCase().fetchUnreadCounts(accountId: "acct", folderId: "INBOX")[.primary])
        XCTAssertTrue(try views().compareWithRebuild().differences.isEmpty)
    }

    /// INBOX names the Inbox in any case (RFC 3501 5.1); another folder the account does not have is an error.
    func testInboxInAnyCaseIsTheInboxAndAnUnknownFolderIsAnError() throws {
        try folder("INBOX", role: .inbox)
        try folder("Work", role: .custom)
        _ = try receive("i1")
        let u = try useCase()
        for name in ["inbox", "Inbox", "INBOX"] {
            XCTAssertEqual(try u.folderPath(accountId: "acct", folderId: name), "INBOX")
            XCTAssertEqual(try u.fetchThreads(accountId: "acct", folderId: name).threads.count, 1, name)
        }
        XCTAssertEqual(try u.folderPath(accountId: "acct", folderId: "Work"), "Work")
        XCTAssertTrue(try u.fetchThreads(accountId: "acct", folderId: "Work").threads.isEmpty)
        for name in ["work", "Nope"] {
            XCTAssertThrowsError(try u.folderPath(accountId: "acct", folderId: name)) {
                guard case ThreadListError.folderNotFound(let id) = $0 else { return XCTFail("\($0)") }
                XCTAssertEqual(id, name)
            }
            XCTAssertThrowsError(try u.fetchThreads(accountId: "acct", folderId: name), name)
        }
    }

    func testFolderOrderAndBadges() throws {
        for (p, r) in [("Zeta", FolderRole.custom), ("Trash", .trash), ("Archive", .archive), ("INBOX", .inbox), ("alpha", .custom),
                       ("Drafts", .drafts), ("Spam", .junk), ("Sent", .sent), ("Starred", .flagged)] {
            try folder(p, role: r)
        }
        try receive("d1", folder: "Drafts", flags: ["\\Seen", "\\Draft"])
        try receive("i1")
        try receive("sp1", folder: "Spam")
        let f = try useCase().fetchFolders(accountId: "acct")
        XCTAssertEqual(f.map(\.name), ["Inbox", "Starred", "Sent", "Drafts", "Spam", "Trash", "Archive", "alpha", "Zeta"])
        XCTAssertEqual(f.map(\.badge), [1, nil, nil, 1, 1, nil, nil, nil, nil])
    }

    /// A folder's subfolders follow it at depth + 1 (under the Inbox too, the virtual Starred folder after them); a
    /// folder whose parent is no listed folder (`[Gmail]/Sent Mail`, `lists/Apple` beside `Lists`) is at the top;
    /// siblings by path part by part, ignoring case (`Lists` and its subfolders before `Lists 2024`).
    func testSubfoldersFollowTheirFolderWithTheirDepth() throws {
        for (p, r) in [("Lists 2024", FolderRole.custom), ("Lists/dev/rust", .custom), ("Archive/2024", .custom), ("lists/Apple", .custom),
                       ("INBOX/Lists", .custom), ("Lists", .custom), ("[Gmail]/Sent Mail", .sent), ("Archive", .archive),
                       ("Lists/dev", .custom), ("INBOX", .inbox)] {
            try folder(p, role: r)
        }
        let f = try useCase().fetchFolders(accountId: "acct")
        XCTAssertEqual(f.map(\.id), ["INBOX", "INBOX/Lists", "\\Starred", "[Gmail]/Sent Mail", "Archive", "Archive/2024", "Lists",
                                     "Lists/dev", "Lists/dev/rust", "lists/Apple", "Lists 2024"])
        XCTAssertEqual(f.map(\.name), ["Inbox", "Lists", "Starred", "Sent Mail", "Archive", "2024", "Lists", "dev", "rust", "Apple",
                                       "Lists 2024"])
        XCTAssertEqual(f.map(\.depth), [0, 1, 0, 0, 0, 1, 0, 1, 2, 0, 0])
        XCTAssertEqual(try views().folders(account: "acct").map(\.path), f.map(\.id).filter { $0 != "\\Starred" })
    }

    /// An ordinary top-level folder named `Starred` is its own folder, listed and read as itself, beside the virtual
    /// Starred folder (id `\Starred`), which still lists the flagged threads; `Starred` had been one id for both, the
    /// folder taking the virtual one's place and its starred threads vanishing from the list.
    func testAFolderNamedStarredIsItsOwnBesideTheVirtualStarredFolder() throws {
        try folder("INBOX", role: .inbox)
        try receive("flagged", flags: ["\\Flagged"])
        try receive("plain")
        // Before the account has a folder of that path, `Starred` names the virtual folder too (as it always did).
        XCTAssertEqual(try useCase().fetchThreads(accountId: "acct", folderId: "Starred").threads.flatMap(\.messageIds), ["flagged@example.com"])
        try folder("Starred", role: .custom)
        try receive("kept", folder: "Starred")
        let u = try useCase()
        let f = try u.fetchFolders(accountId: "acct")
        XCTAssertEqual(f.map(\.id), ["INBOX", "\\Starred", "Starred"])
        XCTAssertEqual(f.map(\.name), ["Inbox", "Starred", "Starred"])
        XCTAssertEqual(f.map(\.isVirtual), [false, true, false])
        XCTAssertEqual(f.map(\.role), [.inbox, .flagged, .custom])
        XCTAssertEqual(try u.fetchThreads(accountId: "acct", folderId: "Starred").threads.flatMap(\.messageIds), ["kept@example.com"])
        XCTAssertEqual(try u.fetchThreads(accountId: "acct", folderId: "\\Starred").threads.flatMap(\.messageIds), ["flagged@example.com"])
        XCTAssertEqual(try u.fetchUnifiedThreads(folderId: "\\Starred").threads.flatMap(\.messageIds), ["flagged@example.com"])
        XCTAssertEqual(try u.fetchUnifiedThreads(folderId: "Starred").threads.flatMap(\.messageIds), ["kept@example.com"])
        // An account with a `\Flagged`-role folder (Gmail's) has no virtual folder: `\Starred` reads its own.
        try folder("[Gmail]/Starred", role: .flagged)
        try receive("gmail", folder: "[Gmail]/Starred", flags: ["\\Flagged"])
        let g = try useCase()
        XCTAssertEqual(try g.fetchFolders(accountId: "acct").filter(\.isVirtual), [])
        XCTAssertEqual(try g.fetchThreads(accountId: "acct", folderId: "\\Starred").threads.flatMap(\.messageIds), ["gmail@example.com"])
    }

    /// Server folders named like the views' own rows (`#account`, `#badge`, `\Starred`: IMAP allows them, Dovecot creates
    /// them) are folders of their own: their counts their own, the account's total, the badge and the virtual Starred
    /// folder untouched by them. Until 2026-12-07 those rows' keys were spelt like paths: a folder `#account` merged
    /// its unread mail with the whole account's, `#badge` with the badge, and `\Starred`'s threads were listed in the
    /// Starred view (its own listing holding the starred threads).
    func testFoldersNamedLikeTheViewsOwnRowsAreFoldersOfTheirOwn() throws {
        try folder("INBOX", role: .inbox)
        for p in ["#account", "#badge", "\\Starred"] { try folder(p, role: .custom) }
        try receive("inbox")
        try receive("starred", flags: ["\\Flagged", "\\Seen"])
        try receive("in-account", folder: "#account")
        try receive("in-badge", folder: "#badge")
        try receive("in-starred", folder: "\\Starred")
        try receive("in-starred-read", folder: "\\Starred", flags: ["\\Seen"])
        let u = try useCase()
        func all(_ c: [AICategory?: Int]) -> Int { c[nil] ?? 0 }
        XCTAssertEqual(all(try u.fetchUnreadCounts(accountId: "acct", folderId: "#account")), 1, "the folder's own unread mail only")
        XCTAssertEqual(all(try u.fetchUnreadCounts(accountId: "acct", folderId: "#badge")), 1)
        XCTAssertEqual(all(try u.fetchUnreadCounts(accountId: "acct", folderId: "\\Starred")), 1)
        XCTAssertEqual(all(try u.fetchUnreadCounts(accountId: "acct")), 4, "the whole account: each unread message once")
        XCTAssertEqual(try u.fetchBadgeCount(accountId: "acct"), 1, "the badge: the Inbox's unread mail only")
        XCTAssertEqual(try u.fetchBadgeCount(), 1)
        let views = try views()
        XCTAssertEqual(try views.unreadCount(account: "acct", folder: "#account", category: UnreadProjector.totalCategory), 1)
        XCTAssertEqual(try views.unreadCount(account: "acct", folder: "\\Starred", category: UnreadProjector.totalCategory), 2)
        // The category tabs' counters (the threads view's) too.
        for (scope, n) in [(FolderPart.path("#account"), 1), (.path("#badge"), 1), (.wholeAccount, 4), (.badge, 1)] {
            XCTAssertEqual(try views.threadUnreadCount(account: "acct", folder: scope, category: .uncategorized), n, "\(scope)")
        }
        // The server's `\Starred` is read as itself; the virtual Starred view, listed as `Starred`, keeps the starred threads.
        let ids = { (f: String) in try u.fetchThreads(accountId: "acct", folderId: f).threads.flatMap(\.messageIds).sorted() }
        XCTAssertEqual(try ids("\\Starred"), ["in-starred-read@example.com", "in-starred@example.com"])
        XCTAssertEqual(try ids("Starred"), ["starred@example.com"])
        XCTAssertEqual(try ids("#account"), ["in-account@example.com"])
        let f = try u.fetchFolders(accountId: "acct")
        XCTAssertEqual(f.map(\.id), ["INBOX", "Starred", "#account", "#badge", "\\Starred"])
        XCTAssertEqual(f.map(\.isVirtual), [false, true, false, false, false])
    }

    /// A name recorded as holding no mail (`\NonExistent`: a parent deleted while it has children, which the server goes
    /// on listing) is listed only as the parent of folders that hold mail, never as an empty folder of its own; found
    /// again (a `FolderDiscovered` without it), it is a folder again.
    func testANameWithNoMailboxIsListedOnlyAboveItsSubfolders() throws {
        for (p, r) in [("INBOX", FolderRole.inbox), ("G/C", .custom), ("K/L/M", .custom), ("Z", .custom)] { try folder(p, role: r) }
        for p in ["G", "H", "K", "K/L", "N", "N/O"] { try ghost(p) }
        var f = try useCase().fetchFolders(accountId: "acct")
        XCTAssertEqual(f.map(\.id), ["INBOX", "\\Starred", "G", "G/C", "K", "K/L", "K/L/M", "Z"], "H, N and N/O hold no mail and have none below")
        XCTAssertEqual(f.map(\.selectable), [true, true, false, true, false, false, true, true])
        XCTAssertEqual(f.map(\.depth), [0, 0, 0, 1, 0, 1, 2, 0])
        XCTAssertEqual(f.map(\.badge), [0, nil, nil, nil, nil, nil, nil, nil])
        let json = String(decoding: try JSONEncoder().encode(f[2]), as: UTF8.self)
        XCTAssertTrue(json.contains(#""selectable":false"#), json)
        try folder("H", role: .custom)
        f = try useCase().fetchFolders(accountId: "acct")
        XCTAssertEqual(f.first { $0.id == "H" }?.selectable, true, "found again")
    }

    /// A name with no mailbox asked for (`project --folder G`, a ghost parent) is said to hold no mail
    /// (`ThreadListError.folderHoldsNoMail`, exit 4), in the thread list, the unified list and the unread view alike; it
    /// had given an empty page with no word. Over several accounts, those that have it as a folder are read.
    func testANameWithNoMailboxAskedForIsSaidToHoldNoMail() throws {
        try folder("INBOX", role: .inbox)
        try folder("G/C", role: .custom)
        try ghost("G")
        let u = try useCase()
        func assertHoldsNoMail(_ body: @autoclosure () throws -> Any, line: UInt = #line) {
            XCTAssertThrowsError(try body(), line: line) { e in
                guard case ThreadListError.folderHoldsNoMail(let id) = e else { return XCTFail("\(e)", line: line) }
                XCTAssertEqual(id, "G", line: line)
                XCTAssertTrue("\(e)".contains("holds no mail"), "\(e)", line: line)
                XCTAssertEqual(ErrorCategory(of: e), .notFound, "exit 4", line: line)
            }
        }
        assertHoldsNoMail(try u.fetchThreads(accountId: "acct", folderId: "G"))
        assertHoldsNoMail(try u.folderPath(accountId: "acct", folderId: "G"))
        assertHoldsNoMail(try u.fetchUnifiedThreads(folderId: "G"))
        XCTAssertEqual(try u.fetchThreads(accountId: "acct", folderId: "G/C").threads.count, 0, "its subfolder is read")
        try folder("G", role: .custom, account: "other")
        try receive("other-g", account: "other", folder: "G")
        XCTAssertEqual(try useCase().fetchUnifiedThreads(folderId: "G").threads.flatMap(\.messageIds), ["other-g@example.com"])
    }

    private func ghost(_ path: String) throws {
        try store.log.append(NewEvent(event: .folderDiscovered(FolderDiscovered(folder: path, displayName: FolderNaming.displayName(forPath: path),
                                                                                role: .custom, delimiter: "/", attributes: ["\\HasChildren", "\\NonExistent"])),
                                      account: "acct", stream: .folder(account: "acct", path: path), actor: .sync))
    }

    func testOutboxStates() throws {
        func save(_ d: String) throws { try event(.draftSaved(DraftSaved(draftID: d, draftVersion: 1, subject: "S \(d)", body: "b"))) }
        for d in ["q", "s", "f", "sent", "undone", "x"] { try save(d) }
        try event(.messageQueued(MessageQueued(draftID: "q", draftVersion: 1, messageID: "q@x", dueAt: tick())))
        try event(.messageQueued(MessageQueued(draftID: "s", draftVersion: 1, messageID: "s@x", dueAt: tick())))
        try event(.sendStarted(SendStarted(draftID: "s", attempt: 1)))
        try event(.messageQueued(MessageQueued(draftID: "f", draftVersion: 1, messageID: "f@x", dueAt: tick())))
        try event(.sendFailed(SendFailed(draftID: "f", reason: "550 mailbox unavailable", permanent: true)))
        try event(.messageQueued(MessageQueued(draftID: "sent", draftVersion: 1, messageID: "sent@x", dueAt: tick())))
        try event(.messageSent(MessageSent(draftID: "sent", messageID: "sent@x")))
        try event(.messageQueued(MessageQueued(draftID: "undone", draftVersion: 1, messageID: "u@x", dueAt: tick())))
        try event(.sendUndone(SendUndone(draftID: "undone")))
        let (emails, badge) = try useCase().fetchOutboxEmails(accountId: "acct")
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: emails.map { ($0.id, $0.sendState) }), ["q": "queued", "s": "sending", "f": "failed"])
        XCTAssertEqual(emails.first { $0.id == "f" }?.failureReason, "550 mailbox unavailable")
        XCTAssertEqual(emails.first { $0.id == "f" }?.actions, ["retry", "cancel"])
        XCTAssertEqual(emails.first { $0.id == "q" }?.actions, ["cancel"])
        XCTAssertEqual(badge, 2, "queued + failed")
    }

    /// Spec AC-U-05: draft count for Drafts, queued + failed for the Outbox. A draft handed to the outbox (queued,
    /// sending, failed) is the Outbox's, not a draft for the Drafts badge; taken back, it is a draft again.
    func testTheDraftsBadgeLeavesOutDraftsInTheOutbox() throws {
        try folder("INBOX", role: .inbox)
        try folder("Drafts", role: .drafts)
        for d in ["d1", "d2", "q", "s", "f"] {
            try event(.draftSaved(DraftSaved(draftID: d, draftVersion: 1, subject: "S \(d)", body: "b")))
        }
        for d in ["q", "s", "f"] {
            try event(.messageQueued(MessageQueued(draftID: d, draftVersion: 1, messageID: "\(d)@x", dueAt: tick())))
        }
        try event(.sendStarted(SendStarted(draftID: "s", attempt: 1)))
        try event(.sendFailed(SendFailed(draftID: "f", reason: "451 try later", permanent: false, retryAt: tick())))
        func draftsBadge() throws -> Int? { try useCase().fetchFolders(accountId: "acct").first { $0.role == .drafts }?.badge }
        XCTAssertEqual(try draftsBadge(), 2, "d1 and d2; q, s and f are in the outbox")
        XCTAssertEqual(try useCase().fetchOutboxEmails(accountId: "acct").badge, 2, "queued + failed")
        try event(.sendCancelled(SendCancelled(draftID: "f")))
        try event(.sendUndone(SendUndone(draftID: "q")))
        XCTAssertEqual(try draftsBadge(), 4, "taken back from the outbox: drafts again")
        XCTAssertEqual(try useCase().fetchOutboxEmails(accountId: "acct").badge, 0)
    }

    /// A failed message shows when it is tried next (its last failure's retry time), not only the time it was
    /// queued for, which has passed; a permanent failure has no retry time, and a new attempt clears it.
    func testAFailedOutboxItemShowsItsNextRetry() throws {
        try event(.draftSaved(DraftSaved(draftID: "f", draftVersion: 1, subject: "S", body: "b")))
        let due = tick()
        try event(.messageQueued(MessageQueued(draftID: "f", draftVersion: 1, messageID: "f@x", dueAt: due)))
        try event(.sendStarted(SendStarted(draftID: "f", attempt: 1)))
        let first = tick(1)
        try event(.sendFailed(SendFailed(draftID: "f", reason: "451 try later", permanent: false, retryAt: first)))
        func row() throws -> OutboxEmail? { try useCase().fetchOutboxEmails(accountId: "acct").emails.first }
        XCTAssertEqual(try row()?.retryAt, first.iso8601)
        XCTAssertEqual(try row()?.dueAt, due.iso8601, "the documented field is kept")
        try event(.sendStarted(SendStarted(draftID: "f", attempt: 2)))
        XCTAssertNil(try row()?.retryAt, "sending: no retry time")
        let second = tick(2)
        try event(.sendFailed(SendFailed(draftID: "f", reason: "451 try later", permanent: false, retryAt: second)))
        XCTAssertEqual(try row()?.retryAt, second.iso8601, "the latest failure's")
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        XCTAssertTrue(String(decoding: try e.encode(try row()), as: UTF8.self).contains("\"retryAt\":\"\(second.iso8601)\""))
        try event(.sendStarted(SendStarted(draftID: "f", attempt: 3)))
        try event(.sendFailed(SendFailed(draftID: "f", reason: "550 no such user", permanent: true)))
        XCTAssertEqual(try row()?.sendState, "failed")
        XCTAssertNil(try row()?.retryAt, "a permanent failure is not retried")
    }

    /// A retry time recorded more than an hour (the longest backoff) ahead of this machine's clock (recorded while the
    /// clock stood a year ahead) is due now, as `outbox send` takes it: the row says so (`recordedTimeAhead`, JSON too),
    /// `retryAt` keeping the recorded time. One within the backoff is not; neither is a message being sent.
    func testAFailedOutboxItemWhoseRetryIsRecordedAYearAheadIsDueNow() throws {
        try event(.draftSaved(DraftSaved(draftID: "f", draftVersion: 1, subject: "S", body: "b")))
        try event(.messageQueued(MessageQueued(draftID: "f", draftVersion: 1, messageID: "f@x", dueAt: tick())))
        try event(.sendStarted(SendStarted(draftID: "f", attempt: 1)))
        let ahead = Timestamp(microseconds: Timestamp.now.microseconds + 366 * 86_400_000_000)
        try event(.sendFailed(SendFailed(draftID: "f", reason: "451 try later", permanent: false, retryAt: ahead)))
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        func json() throws -> String {
            String(decoding: try e.encode(try useCase().fetchOutboxEmails(accountId: "acct").emails.first), as: UTF8.self)
        }
        var text = try json()
        XCTAssertTrue(text.contains("\"recordedTimeAhead\":true"), text)
        XCTAssertTrue(text.contains("\"retryAt\":\"\(ahead.iso8601)\""), "the recorded time kept: \(text)")
        try event(.sendStarted(SendStarted(draftID: "f", attempt: 2)))
        text = try json()
        XCTAssertTrue(text.contains("\"recordedTimeAhead\":false"), "being sent: \(text)")
        let soon = Timestamp(microseconds: Timestamp.now.microseconds + 30_000_000)
        try event(.sendFailed(SendFailed(draftID: "f", reason: "451 try later", permanent: false, retryAt: soon)))
        text = try json()
        XCTAssertTrue(text.contains("\"recordedTimeAhead\":false"), "within the backoff: \(text)")
        try event(.draftSaved(DraftSaved(draftID: "q", draftVersion: 1, subject: "Q", body: "b")))
        try event(.messageQueued(MessageQueued(draftID: "q", draftVersion: 1, messageID: "q@x", dueAt: ahead)))
        let queued = try XCTUnwrap(try useCase().fetchOutboxEmails(accountId: "acct").emails.first { $0.id == "q" })
        XCTAssertTrue(String(decoding: try e.encode(queued), as: UTF8.self).contains("\"recordedTimeAhead\":true"),
                      "a due time recorded a year ahead is due now too")
    }

    /// An account's pause for its server (`OutboxPause`) is folded from its attempts' outcomes: a failure the server did
    /// not serve (actor sync, `serverFailure`, a retry time) sets it until that time, a re-queue by the system (no
    /// network) until its due time; a failure the server answered, or a message sent, clears it; a failure the system
    /// recorded (a process that ended mid-attempt) says nothing of the server and leaves it.
    func testAnAccountsPauseForItsServerFollowsItsAttemptsOutcomes() throws {
        for d in ["a", "b"] {
            try event(.draftSaved(DraftSaved(draftID: d, draftVersion: 1, subject: "S \(d)", body: "b")))
            try event(.messageQueued(MessageQueued(draftID: d, draftVersion: 1, messageID: "\(d)@x", dueAt: tick())))
        }
        XCTAssertNil(try views().outboxPause(account: "acct"))
        try event(.sendStarted(SendStarted(draftID: "a", attempt: 1)))
        let retry = Timestamp(microseconds: clock + 3_600_000_000)
        try event(.sendFailed(SendFailed(draftID: "a", reason: "stalled", permanent: false, retryAt: retry, serverFailure: true)))
        XCTAssertEqual(try views().outboxPause(account: "acct")?.draftID, "a")
        XCTAssertEqual(try views().outboxPause(account: "acct")?.until, retry)
        XCTAssertEqual(try views().outboxPause(account: "acct")?.reason, "stalled")
        XCTAssertNil(try views().outboxPause(account: "other"))
        try store.log.append(NewEvent(event: .sendFailed(SendFailed(draftID: "b", reason: "the process ended", permanent: false, retryAt: tick())),
                                      account: "acct", stream: "x", occurredAt: tick(), actor: .system))
        XCTAssertEqual(try views().outboxPause(account: "acct")?.draftID, "a", "the system's record says nothing of the server")
        try event(.sendFailed(SendFailed(draftID: "b", reason: "451 try later", permanent: false, retryAt: tick())))
        XCTAssertNil(try views().outboxPause(account: "acct"), "the server answered")
        let due = tick()
        try store.log.append(NewEvent(event: .messageQueued(MessageQueued(draftID: "b", draftVersion: 1, messageID: "b@x", dueAt: due)),
                                      account: "acct", stream: "x", occurredAt: tick(), actor: .system))
        XCTAssertEqual(try views().outboxPause(account: "acct")?.draftID, "b", "no connection could be made")
        XCTAssertEqual(try views().outboxPause(account: "acct")?.until, due)
        try event(.messageSent(MessageSent(draftID: "a", messageID: "a@x")))
        XCTAssertNil(try views().outboxPause(account: "acct"), "a message sent")
        // The message the pause waits on taken out of the outbox (cancelled, undone): the others wait no more for it.
        for (d, out) in [("c", DomainEvent.sendCancelled(SendCancelled(draftID: "c"))), ("e", .sendUndone(SendUndone(draftID: "e")))] {
            try event(.draftSaved(DraftSaved(draftID: d, draftVersion: 1, subject: "S \(d)", body: "b")))
            try event(.messageQueued(MessageQueued(draftID: d, draftVersion: 1, messageID: "\(d)@x", dueAt: tick())))
            try event(.sendFailed(SendFailed(draftID: d, reason: "stalled", permanent: false, retryAt: retry, serverFailure: true)))
            XCTAssertEqual(try views().outboxPause(account: "acct")?.draftID, d)
            try event(out)
            XCTAssertNil(try views().outboxPause(account: "acct"), "\(d) is no longer going")
        }
    }

    func testDedupAndNotificationFIFO() throws {
        try receive("a1", messageID: "same@example.com")
        try receive("a2", folder: "All Mail", messageID: "same@example.com")
        let v = try views()
        XCTAssertEqual(Set(try v.copies(account: "acct", messageID: "same@example.com").map(\.folder)), ["INBOX", "All Mail"])
        try event(.notificationDelivered(NotificationDelivered(emailID: "first")))
        for i in 0..<DedupProjector.notificationCapacity { try event(.notificationDelivered(NotificationDelivered(emailID: "n\(i)"))) }
        let after = try views()
        XCTAssertFalse(try after.wasNotified(emailID: "first"), "evicted first in, first out")
        XCTAssertTrue(try after.wasNotified(emailID: "n0"))
        XCTAssertTrue(try after.wasNotified(emailID: "n\(DedupProjector.notificationCapacity - 1)"))
    }
}

extension FetchThreadsUseCase {
    func fetchThreadsIDs(_ c: AICategory?) -> [String] {
        ((try? fetchThreads(accountId: "acct", folderId: "INBOX", category: c))?.threads ?? []).flatMap(\.messageIds)
    }
}
