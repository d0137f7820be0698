import EventLog
import EventModel
import Foundation
import LMDB
import MailStore
@testable import SearchIndex
import SearchQuery
import Views
import XCTest

final class SearchIndexTests: SearchIndexTestCase {
    static let messages: [(folder: String, name: String, text: String)] = [
        ("INBOX", "1:2,S", """
        From: Alice Martin <alice@example.com>
        To: Bob <bob@example.org>
        Subject: Quarterly report
        Date: Mon, 15 Jan 2024 10:00:00 +0000
        Message-ID: <m1@example.com>

        Hello Bob, the quarterly numbers are attached. Résumé of the meeting follows.
        """),
        ("INBOX", "2:2,", """
        From: Bob <bob@example.org>
        To: Alice Martin <alice@example.com>
        Cc: Carol <carol@example.net>
        Subject: Re: Quarterly report
        Date: Tue, 16 Jan 2024 09:00:00 +0000
        Message-ID: <m2@example.org>
        In-Reply-To: <m1@example.com>
        MIME-Version: 1.0
        Content-Type: multipart/mixed; boundary="b1"

        --b1
        Content-Type: text/html; charset=utf-8

        <html><body><p>Thanks &amp; <b>congratulations</b> on the zebra project!</p></body></html>
        --b1
        Content-Type: application/pdf; name="budget-2024.pdf"
        Content-Disposition: attachment; filename="budget-2024.pdf"
        Content-Transfer-Encoding: base64

        JVBERi0xLjQK
        --b1--
        """),
        ("Archive", "3:2,S", """
        From: =?utf-8?q?Ren=C3=A9e_Dupont?= <renee@example.fr>
        To: alice@example.com
        Subject: =?utf-8?q?Caf=C3=A9_demain?=
        Date: Sat, 20 Apr 2024 08:00:00 +0000
        Message-ID: <m3@example.fr>
        Content-Type: text/plain; charset=utf-8
        Content-Transfer-Encoding: quoted-printable

        On se retrouve au caf=C3=A9 =C3=A0 midi ? Apporte le dossier "orange".
        """),
        ("INBOX", "4:2,", """
        From: Dave <dave@example.com>
        To: alice@example.com
        Subject: Lunch
        Date: Sun, 21 Apr 2024 12:00:00 +0000
        Message-ID: <m4@example.com>

        Lunch at noon? The orange dossier can wait. Multipart words: zebra-crossing.
        """),
    ]

    override func setUpWithError() throws {
        try super.setUpWithError()
        try importMessages(Self.messages)
    }

    /// The comparison with a rebuild walks both indexes: a changed document, one missing, one extra and a
    /// changed full text are each reported.
    func testAComparisonWithARebuildReportsEachKindOfDifference() throws {
        let idx = try index()
        XCTAssertEqual(try idx.compareWithRebuild(log: store.log, scratchFolder: dir.file("s1")).differences, [])
        var ids: [String] = []
        let q = try idx.db.prepare("SELECT email_id FROM docs ORDER BY email_id")
        while try q.step() { ids.append(q.text(0)) }
        XCTAssertEqual(ids.count, 4)
        try idx.db.exec("UPDATE docs SET subject = 'tampered' WHERE email_id = '\(ids[0])'")
        try idx.db.exec("DELETE FROM docs WHERE email_id = '\(ids[1])'")
        try idx.db.exec("INSERT INTO docs(rowid, email_id, account, folder, flags, date, size, subject, participants, since) VALUES (999999, 'zz-extra', 'local', 'INBOX', 0, 0, 0, '', '', 1)")
        try idx.db.exec("INSERT INTO docs_past(rowid, since, until, email_id, account, folder, flags, category, date, size, subject, participants) VALUES (5, 1, 2, 'zz-past', 'local', 'INBOX', 0, 0, 0, 0, '', '')")
        let other = try SearchTextDigest()(["", "", "", "", "tampered", "", ""])
        try idx.db.prepare("UPDATE doc_text SET digest = ? WHERE rowid = (SELECT rowid FROM docs WHERE email_id = ?)")
            .run([.blob(other), .text(ids[3])])
        let diffs = try idx.compareWithRebuild(log: store.log, scratchFolder: dir.file("s2"), sample: 10).differences
        XCTAssertTrue(diffs.contains { $0.hasPrefix("document \(ids[0]): ") && $0.contains("tampered") }, "\(diffs)")
        XCTAssertTrue(diffs.contains("document \(ids[1]) is missing (a rebuild has it)"), "\(diffs)")
        XCTAssertTrue(diffs.contains("document zz-extra is not in a rebuild"), "\(diffs)")
        XCTAssertTrue(diffs.contains { $0.hasPrefix("full text of row ") }, "\(diffs)")
        XCTAssertTrue(diffs.contains("docs_past: \(try idx.count("docs_past")) rows, a rebuild has \(try idx.count("docs_past") - 1)"), "\(diffs)")
        XCTAssertTrue(diffs.contains { $0.hasPrefix("past version rowid 5 since 1 ") && $0.hasSuffix("is not in a rebuild") }, "\(diffs)")
    }

    func testWordsPhrasesAndFields() throws {
        XCTAssertEqual(try ids("quarterly"), ["m2@example.org", "m1@example.com"])
        XCTAssertEqual(try ids("QUARTERLY numbers"), ["m1@example.com"])
        XCTAssertEqual(try ids("\"quarterly numbers\""), ["m1@example.com"])
        XCTAssertEqual(try ids("\"numbers quarterly\""), [])
        XCTAssertEqual(try ids("from:alice"), ["m1@example.com"])
        XCTAssertEqual(try ids("from:alice@example.com"), ["m1@example.com"])
        XCTAssertEqual(try ids("to:alice"), ["m4@example.com", "m3@example.fr", "m2@example.org"])
        XCTAssertEqual(try ids("cc:carol"), ["m2@example.org"])
        XCTAssertEqual(try ids("subject:lunch"), ["m4@example.com"])
        XCTAssertEqual(try ids("body:lunch"), ["m4@example.com"])
        XCTAssertEqual(try ids("subject:numbers"), [])
        XCTAssertEqual(try ids("quart*"), ["m2@example.org", "m1@example.com"])
    }

    /// Terminal escape sequences are not indexed: the words they colour are found, their remains ("31mred") are not
    /// words, in the body (plain and HTML) and the subject.
    func testEscapeSequencesAreNotIndexed() throws {
        try importMessages([("INBOX", "9:2,", """
        From: Eve <eve@example.com>
        Subject: \u{1B}[1mBuild\u{1B}[0m log
        Date: Mon, 22 Apr 2024 12:00:00 +0000
        Message-ID: <ansi@example.com>
        MIME-Version: 1.0
        Content-Type: multipart/alternative; boundary="b2"

        --b2
        Content-Type: text/plain

        \u{1B}[31mRED\u{1B}[0m text \u{1B}]8;;https://x.example/\u{07}linked\u{1B}]8;;\u{07}
        --b2
        Content-Type: text/html

        <p>\u{1B}[32mgreenish\u{1B}[0m</p>
        --b2--
        """)])
        for word in ["red", "text", "linked", "greenish", "subject:build", "subject:log"] {
            XCTAssertEqual(try ids(word), ["ansi@example.com"], word)
        }
        for remains in ["31mred", "0m", "32mgreenish", "1mbuild", "x.example", "8"] {
            XCTAssertEqual(try ids(remains), [], remains)
        }
    }

    func testHTMLPartsAttachmentsAndMimeTypes() throws {
        XCTAssertEqual(try ids("congratulations"), ["m2@example.org"], "HTML is indexed as text")
        XCTAssertEqual(try ids("html"), [], "markup is not indexed")
        XCTAssertEqual(try ids("attachment:budget-2024.pdf"), ["m2@example.org"])
        XCTAssertEqual(try ids("attachment:budget"), ["m2@example.org"])
        XCTAssertEqual(try ids("mimetype:application/pdf"), ["m2@example.org"])
        XCTAssertEqual(try ids("is:attachment"), ["m2@example.org"])
        XCTAssertEqual(try ids("budget"), ["m2@example.org"], "attachment names are free text too")
    }

    func testCaseDiacriticsAndDecodedHeaders() throws {
        XCTAssertEqual(try ids("cafe"), ["m3@example.fr"], "encoded-word subject and QP body, diacritics folded")
        XCTAssertEqual(try ids("CAFÉ"), ["m3@example.fr"])
        XCTAssertEqual(try ids("from:renee"), ["m3@example.fr"])
        XCTAssertEqual(try ids("resume"), ["m1@example.com"])
        XCTAssertEqual(try ids("a"), ["m3@example.fr"], "a single letter from à")
    }

    func testBooleans() throws {
        XCTAssertEqual(try ids("orange"), ["m4@example.com", "m3@example.fr"])
        XCTAssertEqual(try ids("orange -lunch"), ["m3@example.fr"])
        XCTAssertEqual(try ids("orange NOT from:dave"), ["m3@example.fr"])
        XCTAssertEqual(try ids("lunch OR congratulations"), ["m4@example.com", "m2@example.org"])
        XCTAssertEqual(try ids("(lunch OR congratulations) zebra"), ["m4@example.com", "m2@example.org"])
        XCTAssertEqual(try ids("-orange"), ["m2@example.org", "m1@example.com"])
        XCTAssertEqual(try ids("NOT (orange OR quarterly)"), [])
        XCTAssertEqual(try ids("lunch OR is:attachment"), ["m4@example.com", "m2@example.org"])
        XCTAssertEqual(try ids("*"), ["m4@example.com", "m3@example.fr", "m2@example.org", "m1@example.com"])
        XCTAssertEqual(try ids("* -folder:inbox"), ["m3@example.fr"])
    }

    /// A message with no Message-ID is in every `NOT id:X` (its NULL column had made `NOT (message_id = ?)` NULL, so
    /// `* -id:X` left it out).
    func testNotIdKeepsAMessageWithoutAMessageID() throws {
        try importMessages([("INBOX", "5", """
            From: Erin <erin@example.com>
            To: Bob <bob@example.com>
            Subject: Orphan note
            Date: Tue, 16 Apr 2024 10:00:00 +0000

            No Message-ID here.
            """)])
        XCTAssertEqual(try ids("orphan"), ["?"])
        XCTAssertEqual(try ids("NOT id:m1@example.com").sorted(), ["?", "m2@example.org", "m3@example.fr", "m4@example.com"])
        XCTAssertEqual(try ids("orphan -id:nothing@x"), ["?"])
        XCTAssertEqual(try ids("id:m1@example.com"), ["m1@example.com"])
    }

    func testFiltersDatesSizesAndSort() throws {
        XCTAssertEqual(try ids("folder:Archive"), ["m3@example.fr"])
        XCTAssertEqual(try ids("folder:inbox orange"), ["m4@example.com"])
        XCTAssertEqual(try ids("account:local", account: "local").count, 4)
        XCTAssertEqual(try ids("*", account: "other"), [])
        XCTAssertEqual(try ids("id:<m3@example.fr>"), ["m3@example.fr"])
        XCTAssertEqual(try ids("date:2024-01-01..2024-01-31"), ["m2@example.org", "m1@example.com"])
        XCTAssertEqual(try ids("date:2024-01-15"), ["m1@example.com"])
        XCTAssertEqual(try ids("date:2024-04"), ["m4@example.com", "m3@example.fr"])
        XCTAssertEqual(try ids("quarterly date:..2024-01-15"), ["m1@example.com"])
        XCTAssertEqual(try ids("date:2024-04-21.. OR from:alice"), ["m4@example.com", "m1@example.com"])
        XCTAssertEqual(try ids("is:unread"), ["m4@example.com", "m2@example.org"])
        XCTAssertEqual(try ids("is:read quarterly"), ["m1@example.com"])
        XCTAssertEqual(try ids("size:>100000"), [])
        XCTAssertEqual(try ids("size:<100000").count, 4)
        XCTAssertEqual(try ids("quarterly", oldestFirst: true), ["m1@example.com", "m2@example.org"])
    }

    func testThreadsGroupAndThreadTerm() throws {
        let views = try store.openViews()
        let idx = try index()
        let m1 = try emailID("m1@example.com")
        let thread = try XCTUnwrap(views.emailRecord(id: m1)?.threadID)
        XCTAssertEqual(try ids("thread:\(thread)"), ["m2@example.org", "m1@example.com"])
        let hits = try idx.searchThreads(try SearchQuery.parse("quarterly OR orange"), offset: 0, limit: 10,
                                         threadOf: { try views.emailRecord(id: $0)?.threadID },
                                         threadEmails: { try views.threadEmails(id: $0).map(\.id) })
        XCTAssertEqual(hits.count, 3, "m1 and m2 share a thread")
        XCTAssertEqual(hits.first?.first.messageID, "m4@example.com")
        XCTAssertEqual(hits.first { $0.threadID == thread }?.emailIDs.count, 2)
        // Only the first message of a thread is in the page's stream; the thread's other matches are found too.
        let one = try idx.searchThreads(try SearchQuery.parse("quarterly"), offset: 0, limit: 1,
                                        threadOf: { try views.emailRecord(id: $0)?.threadID },
                                        threadEmails: { try views.threadEmails(id: $0).map(\.id) })
        XCTAssertEqual(one.first?.emailIDs.count, 2)
        let page2 = try idx.searchThreads(try SearchQuery.parse("quarterly OR orange"), offset: 2, limit: 10,
                                          threadOf: { try views.emailRecord(id: $0)?.threadID },
                                          threadEmails: { try views.threadEmails(id: $0).map(\.id) })
        XCTAssertEqual(page2.map(\.threadID), [thread])
    }

    /// Pages of threads at any offset are the slices of one page of everything, whether a copy has a thread
    /// or is its own (threadOf nil); the threads skipped are kept by id only.
    func testThreadPagesAtEveryOffsetAreSlicesOfOnePage() throws {
        let views = try store.openViews()
        let idx = try index()
        let alone = try emailID("m4@example.com")
        let query = try SearchQuery.parse("*")
        func page(_ offset: Int, _ limit: Int) throws -> [SearchThreadHit] {
            try idx.searchThreads(query, offset: offset, limit: limit,
                                  threadOf: { $0 == alone ? nil : try views.emailRecord(id: $0)?.threadID },
                                  threadEmails: { try views.threadEmails(id: $0).map(\.id) })
        }
        let all = try page(0, 100)
        XCTAssertGreaterThanOrEqual(all.count, 3)
        XCTAssertTrue(all.contains { $0.threadID == "email:" + alone })
        for offset in 0...all.count {
            for limit in 1...3 {
                XCTAssertEqual(try page(offset, limit), Array(all.dropFirst(offset).prefix(limit)), "offset \(offset), limit \(limit)")
            }
        }
    }

    /// A thread's row lists the same copies in the same order whether the page filled before the scan reached its
    /// later matches (found then by `threadMatches`) or not: its first match, then the others in email-id order (a page
    /// of one had listed them by email id, a page of all by date).
    func testAThreadRowIsTheSameInAPageOfOneAndAPageOfAll() throws {
        var messages: [(folder: String, name: String, text: String)] = []
        for i in 0..<6 {
            messages.append(("INBOX", "r\(i)", """
                From: Fay <fay@example.com>
                To: Bob <bob@example.com>
                Subject: Re: kiwi plans
                Date: Wed, 1\(i) Jul 2024 10:00:00 +0000
                Message-ID: <kiwi-\(i)@example.com>
                \(i > 0 ? "In-Reply-To: <kiwi-\(i - 1)@example.com>\nReferences: <kiwi-0@example.com>" : "")

                kiwi number \(i)
                """))
        }
        try importMessages(messages)
        let views = try store.openViews()
        let idx = try index()
        func page(_ limit: Int) throws -> [SearchThreadHit] {
            try idx.searchThreads(try SearchQuery.parse("kiwi OR orange"), offset: 0, limit: limit,
                                  threadOf: { try views.emailRecord(id: $0)?.threadID },
                                  threadEmails: { try views.threadEmails(id: $0).map(\.id) })
        }
        let all = try page(100)
        XCTAssertEqual(all.first?.emailIDs.count, 6)
        XCTAssertEqual(try page(1), Array(all.prefix(1)))
        XCTAssertEqual(Array(all[0].emailIDs.dropFirst()), all[0].emailIDs.dropFirst().sorted())
    }

    /// A half-built index whose builder is gone (a `replay` killed midway) is removed as the index or the views are
    /// opened; one whose builder holds the build lock is left to it.
    func testAHalfBuiltIndexIsRemovedOnceItsBuilderIsGone() throws {
        let folder = store.directory.viewsPath + "/search"
        let building = folder + "/" + SearchIndex.fileName + ".building"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("half".utf8).write(to: URL(fileURLWithPath: building))
        try Data("journal".utf8).write(to: URL(fileURLWithPath: building + "-journal"))
        let builder = try XCTUnwrap(FileLock.acquire(folder + "/BUILD", exclusive: true, wait: false))
        SearchIndex.removeStaleBuild(folder: folder)
        XCTAssertTrue(FileManager.default.fileExists(atPath: building), "its builder still holds the lock")
        builder.unlock()
        _ = try SearchIndex.open(folder: folder, log: store.log)
        XCTAssertFalse(FileManager.default.fileExists(atPath: building))
        XCTAssertFalse(FileManager.default.fileExists(atPath: building + "-journal"))
    }

    func testSkippedThreadsKeepViewsIdsAsNumbersAndOthersAsText() {
        XCTAssertEqual(SkippedThreads.pack("b0fe3286201101b6"), 0xb0fe3286201101b6)
        XCTAssertEqual(SkippedThreads.pack("0000000000000000"), 0)
        for other in ["B0FE3286201101B6", "b0fe3286201101b", "b0fe3286201101b60", "email:b0fe32862011", "g0fe3286201101b6", ""] {
            XCTAssertNil(SkippedThreads.pack(other), other)
        }
        var skipped = SkippedThreads()
        for id in ["b0fe3286201101b6", "B0FE3286201101B6", "t1"] { skipped.insert(id) }
        XCTAssertEqual(skipped.count, 3)
        XCTAssertTrue(skipped.contains("b0fe3286201101b6") && skipped.contains("B0FE3286201101B6") && skipped.contains("t1"))
        XCTAssertFalse(skipped.contains("b0fe3286201101b7") || skipped.contains("t2"))
    }

    /// Our drafts' copies that sync brings back from the server's Drafts folder are drafts, not mail: not indexed,
    /// whether the draft's `DraftCopyChanged` came in the same catch-up as the copy or in an earlier one, and
    /// whether or not the batches before had any draft (the index looks a copy up only where drafts may exist).
    func testOurDraftsServerCopiesAreNotIndexed() throws {
        let idx = try index()
        func received(_ id: String, _ mid: String, _ subject: String) -> DomainEvent {
            .emailReceived(EmailReceived(emailID: id, folder: "Drafts", messageID: mid, subject: subject,
                                         from: [EmailAddress(name: nil, email: "me@example.com")],
                                         date: Timestamp(microseconds: 1_700_000_000_000_000), dateSource: .header, size: 10,
                                         blob: BlobHash(bytes: [UInt8](repeating: 7, count: 32))!))
        }
        try append(received("e0", "mail0@example.com", "quince mail"))
        try idx.catchUp(log: store.log)
        try append(.draftCopyChanged(DraftCopyChanged(draftID: "d1", change: .appending, draftVersion: 1, folder: "Drafts",
                                                      messageID: "draft1@example.com")))
        try append(received("e1", "draft1@example.com", "quince draft one"))
        try idx.catchUp(log: store.log)
        try append(.draftCopyChanged(DraftCopyChanged(draftID: "d2", change: .appending, draftVersion: 1, folder: "Drafts",
                                                      messageID: "draft2@example.com")))
        try idx.catchUp(log: store.log)
        try append(received("e2", "draft2@example.com", "quince draft two"))
        try append(received("e3", "mail3@example.com", "quince more mail"))
        try idx.catchUp(log: store.log)
        XCTAssertEqual(try ids("quince", idx).sorted(), ["mail0@example.com", "mail3@example.com"])
    }

    /// A copy categorized in the batch that indexed it keeps, as the version before the category, the row it was
    /// inserted with (known without reading it back): the same rows as when the category comes in a later batch, texts
    /// holding a NUL and a copy without a Message-ID included, and one categorized twice in one batch.
    func testACopyCategorizedInTheBatchThatIndexedItKeepsTheSameVersions() throws {
        let idx = try index()
        func received(_ id: String, _ mid: String?, _ subject: String) -> DomainEvent {
            .emailReceived(EmailReceived(emailID: id, folder: "IN\u{0}BOX", messageID: mid, subject: subject,
                                         from: [EmailAddress(name: "N\u{0}ul", email: "nul@example.com")],
                                         date: Timestamp(microseconds: 1_700_000_000_000_000), dateSource: .header, size: 10,
                                         blob: BlobHash(bytes: [UInt8](repeating: 9, count: 32))!))
        }
        try append(received("c1", "one@example.com", "fig\u{0}tree"))
        try append(received("c2", nil, "fig leaves"))
        try idx.catchUp(log: store.log)
        try append(.emailCategorized(EmailCategorized(emailID: "c1", category: .promotions)))
        try append(.emailCategorized(EmailCategorized(emailID: "c2", category: .social)))
        try append(.emailCategorized(EmailCategorized(emailID: "c2", category: .updates)))
        try idx.catchUp(log: store.log)
        XCTAssertEqual(try ids("fig category:promotions", idx), ["one@example.com"])
        // The rebuild folds all of it in one batch: the rows read back against those kept (debug builds assert it).
        let (seq, diffs) = try idx.compareWithRebuild(log: store.log, scratchFolder: dir.file("scratch"))
        XCTAssertEqual(seq, try store.log.head().sequence)
        XCTAssertEqual(diffs, [])
        let past = try idx.db.prepare("""
            SELECT email_id || ' ' || category FROM docs_past WHERE email_id IN ('c1', 'c2') ORDER BY since
            """)
        var versions: [String] = []
        while try past.step() { versions.append(past.text(0)) }
        XCTAssertEqual(versions, ["c1 0", "c2 0", "c2 \(AICategory.social.rawValue)"], "a version before each category")
    }

    func testNewMailFlagsMovesCategoriesAndExpungesFollow() throws {
        let idx = try index()
        XCTAssertEqual(try ids("kumquat", idx), [])
        try importMessages([("INBOX", "5:2,", """
        From: Eve <eve@example.com>
        Subject: Kumquat season
        Date: Mon, 22 Apr 2024 12:00:00 +0000
        Message-ID: <m5@example.com>

        Fresh kumquats.
        """)])
        try idx.catchUp(log: store.log)
        XCTAssertEqual(try ids("kumquat", idx), ["m5@example.com"], "new mail is searchable after a catch-up")
        let m5 = try emailID("m5@example.com")
        try append(.threadStarred(ThreadAction(threadIDs: ["t"], targets: [ActionTarget(emailID: m5, folder: "INBOX", flags: [])])))
        try append(.threadMoved(ThreadAction(threadIDs: ["t"], targets: [ActionTarget(emailID: m5, folder: "INBOX", flags: [])],
                                             destination: "Fruit")))
        try append(.flagsChanged(FlagsChanged(emailID: m5, folder: "Fruit", flags: ["\\Seen", "\\Flagged"])))
        try append(.emailCategorized(EmailCategorized(emailID: m5, category: .promotions)))
        try idx.catchUp(log: store.log)
        XCTAssertEqual(try ids("is:starred", idx), ["m5@example.com"])
        XCTAssertEqual(try ids("folder:Fruit", idx), ["m5@example.com"])
        XCTAssertEqual(try ids("kumquat folder:INBOX", idx), [])
        XCTAssertEqual(try ids("kumquat is:read", idx), ["m5@example.com"])
        XCTAssertEqual(try ids("category:promotions", idx), ["m5@example.com"])
        try append(.threadMarkedUnread(ThreadAction(threadIDs: ["t"], targets: [ActionTarget(emailID: m5, folder: "Fruit", flags: [])])))
        try idx.catchUp(log: store.log)
        XCTAssertEqual(try ids("kumquat is:unread", idx), ["m5@example.com"])
        try append(.emailExpunged(EmailExpunged(emailID: m5, folder: "Fruit")))
        try idx.catchUp(log: store.log)
        XCTAssertEqual(try ids("kumquat", idx), [], "expunged mail leaves the index")
        XCTAssertEqual(try idx.checkpoint(), try store.log.head().sequence)
        let (seq, diffs) = try idx.compareWithRebuild(log: store.log, scratchFolder: dir.file("scratch"))
        XCTAssertEqual(seq, try store.log.head().sequence)
        XCTAssertEqual(diffs, [])
    }

    /// The rowids whose terms FTS5 holds for `word` (read from the index itself, not through `docs`).
    private func ftsRows(_ word: String, _ idx: SearchIndex) throws -> [Int64] {
        let s = try idx.db.prepare("SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY rowid")
        try s.bind([.text(word)])
        var out: [Int64] = []
        while try s.step() { out.append(s.int(0)) }
        return out
    }

    /// The full-text table keeps no copy of the text: only its index and, per document, the sequence its text is
    /// derived from and a digest of it; derived again, it is the text indexed.
    func testTheIndexKeepsNoSecondCopyOfTheText() throws {
        let idx = try index()
        let tables = try idx.db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'fts%' ORDER BY name")
        var names: [String] = []
        while try tables.step() { names.append(tables.text(0)) }
        XCTAssertFalse(names.contains("fts_content"), "\(names)")
        XCTAssertEqual(try idx.count("doc_text"), 4)
        let sizes = try idx.db.prepare("SELECT DISTINCT length(digest), typeof(seq) FROM doc_text")
        XCTAssertTrue(try sizes.step())
        XCTAssertEqual(sizes.int(0), Int64(SearchTextDigest.byteCount))
        XCTAssertEqual(sizes.text(1), "integer")
        XCTAssertFalse(try sizes.step(), "every row a digest and a sequence")
        let m4 = try XCTUnwrap(try ftsRows("lunch", idx).first)
        let text = try XCTUnwrap(try idx.indexedText(rowid: m4, log: store.log))
        XCTAssertEqual(text[SearchSchema.textColumns.firstIndex(of: "subject")!], "Lunch")
        XCTAssertTrue(text[SearchSchema.textColumns.firstIndex(of: "body")!].contains("zebra-crossing"))
    }

    /// A copy seen again (a sync's `EmailReceived` for a copy the index has) in another folder moves there, the same
    /// document: no second row, no second rowid taken, its earlier place kept as a past version; seen again where it
    /// is, nothing changes.
    func testACopySeenAgainMovesTheSameDocument() throws {
        let idx = try index()
        let first = try XCTUnwrap(try store.log.event(at: try XCTUnwrap(try firstReceived())))
        guard case .emailReceived(var again) = try first.decode() else { return XCTFail("not an EmailReceived") }
        let mid = try XCTUnwrap(again.messageID)
        let before = try ["docs", "doc_text", "docs_past"].map { try idx.count($0) }
        XCTAssertTrue(try ids("folder:Elsewhere", idx).isEmpty)
        try append(.emailReceived(again))
        try idx.catchUp(log: store.log)
        XCTAssertEqual(try ["docs", "doc_text", "docs_past"].map { try idx.count($0) }, before, "seen again where it is")
        again.folder = "Elsewhere"
        try append(.emailReceived(again))
        try idx.catchUp(log: store.log)
        XCTAssertEqual(try ids("folder:Elsewhere", idx), [mid])
        XCTAssertEqual(try ["docs", "doc_text", "docs_past"].map { try idx.count($0) }, [before[0], before[1], before[2] + 1])
        XCTAssertEqual(try idx.compareWithRebuild(log: store.log, scratchFolder: dir.file("s-again")).differences, [])
    }

    /// A new file keeps no token counts per document (FTS5's `fts_docsize`: only ranking functions read them); a file
    /// made before, whose `fts` keeps them, finds, folds new mail and compares with a rebuild alike.
    func testANewFileKeepsNoTokenCountsAndAnOlderOneServesAlike() throws {
        func tables(_ idx: SearchIndex) throws -> [String] {
            try idx.locked { () throws -> [String] in
                let s = try idx.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'fts%' ORDER BY name")
                var out: [String] = []
                while try s.step() { out.append(s.text(0)) }
                return out
            }
        }
        let idx = try index()
        XCTAssertEqual(try tables(idx), ["fts", "fts_config", "fts_data", "fts_idx"])
        // A file of the layout before: its `fts` declared as version 8 first declared it, then folded from the log.
        let folder = dir.file("older")
        try StoreDirectory.makePrivateDirectory(folder)
        let path = folder + "/" + SearchIndex.fileName
        try SQLiteConnection(path: path, create: true).exec("""
            PRAGMA page_size=\(SearchIndex.pageSize);
            CREATE VIRTUAL TABLE fts USING fts5(\(SearchSchema.textColumns.joined(separator: ", ")), content = '',
                tokenize = \(SearchSchema.tokenizer));
            """)
        let older = try SearchIndex(path: path)
        try older.catchUp(log: store.log)
        XCTAssertEqual(try tables(older), ["fts", "fts_config", "fts_data", "fts_docsize", "fts_idx"])
        let queries = ["quarterly", "zebra*", "from:alice", "\"quarterly report\"", "caf*", "orange NOT lunch", "rollout*"]
        for q in queries { XCTAssertEqual(try ids(q, older), try ids(q, idx), q) }
        XCTAssertFalse(try ids("quarterly", idx).isEmpty)
        // New mail folded into both, live.
        try importMessages([("INBOX", "5:2,", """
            From: Erin <erin@example.com>
            To: alice@example.com
            Subject: Rollout plan
            Date: Mon, 22 Apr 2024 08:00:00 +0000
            Message-ID: <m5@example.com>

            The quarterly rollout starts Monday.
            """)])
        try older.catchUp(log: store.log)
        try idx.catchUp(log: store.log)
        for q in queries { XCTAssertEqual(try ids(q, older), try ids(q, idx), q) }
        XCTAssertEqual(try ids("rollout*", idx), ["m5@example.com"])
        XCTAssertEqual(try older.compareWithRebuild(log: store.log, scratchFolder: dir.file("s-older")).differences, [])
        XCTAssertEqual(try idx.compareWithRebuild(log: store.log, scratchFolder: dir.file("s-new")).differences, [])
    }

    /// An expunged copy leaves every result at once, but its terms, its `doc_text` row (so its rowid is never given
    /// to another document) and its row as it was (in `docs_past`, until the expunge) stay: a search as of a point
    /// before the expunge finds it with no index folded for that point.
    func testAnExpungedCopyLeavesTheResultsAndKeepsItsTermsForTheStoreAsItWas() throws {
        let idx = try index()
        let m4 = try emailID("m4@example.com")
        let rows = try ftsRows("lunch", idx)
        XCTAssertEqual(rows.count, 1)
        let text = try idx.textRecord(rowid: rows[0])
        let before = try store.log.head().sequence
        try append(.emailExpunged(EmailExpunged(emailID: m4, folder: "INBOX")))
        let expunge = try store.log.head().sequence
        try idx.catchUp(log: store.log)
        XCTAssertEqual(try ids("lunch", idx), [], "expunged mail leaves the results")
        XCTAssertEqual(try ids("zebra", idx), ["m2@example.org"])
        XCTAssertEqual(try ftsRows("lunch", idx), rows, "its terms stay in the index")
        XCTAssertEqual(try idx.textRecord(rowid: rows[0]), text)
        XCTAssertEqual(try idx.count("doc_text"), 4)
        let past = try idx.db.prepare("SELECT rowid, until FROM docs_past WHERE email_id = ? ORDER BY since DESC LIMIT 1")
        try past.bind([.text(m4)])
        XCTAssertTrue(try past.step())
        XCTAssertEqual([past.int(0), past.int(1)], [rows[0], Int64(expunge)], "its row as it was, until the expunge")
        idx.asOf = before
        XCTAssertEqual(try ids("lunch", idx), ["m4@example.com"], "as it was before the expunge")
        XCTAssertEqual(try ids("zebra", idx), ["m4@example.com", "m2@example.org"])
        idx.asOf = expunge
        XCTAssertEqual(try ids("lunch", idx), [])
        idx.asOf = nil
        let integrity = try idx.db.prepare("INSERT INTO fts(fts, rank) VALUES('integrity-check', 0)")
        XCTAssertNoThrow(try integrity.run())
        XCTAssertEqual(try idx.compareWithRebuild(log: store.log, scratchFolder: dir.file("scratch")).differences, [])
    }

    /// An expunge does not read the copy's text (its terms stay): one whose text no longer derives as it was
    /// indexed (the digest kept differs, a row naming another event or none) folds like any other, its terms
    /// match no result, and its rowid stays taken.
    func testAnExpungeOfADocumentWhoseTextNoLongerDerivesStillFolds() throws {
        for (i, damage) in ["digest = randomblob(16)", "seq = 1", "seq = 999999999", "digest = x''"].enumerated() {
            let store = try MailStore.create(at: dir.file("store-\(i)"))
            self.store = store
            try importMessages(Self.messages)
            let idx = try SearchIndex.open(folder: dir.file("index-\(i)"), log: store.log)
            let m4 = try emailID("m4@example.com")
            let row = try XCTUnwrap(try ftsRows("lunch", idx).first)
            try idx.db.prepare("UPDATE doc_text SET \(damage) WHERE rowid = ?").run([.int(row)])
            XCTAssertNil(try idx.indexedText(rowid: row, log: store.log), damage)
            try append(.emailExpunged(EmailExpunged(emailID: m4, folder: "INBOX")))
            XCTAssertNoThrow(try idx.catchUp(log: store.log), damage)
            XCTAssertEqual(try idx.checkpoint(), try store.log.head().sequence, damage)
            XCTAssertEqual(try ids("lunch", idx), [], "\(damage): the terms match no document")
            XCTAssertEqual(try ftsRows("lunch", idx), [row], "\(damage): they stay in the index, with their rowid")
            let second = row >> SearchSchema.slotBits
            try idx.locked { XCTAssertNotEqual(try idx.freeRowID(second: second, emailID: m4), row, "\(damage): the rowid stays taken") }
        }
    }

    /// The index read as of any point of the log (`asOf`: the copies then, with their folders, flags and
    /// categories then) answers every query as an index folded only up to that point does: through moves,
    /// flag changes and their reverts, categories, a copy seen again in another folder, expunges and mail that
    /// came later; for pages of messages and for a thread's matching copies.
    func testASearchAsOfAnyPointEqualsAnIndexFoldedUpToIt() throws {
        let live = try index()
        let m1 = try emailID("m1@example.com"), m2 = try emailID("m2@example.org"), m4 = try emailID("m4@example.com")
        func targets(_ ids: [String], _ folder: String) -> [ActionTarget] { ids.map { ActionTarget(emailID: $0, folder: folder, flags: []) } }
        try append(.threadStarred(ThreadAction(threadIDs: ["t"], targets: targets([m1, m2], "INBOX"))))
        try append(.threadMoved(ThreadAction(threadIDs: ["t"], targets: targets([m1, m2], "INBOX"), destination: "Fruit")))
        try append(.flagsChanged(FlagsChanged(emailID: m2, folder: "Fruit", flags: ["\\Seen"])))
        try append(.emailCategorized(EmailCategorized(emailID: m4, category: .promotions)))
        try append(.threadMarkedUnread(ThreadAction(threadIDs: ["t"], targets: targets([m1], "Fruit"))))
        try append(.threadMarkedRead(ThreadAction(threadIDs: ["t"], targets: targets([m1], "Fruit"))))
        try append(.emailExpunged(EmailExpunged(emailID: m2, folder: "Fruit")))
        // The first copy seen again, in another folder (a sync's EmailReceived for a copy the store has).
        let first = try XCTUnwrap(try store.log.event(at: try XCTUnwrap(try firstReceived())))
        guard case .emailReceived(var again) = try first.decode() else { return XCTFail("not an EmailReceived") }
        again.folder = "Elsewhere"
        try append(.emailReceived(again))
        try importMessages([("INBOX", "5:2,", """
        From: Eve <eve@example.com>
        Subject: Kumquat lunch
        Date: Mon, 22 Apr 2024 12:00:00 +0000
        Message-ID: <m5@example.com>

        Fresh kumquats, zebra stripes.
        """)])
        try append(.emailCategorized(EmailCategorized(emailID: m4, category: .social)))
        try append(.emailExpunged(EmailExpunged(emailID: m4, folder: "INBOX")))
        try live.catchUp(log: store.log)
        let head = try store.log.head().sequence
        let queries = ["*", "lunch", "zebra", "quarterly", "folder:INBOX", "folder:Fruit", "folder:Elsewhere", "is:unread",
                       "is:starred", "is:read zebra", "category:promotions", "category:social", "NOT zebra", "kumquat OR lunch",
                       "zeb*", "date:2024-04-01..2024-12-31", "from:alice OR folder:fruit", "id:m4@example.com",
                       "NOT zeb*", "k* OR folder:Fruit", "l* -kumquat", "z* is:unread"]
        let all = [m1, m2, m4, try emailID("m3@example.fr"), try emailID("m5@example.com")]
        func page(_ idx: SearchIndex, _ q: String, oldestFirst: Bool) throws -> [String] {
            var out: [String] = []
            try idx.search(try SearchQuery.parse(q), oldestFirst: oldestFirst) { h in
                out.append("\(h.emailID) \(h.folder) seen:\(h.isSeen) flagged:\(h.isFlagged) \(h.category) \(h.subject)")
                return true
            }
            return out
        }
        var seen = Set<[String]>()
        for point in 1...head {
            let folded = try SearchIndex.rebuild(folder: dir.file("asof-\(point)"), log: store.log, through: point)
            live.asOf = point
            // The versions held at the point sought by rowid (the default), stepped through the matches (0: any
            // version), or either (1); the rows sought tested in a set of their matches (the default) or of every
            // match (seeks 0), the set's words read over one span of the rows or over each row, and the matches
            // stepped over one span of the rows held or over each run of them (gap 0); every prefix heavy (merged 0:
            // its sets made a word at a time) or none.
            let dm = QueryCompiler.maxPastRowids, ds = SearchIndex.defaultPointSetSeeks, dg = SearchIndex.defaultPointSpanGap
            let dp = SearchIndex.defaultMaxMergedPostings
            for (most, seeks, gap, merged) in [(dm, ds, dg, dp), (dm, 0, dg, dp), (dm, ds, 0, dp), (0, ds, dg, dp), (0, ds, 0, dp), (1, ds, dg, dp),
                                               (1, 0, dg, dp), (1, ds, 0, dp), (dm, 0, dg, 0), (0, 0, dg, 0)] {
            live.maxPastRowids = most
            live.pointSetSeeks = seeks
            live.pointSpanGap = gap
            live.maxMergedPostings = merged
            live.setChunkWords = merged == 0 ? 1 : QueryCompiler.defaultSetChunkWords
            for q in queries {
                for oldestFirst in [false, true] {
                    let expected = try page(folded, q, oldestFirst: oldestFirst)
                    XCTAssertEqual(try page(live, q, oldestFirst: oldestFirst), expected, "as of \(point): \(q) (\(most), \(seeks), \(gap), \(merged))")
                    seen.insert(expected)
                }
                XCTAssertEqual(try live.matching(try SearchQuery.parse(q), among: all), try folded.matching(try SearchQuery.parse(q), among: all),
                               "as of \(point), a thread's copies: \(q) (\(most), \(seeks), \(gap), \(merged))")
            }
            }
        }
        XCTAssertGreaterThan(seen.count, 30, "the points differ from each other")
        live.asOf = nil
        XCTAssertEqual(try page(live, "*", oldestFirst: false), try page(try SearchIndex.rebuild(folder: dir.file("now"), log: store.log), "*", oldestFirst: false))
        XCTAssertEqual(try live.compareWithRebuild(log: store.log, scratchFolder: dir.file("scratch")).differences, [])
    }

    /// As of a point early in the log a search tests the few rows held then in a set of their own matches (its
    /// words' postings read over the rows' rowid spans), not in a set of every match in the index (a million rows
    /// for `m*` at 1M, 3-20 s); past a cost (`pointSetSeeks`) it makes that one, with the same results.
    func testASearchAsOfAnEarlyPointTestsTheRowsHeldInASetOfTheirOwnMatches() throws {
        let idx = try index()
        var received: [String: UInt64] = [:]
        for seq in 1...(try store.log.head().sequence) {
            if case .emailReceived(let e)? = try? store.log.event(at: seq)?.decode() { received[e.emailID] = seq }
        }
        // `zeb*` matches two messages: as of the first one's arrival, only it.
        let both = [try emailID("m2@example.org"), try emailID("m4@example.com")]
        XCTAssertEqual(both.compactMap { received[$0] }.count, 2)
        let first = try XCTUnwrap(both.min { received[$0, default: .max] < received[$1, default: .max] })
        idx.asOf = received[first]
        func run(_ seeks: Int, _ text: String) throws -> (hits: [String], rows: [String: Int]) {
            idx.pointSetSeeks = seeks
            return try searchCountingSets(idx, text)
        }
        for text in ["zeb*", "zeb* OR folder:Nope"] {
            let held = try run(SearchIndex.defaultPointSetSeeks, text)
            XCTAssertEqual(held.hits, [first], text)
            XCTAssertEqual(held.rows, ["held": 1], "\(text): a set of the rows held only")
            let every = try run(0, text)
            XCTAssertEqual(every.hits, [first], text)
            XCTAssertEqual(every.rows, ["every": 2], "\(text): past the cost, the set of every match")
        }
    }

    /// As of a point with more current rows held than are sought by rowid and a few versions kept from before (inside
    /// an import chunk: copies not yet categorized), a search FTS5 drives is one statement joining each match to its
    /// copy's version then (`QueryCompiler.heldVersions`): the versions are not tested in a set of every match of a
    /// prefix (`m*` at 1M: ~2 s to make), and the results are a rebuild's as of the point.
    func testASearchAsOfAPointJoinsEachMatchToItsVersionThenWithoutMakingASet() throws {
        let idx = try index()
        let head = try store.log.head().sequence
        var found: (point: UInt64, now: Int, past: Int)?
        for point in 1...head where found == nil {
            idx.asOf = point
            let rows = try idx.pointRowids()
            if let now = rows.now?.count, let past = rows.past?.count, past > 0, now > past { found = (point, now, past) }
        }
        let (point, now, past) = try XCTUnwrap(found, "a point with versions held beside more current rows")
        let folded = try SearchIndex.rebuild(folder: dir.file("asof"), log: store.log, through: point)
        idx.asOf = point
        // The versions sought by rowid, the current rows not.
        idx.maxPastRowids = now - 1
        XCTAssertNotNil(try idx.pointRowids().past)
        XCTAssertNil(try idx.pointRowids().now)
        for text in ["*", "zeb*", "q* OR orange", "l* -kumquat", "is:unread o*", "folder:INBOX zeb*"] {
            let (hits, rows) = try searchCountingSets(idx, text)
            var expected: [String] = []
            try folded.search(try SearchQuery.parse(text)) { expected.append($0.emailID); return true }
            XCTAssertEqual(hits, expected, "as of \(point) (\(now) rows, \(past) versions held): \(text)")
            XCTAssertEqual(rows, [:], "\(text): no set made")
        }
    }

    /// As of a point with more rows held than are sought by rowid, a search steps the matches within the rowid
    /// spans of the rows held only, not those of mail that came later between and after them (`heldSpans`): a gap
    /// is cut where it holds more than `pointSpanGap` documents, into fewer spans for a query of many words.
    func testASearchAsOfAPointStepsTheSpansOfTheRowsHeldOnly() throws {
        let idx = try index()
        let point = try store.log.head().sequence
        // Dated between the first two messages: as of the point, a document between rows held.
        try importMessages([("INBOX", "6:2,", """
        From: Mallory <mallory@example.com>
        Subject: Zebra crossing later
        Date: Mon, 15 Jan 2024 12:00:00 +0000
        Message-ID: <m6@example.com>

        Zebras between the others, quarterly.
        """)])
        try idx.catchUp(log: store.log)
        let folded = try SearchIndex.rebuild(folder: dir.file("asof"), log: store.log, through: point)
        idx.asOf = point
        idx.maxPastRowids = 0
        XCTAssertEqual(try idx.heldSpans(words: 0)?.count, 1, "a gap of one document is not cut")
        idx.pointSpanGap = 0
        XCTAssertEqual(try idx.heldSpans(words: 0)?.count, 2, "cut around the document that came later")
        XCTAssertEqual(try idx.heldSpans(words: SearchIndex.heldSpanSeeks)?.count, 1, "a query of many words: one span")
        func page(_ i: SearchIndex, _ q: String, oldestFirst: Bool) throws -> [String] {
            var out: [String] = []
            try i.search(try SearchQuery.parse(q), oldestFirst: oldestFirst) { h in out.append(h.emailID); return true }
            return out
        }
        for gap in [0, SearchIndex.defaultPointSpanGap] {
            idx.pointSpanGap = gap
            for q in ["zebra*", "quarterly", "*", "NOT zebra", "from:mallory"] {
                for oldestFirst in [false, true] {
                    XCTAssertEqual(try page(idx, q, oldestFirst: oldestFirst), try page(folded, q, oldestFirst: oldestFirst), "\(q) (\(gap))")
                }
            }
        }
        XCTAssertFalse(try page(idx, "*", oldestFirst: false).contains(try emailID("m6@example.com")))
        // More rows held than `maxHeldRows` (4 here against 3, or 0): no spans; the search runs as one statement over
        // every rowid, with the same results.
        for most in [3, 0] {
            idx.maxHeldRows = most
            XCTAssertNil(try idx.heldSpans(words: 0), "more rows held than \(most)")
            for q in ["zebra*", "quarterly", "*", "NOT zebra"] {
                for oldestFirst in [false, true] {
                    XCTAssertEqual(try page(idx, q, oldestFirst: oldestFirst), try page(folded, q, oldestFirst: oldestFirst), "\(q) (held > \(most))")
                }
            }
        }
        idx.maxHeldRows = 4
        idx.pointSpanGap = 0
        XCTAssertEqual(try idx.heldSpans(words: 0)?.count, 2, "as many rows held as the bound: spans")
    }

    /// The index is a file: rows with rowids at the ends of their 64-bit range (a damaged or hand-edited index) are
    /// searched as of a point like any other, through its spans and a thread's span, without an overflow.
    func testASearchAsOfAPointOverRowidsAtTheEndsOfTheirRange() throws {
        let idx = try index()
        try idx.locked {
            for (rowid, id) in [(Int64.max, "edge-max"), (Int64.min, "edge-min")] {
                try idx.db.exec("""
                    INSERT INTO docs(rowid, email_id, account, folder, message_id, flags, category, date, size, subject, participants, since)
                    VALUES(\(rowid), '\(id)', 'local', 'INBOX', NULL, 0, 0, 0, 0, 'edge', '', 1)
                    """)
            }
        }
        idx.asOf = try store.log.head().sequence
        func page(_ q: String, oldestFirst: Bool) throws -> [String] {
            var out: [String] = []
            try idx.search(try SearchQuery.parse(q), oldestFirst: oldestFirst) { h in out.append(h.emailID); return true }
            return out
        }
        for most in [QueryCompiler.maxPastRowids, 0] {
            idx.maxPastRowids = most
            for oldestFirst in [false, true] {
                let all = try page("*", oldestFirst: oldestFirst)
                XCTAssertEqual(all.count, 6, "four messages and the two edge rows (\(most))")
                XCTAssertEqual(oldestFirst ? all.first : all.last, "edge-min")
                XCTAssertEqual(oldestFirst ? all.last : all.first, "edge-max")
                XCTAssertEqual(try page("folder:INBOX NOT zeb*", oldestFirst: oldestFirst).filter { $0.hasPrefix("edge") }.count, 2)
                XCTAssertEqual(try page("zeb*", oldestFirst: oldestFirst).count, 2)
            }
            XCTAssertEqual(try idx.matching(try SearchQuery.parse("*"), among: ["edge-max", "edge-min"]), ["edge-max", "edge-min"])
        }
    }

    /// A thread's copies as of a point are looked up with each id bound twice (the current rows and the kept
    /// versions): the most a thread expands to (`QueryCompiler.maxThreadEmails`) stays under SQLite's limit on
    /// bound parameters, and more are cut to that.
    func testAThreadOfTheMostCopiesIsMatchedAsOfAPoint() throws {
        let idx = try index()
        let m1 = try emailID("m1@example.com")
        let many = (0..<(QueryCompiler.maxThreadEmails + 500)).map { "absent-\($0)" } + [m1]
        idx.asOf = try store.log.head().sequence
        XCTAssertEqual(try idx.matching(try SearchQuery.parse("quarterly"), among: [m1] + many), [m1])
        XCTAssertEqual(try idx.matching(try SearchQuery.parse("quarterly"), among: many), [], "cut to the first 10,000")
    }

    /// The most a statement as of a point binds (both arms seeking the most rowids, a `thread:` term of the most
    /// copies in each) stays under the limit on parameters set on every connection (SQLite's default, whatever
    /// the library was built with): SQLite prepares and runs it.
    func testTheLargestStatementAsOfAPointPreparesAndRuns() throws {
        let idx = try index()
        var compiler = QueryCompiler(threadEmails: { _ in (0..<QueryCompiler.maxThreadEmails).map { "e\($0)" } })
        compiler.asOf = 5
        compiler.nowRowids = Array(0..<Int64(QueryCompiler.maxPastRowids))
        compiler.pastRowids = Array(0..<Int64(QueryCompiler.maxPastRowids))
        for q in ["thread:t hello", "thread:t", "thread:t (hello OR NOT folder:x)"] {
            let c = try compiler.compile(try SearchQuery.parse(q).expr, account: "local", oldestFirst: false)
            XCTAssertGreaterThan(c.binds.count, 2 * QueryCompiler.maxPastRowids + 2 * QueryCompiler.maxThreadEmails, q)
            XCTAssertLessThanOrEqual(c.binds.count, Int(SQLiteConnection.maxParameters), q)
            try idx.locked {
                let s = try idx.db.prepare(c.sql)
                try s.bind(c.binds)
                XCTAssertFalse(try s.step(), q)
            }
        }
    }

    /// The sequence of the first `EmailReceived` in the log.
    private func firstReceived() throws -> UInt64? {
        var found: UInt64?
        try store.log.scan { ev in
            if ev.envelope.type == .emailReceived {
                found = ev.envelope.sequence
                return false
            }
            return true
        }
        return found
    }

    /// The digest covers every column and where each one ends, and nothing else.
    func testTheTextDigestCoversEveryColumnAndItsBounds() throws {
        let digest = try SearchTextDigest()
        let base = ["a", "b", "c", "d", String(repeating: "e", count: 5_000), "f", "g"]
        XCTAssertEqual(digest(base).count, SearchTextDigest.byteCount)
        XCTAssertEqual(digest(base), try SearchTextDigest()(base), "the same text, the same digest")
        var moved = base
        moved[0] = "ab"
        moved[1] = ""
        XCTAssertNotEqual(digest(moved), digest(base), "a boundary moved")
        XCTAssertNotEqual(digest(Array(base.dropLast())), digest(base), "a column fewer")
        XCTAssertNotEqual(digest(base + [""]), digest(base), "an empty column more")
        var changed = base
        changed[4] = String(repeating: "e", count: 4_999) + "E"
        XCTAssertNotEqual(digest(changed), digest(base), "one byte of the body")
    }

    func testFilesArePrivateAndASchemaChangeRebuilds() throws {
        let folder = store.directory.viewsPath + "/search"
        _ = try index()
        var st = stat()
        XCTAssertEqual(stat(folder, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o700)
        XCTAssertEqual(stat(folder + "/index.sqlite", &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        // An index written by an older schema version (not upgraded in place) is rebuilt on open.
        do {
            let idx = try SearchIndex(path: folder + "/index.sqlite")
            try idx.db.exec("UPDATE meta SET value = 5 WHERE key = 'schema_version'")
        }
        XCTAssertThrowsError(try SearchIndex(path: folder + "/index.sqlite"))
        var notes: [String] = []
        let reopened = try SearchIndex.open(folder: folder, log: store.log) { notes.append($0) }
        XCTAssertEqual(notes.count, 1)
        XCTAssertEqual(try reopened.documentCount(), 4)
        XCTAssertEqual(try reopened.metaValue("schema_version"), Int64(SearchSchema.version))
    }

    /// The version a file holds is hostile input too: the largest integer SQLite stores is a newer build's (an
    /// error naming it, the file kept); a value that is not a number, or a negative one, is an old file (rebuilt).
    func testAnyStoredSchemaVersionOpensOrIsNamed() throws {
        let folder = store.directory.viewsPath + "/search"
        let file = folder + "/index.sqlite"
        _ = try index()
        func stored(_ value: String) throws {
            let db = try SQLiteConnection(path: file, create: false)
            try db.exec("UPDATE meta SET value = \(value) WHERE key = 'schema_version'")
        }
        try stored("\(Int64.max)")
        XCTAssertThrowsError(try SearchIndex.open(folder: folder, log: store.log)) { error in
            guard case SearchIndexError.newerSchema(_, let found, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(found, Int.max)
        }
        for value in ["'not a number'", "-9223372036854775808", "x'00ff'"] {
            try stored(value)
            var notes: [String] = []
            let reopened = try SearchIndex.open(folder: folder, log: store.log) { notes.append($0) }
            XCTAssertEqual(notes.count, 1, value)
            XCTAssertEqual(try reopened.metaValue("schema_version"), Int64(SearchSchema.version), value)
            XCTAssertEqual(try reopened.documentCount(), 4, value)
        }
    }

    /// The indexes only queries read are made once a build's rows are in (a key of a random Message-ID or email id
    /// put as each row is folded rewrote a page of the file each time: ~30 GB written by a 1M-message build), and a
    /// file built aside ends with the same indexes as one opened live. Sorting their keys switches the connection
    /// to temporary files, and back to memory for the sets searches make.
    func testQueryIndexesAreMadeAfterABuildsRowsAndEveryFileHasThem() throws {
        let queryIndexes = ["docs_account", "docs_folder", "docs_message_id", "docs_past_account", "docs_past_email_id",
                            "docs_past_folder", "docs_past_message_id", "docs_past_until", "docs_since"]
        func indexes(_ idx: SearchIndex) throws -> [String] {
            try idx.locked { () throws -> [String] in
                let s = try idx.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name")
                var out: [String] = []
                while try s.step() { out.append(s.text(0)) }
                return out
            }
        }
        func temporaryStore(_ idx: SearchIndex) throws -> Int64 {
            try idx.locked { () throws -> Int64 in
                let s = try idx.db.prepare("PRAGMA temp_store")
                _ = try s.step()
                return s.int(0)
            }
        }
        // Folding into a file built aside: none of them yet.
        let aside = try SearchIndex.builtAside(at: dir.file("aside.sqlite"))
        try aside.catchUp(log: store.log)
        XCTAssertEqual(try aside.documentCount(), 4)
        XCTAssertEqual(try indexes(aside), [])
        // Built: all of them, as in a file opened live (made on open), and the sets in memory again (2: MEMORY).
        let built = try SearchIndex.rebuild(folder: dir.file("built"), log: store.log)
        XCTAssertEqual(try indexes(built), queryIndexes)
        let live = try index()
        XCTAssertEqual(try indexes(live), queryIndexes)
        XCTAssertEqual(try temporaryStore(live), 2)
        // One missing from a file (an older build's) is made when it is opened.
        try live.locked { try live.db.exec("DROP INDEX docs_past_email_id; DROP INDEX docs_since;") }
        let reopened = try SearchIndex(path: live.path)
        XCTAssertEqual(try indexes(reopened), queryIndexes)
        XCTAssertEqual(try temporaryStore(reopened), 2)
        XCTAssertEqual(try ids("orange", reopened).count, 2)
    }

    /// An index a newer build wrote is left as it is on open (neither read nor rebuilt down to this build's
    /// version, which that build would then rebuild up again): a clear error, the file untouched; an explicit
    /// rebuild (`replay --view search`) replaces it.
    func testANewerBuildsIndexIsLeftAsItIs() throws {
        let folder = store.directory.viewsPath + "/search"
        let file = folder + "/index.sqlite"
        _ = try index()
        let newer = SearchSchema.version + 1
        do {
            // As a newer build might leave it: a table this build does not know, one of its own gone.
            let idx = try SearchIndex(path: file)
            try idx.db.exec("UPDATE meta SET value = \(newer) WHERE key = 'schema_version'; CREATE TABLE later(x); "
                            + "INSERT INTO later VALUES(7); DROP TABLE terms;")
        }
        func tables() throws -> [String] {
            let db = try SQLiteConnection(path: file, create: false)
            let s = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            var names: [String] = []
            while try s.step() { names.append(s.text(0)) }
            return names
        }
        let before = try tables()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        for attempt in ["init", "open"] {
            var notes: [String] = []
            do {
                _ = attempt == "init" ? try SearchIndex(path: file) : try SearchIndex.open(folder: folder, log: store.log) { notes.append($0) }
                XCTFail("\(attempt): a newer build's index opened")
            } catch SearchIndexError.newerSchema(let f, let found, let supported) {
                XCTAssertEqual(f, file)
                XCTAssertEqual(found, newer)
                XCTAssertEqual(supported, SearchSchema.version)
            }
            XCTAssertEqual(notes, [], "\(attempt): nothing rebuilt")
            XCTAssertEqual(try tables(), before, "\(attempt): no table made or dropped")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), bytes, "\(attempt): the file untouched")
        }
        XCTAssertTrue("\(SearchIndexError.newerSchema(file: file, found: newer, supported: SearchSchema.version))".contains("replay --view search"))
        // Asked for, a rebuild replaces it with this build's.
        let rebuilt = try SearchIndex.rebuild(folder: folder, log: store.log)
        XCTAssertEqual(try rebuilt.metaValue("schema_version"), Int64(SearchSchema.version))
        XCTAssertEqual(try rebuilt.documentCount(), 4)
        XCTAssertFalse(try tables().contains("later"))
    }

    /// New index files have 16 KiB pages; a file built with 4 KiB pages (before) opens as it is and answers.
    func testNewFilesHaveBigPagesAndOldOnesStillServe() throws {
        func pageSize(_ idx: SearchIndex) throws -> Int64 {
            let s = try idx.db.prepare("PRAGMA page_size")
            XCTAssertTrue(try s.step())
            return s.int(0)
        }
        let built = try index()
        XCTAssertEqual(try pageSize(built), 16_384)
        XCTAssertEqual(try built.documentCount(), 4)

        let old = dir.file("old.sqlite")
        do {
            let db = try SQLiteConnection(path: old, create: true)
            try db.exec("PRAGMA page_size=4096; CREATE TABLE early(x)")
        }
        let reopened = try SearchIndex(path: old)
        XCTAssertEqual(try pageSize(reopened), 4_096, "an existing file keeps its pages")
        try reopened.catchUp(log: store.log)
        XCTAssertEqual(try reopened.documentCount(), 4)
    }

    /// A file is built with FTS5 merging 8 segments at a time and gathering 8 MiB before writing a segment, in
    /// transactions of several batches; it ends merged into one segment, and goes live with FTS5's defaults (4
    /// segments, 1 MiB: the settings are kept in the file, so a built file that kept 8 would merge syncs' small
    /// segments half as often). Every batch of every transaction is in it.
    func testABuiltIndexIsOneSegmentAndGoesLiveWithTheDefaultMerging() throws {
        func scalar(_ idx: SearchIndex, _ sql: String) throws -> Int64? {
            let s = try idx.db.prepare(sql)
            return try s.step() ? s.int(0) : nil
        }
        // Enough messages for more than one transaction of the build (read and parsed on a second thread, as
        // a rebuild's are), the last one not full, so it writes several segments.
        let extra = (0..<(SearchIndex.batchSize * SearchIndex.bulkBatchesPerTransaction / 2 + 700)).map { i in
            (folder: "INBOX", name: "bulk-\(i)",
             text: "From: p\(i % 7)@example.com\nTo: me@example.com\nSubject: bulk \(i)\nMessage-ID: <bulk-\(i)@example.com>\nDate: Mon, 1 Jan 2024 10:00:00 +0000\n\nword\(i % 50) common text \(i)\n")
        }
        try importMessages(extra)
        let head = try store.log.head().sequence
        XCTAssertGreaterThan(head, UInt64(SearchIndex.batchSize * SearchIndex.bulkBatchesPerTransaction))
        XCTAssertGreaterThanOrEqual(head, SearchIndex.pipelineThreshold)
        XCTAssertNotEqual(head % UInt64(SearchIndex.batchSize * SearchIndex.bulkBatchesPerTransaction), 0)
        let built = try SearchIndex.rebuild(folder: dir.file("rebuilt"), log: store.log)
        XCTAssertEqual(try built.documentCount(), 4 + extra.count)
        XCTAssertEqual(try built.checkpoint(), head)
        XCTAssertFalse(built.bulk, "the built file is opened again as a live index")
        XCTAssertEqual(try scalar(built, "SELECT count(DISTINCT segid) FROM fts_idx"), 1)
        XCTAssertEqual(try scalar(built, "SELECT v FROM fts_config WHERE k = 'automerge'"), Int64(SearchIndex.liveAutomerge))
        XCTAssertEqual(SearchIndex.liveAutomerge, 4)
        XCTAssertNotEqual(SearchIndex.buildAutomerge, SearchIndex.liveAutomerge)
        XCTAssertEqual(try scalar(built, "SELECT v FROM fts_config WHERE k = 'crisismerge'"), Int64(SearchIndex.liveCrisisMerge))
        XCTAssertEqual(SearchIndex.liveCrisisMerge, 16)
        XCTAssertGreaterThan(SearchIndex.buildCrisisMerge, SearchIndex.liveCrisisMerge)
        XCTAssertEqual(try scalar(built, "SELECT v FROM fts_config WHERE k = 'hashsize'"), Int64(SearchIndex.liveHashBytes))
        XCTAssertEqual(SearchIndex.liveHashBytes, 1 << 20)
        XCTAssertGreaterThan(SearchIndex.buildHashBytes, SearchIndex.liveHashBytes)
        XCTAssertEqual(Set(try ids("word13", built)), Set(extra.indices.filter { $0 % 50 == 13 }.map { "bulk-\($0)@example.com" }))
        XCTAssertEqual(try ids("\"common text \(extra.count - 1)\"", built), ["bulk-\(extra.count - 1)@example.com"], "the last batch is in")
        XCTAssertEqual(Set(try ids("word7", built)), Set(extra.indices.filter { $0 % 50 == 7 }.map { "bulk-\($0)@example.com" }))
    }

    /// A file built aside (a rebuild, `verify --views`'s scratch index) has no journal and no syncs, merges FTS5's
    /// segments only when 64 of a level are there and gathers `buildHashBytes` of postings before writing one; a live
    /// index has its journal.
    func testAFileBuiltAsideHasNoJournalAndTheBuildSettings() throws {
        func text(_ idx: SearchIndex, _ sql: String) throws -> String? {
            let s = try idx.db.prepare(sql)
            return try s.step() ? s.text(0) : nil
        }
        let aside = try SearchIndex.builtAside(at: dir.file("aside.sqlite"))
        XCTAssertTrue(aside.bulk)
        XCTAssertEqual(try text(aside, "PRAGMA journal_mode"), "off")
        XCTAssertEqual(try text(aside, "PRAGMA synchronous"), "0")
        XCTAssertEqual(try text(aside, "SELECT v FROM fts_config WHERE k = 'automerge'"), "0")
        XCTAssertEqual(try text(aside, "SELECT v FROM fts_config WHERE k = 'crisismerge'"), "\(SearchIndex.buildCrisisMerge)")
        XCTAssertEqual(try text(aside, "SELECT v FROM fts_config WHERE k = 'hashsize'"), "\(SearchIndex.buildHashBytes)")
        let live = try index()
        XCTAssertFalse(live.bulk)
        XCTAssertEqual(try text(live, "PRAGMA journal_mode"), "delete")
    }

    func testVerifyFindsADamagedIndex() throws {
        let idx = try index()
        try idx.db.exec("UPDATE docs SET folder = 'Elsewhere' WHERE message_id = 'm1@example.com'")
        let diffs = try idx.compareWithRebuild(log: store.log, scratchFolder: dir.file("scratch")).differences
        XCTAssertEqual(diffs.count, 1)
        XCTAssertTrue(diffs[0].contains("Elsewhere"), diffs[0])
    }
}
