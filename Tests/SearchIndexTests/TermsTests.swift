import EventModel
import Foundation
@testable import SearchIndex
import SearchQuery
import XCTest

/// The index's vocabulary (`terms`): kept equal to FTS5's as documents come, made again where a writer did not keep
/// it, and what a prefix's words are listed from.
final class TermsTests: SearchIndexTestCase {
    /// A message with words the tokenizer folds (case, diacritics), stems (`meetings`) and keeps (`_`).
    func message(_ i: Int, folder: String = "INBOX", extra: String = "") -> (folder: String, name: String, text: String) {
        (folder: folder, name: "t-\(i)-\(UUID().uuidString.prefix(6))",
         text: "From: Person \(i % 5) <p\(i % 5)@example.com>\nTo: me@example.com\nCc: c\(i % 3)@example.net\n"
             + "Subject: Meetings \(i % 4) planned\nMessage-ID: <t-\(i)@example.com>\nDate: Mon, 1 Jan 2024 10:\(String(format: "%02d", i % 60)):00 +0000\n\n"
             + "Réunion word\(i % 9) mailstore_term tally\(i % 2) \(extra)\n")
    }

    /// `terms` as rows "term col docs cnt", in its order.
    func kept(_ idx: SearchIndex) throws -> [String] {
        try idx.locked {
            let s = try idx.db.prepare("SELECT term, col, docs, cnt FROM terms ORDER BY term, col")
            var out: [String] = []
            while try s.step() { out.append("\(s.text(0)) \(s.int(1)) \(s.int(2)) \(s.int(3))") }
            return out
        }
    }

    /// FTS5's vocabulary of the index (`fts5vocab`'s `col` table) as rows "term col docs cnt", `col` a position.
    func fts5(_ idx: SearchIndex) throws -> [String] {
        try idx.locked {
            try idx.vocabularyTable()
            let s = try idx.db.prepare("SELECT term, col, doc, cnt FROM temp.prefix_words")
            var out: [String] = []
            while try s.step() {
                let col = try XCTUnwrap(SearchSchema.textColumns.firstIndex(of: s.text(1)))
                out.append("\(s.text(0)) \(col) \(s.int(2)) \(s.int(3))")
            }
            return out
        }
    }

    func current(_ idx: SearchIndex) throws -> Bool { try idx.locked { try idx.termsCurrent() } }

    /// Live catch-ups of a few events count each batch's terms in its transaction (several batches in one of them),
    /// and a flag change, a move and an expunge leave them (an expunged copy keeps its terms); the vocabulary kept
    /// is FTS5's after each, and prefixes are listed from it, finding what FTS5's own prefix finds.
    func testTheVocabularyKeptBatchByBatchIsFTS5s() throws {
        try importMessages((0..<3).map { message($0) })
        let idx = try index()
        XCTAssertTrue(try current(idx), "a build makes it")
        XCTAssertFalse(try kept(idx).isEmpty)
        XCTAssertEqual(try kept(idx), try fts5(idx))
        // More than a batch in one catch-up, fewer events than a catch-up that makes it again.
        try importMessages((3..<(SearchIndex.batchSize + 140)).map { message($0, extra: "late\($0 % 7) ünïcode") })
        let events = try store.log.head().sequence - idx.checkpoint()
        XCTAssertGreaterThan(events, UInt64(SearchIndex.batchSize))
        XCTAssertLessThanOrEqual(events, SearchIndex.termsCountedCatchUp)
        let before = try kept(idx)
        try idx.catchUp(log: store.log)
        XCTAssertTrue(try current(idx))
        XCTAssertEqual(try kept(idx), try fts5(idx))
        XCTAssertNotEqual(try kept(idx), before)
        // Counted, not made again: a row FTS5 does not have, put in before, stays.
        try idx.locked { try idx.db.exec("INSERT INTO terms VALUES('zzzextra', 0, 1, 1)") }
        try importMessages([message(9_001, extra: "zzznew")])
        try idx.catchUp(log: store.log)
        let recomputed = try !kept(idx).contains("zzzextra 0 1 1")
        XCTAssertFalse(recomputed, "a small catch-up counts its batch's terms")
        // Made again only when it is not current (another process may have made it while this one waited).
        try idx.recomputeTerms()
        XCTAssertTrue(try kept(idx).contains("zzzextra 0 1 1"))
        try idx.locked { try idx.db.exec("DELETE FROM terms WHERE term = 'zzzextra'") }
        XCTAssertEqual(try kept(idx), try fts5(idx))
        XCTAssertTrue(try kept(idx).contains { $0.hasPrefix("zzznew ") })

        let unchanged = try kept(idx)
        let id = try emailID("t-1@example.com")
        try append(.flagsChanged(FlagsChanged(emailID: id, folder: "INBOX", flags: ["\\Seen"])))
        try append(.emailExpunged(EmailExpunged(emailID: try emailID("t-2@example.com"), folder: "INBOX")))
        try idx.catchUp(log: store.log)
        XCTAssertTrue(try current(idx))
        XCTAssertEqual(try kept(idx), unchanged)
        XCTAssertEqual(try kept(idx), try fts5(idx))

        // Prefixes are listed from it and find what FTS5's prefix finds.
        for q in ["l*", "late*", "t*", "meet*", "from:p*", "to:c*", "r*", "u*", "NOT late*", "subject:m* tally1"] {
            let listings = idx.termListings
            let parsed = try SearchQuery.parse(q)
            var expanded: [String] = [], native: [String] = []
            try idx.search(parsed, oldestFirst: false) { expanded.append($0.emailID); return true }
            XCTAssertEqual(idx.termListings, listings + 1, q)
            try idx.search(parsed, account: nil, oldestFirst: false, threadEmails: { _ in [] }, expansions: PrefixExpansions(),
                           sets: nil) { native.append($0.emailID); return true }
            XCTAssertFalse(native.isEmpty, q)
            XCTAssertEqual(expanded, native, "\(q): as FTS5's own prefix")
        }
        XCTAssertEqual(try idx.compareWithRebuild(log: store.log, scratchFolder: dir.file("scratch")).differences, [])
    }

    /// A prefix's words come from `terms` while it is current: a word missing there is not found (and `verify`
    /// reports it); one left behind by another writer is not used (FTS5's vocabulary is, and finds the word), and
    /// the next catch-up makes it again, even with nothing to fold.
    func testAPrefixIsListedFromTheVocabularyKeptWhileItIsCurrent() throws {
        try importMessages((0..<6).map { message($0, extra: $0 == 4 ? "quokka" : "") })
        let idx = try index()
        XCTAssertEqual(try ids("quok*", idx), ["t-4@example.com"])
        try idx.locked { try idx.db.exec("DELETE FROM terms WHERE term = 'quokka'") }
        XCTAssertTrue(try current(idx))
        XCTAssertEqual(try ids("quok*", idx), [], "listed from terms")
        let diffs = try idx.compareWithRebuild(log: store.log, scratchFolder: dir.file("scratch")).differences
        XCTAssertEqual(diffs.count, 1)
        XCTAssertTrue(diffs[0].contains("\"quokka\"") && diffs[0].contains("missing"), diffs[0])

        // Read from a file, hostile as any: a column out of range is in no column, a negative count is none.
        try idx.locked { try idx.db.exec("INSERT INTO terms VALUES('quokka', 99, -5, -7), ('quokkb', -1, 1, 9223372036854775807)") }
        XCTAssertEqual(try ids("quok*", idx), [])
        XCTAssertEqual(try ids("NOT quok*", idx).count, 6)
        try idx.locked { try idx.db.exec("DELETE FROM terms WHERE term IN ('quokka', 'quokkb')") }

        // Another writer folded a batch without keeping it: the checkpoint is past it.
        try idx.locked { try idx.db.exec("UPDATE meta SET value = value - 1 WHERE key = 'terms'") }
        XCTAssertFalse(try current(idx))
        let listings = idx.termListings
        XCTAssertEqual(try ids("quok*", idx), ["t-4@example.com"], "listed from FTS5's vocabulary")
        XCTAssertEqual(idx.termListings, listings)
        try idx.catchUp(log: store.log)
        XCTAssertTrue(try current(idx))
        XCTAssertEqual(try kept(idx), try fts5(idx))
        XCTAssertEqual(try ids("quok*", idx), ["t-4@example.com"])

        // A batch written while it is behind (another writer's batch brought `quokka` and did not count it) does not
        // count its terms; the catch-up makes it again at its end.
        try idx.locked { try idx.db.exec("DELETE FROM terms WHERE term = 'quokka'; UPDATE meta SET value = value - 1 WHERE key = 'terms'") }
        try importMessages([message(77, extra: "wombat")])
        try idx.catchUp(log: store.log)
        XCTAssertTrue(try current(idx))
        XCTAssertEqual(try kept(idx), try fts5(idx))
        XCTAssertEqual(try ids("womb*", idx), ["t-77@example.com"])
        XCTAssertEqual(try ids("quok*", idx), ["t-4@example.com"])
    }

    /// A catch-up of more events than `termsCountedCatchUp` and than a sixteenth of the documents makes `terms`
    /// again at its end; a file of an older version (8, 7 or 6: its text was indexed with the remains of terminal
    /// escape sequences) is rebuilt on open, with its indexes by folder and Message-ID and `terms` current; a
    /// rebuild's file has it current.
    func testALargeCatchUpAndAnOlderVersionMakeTheVocabularyAgain() throws {
        try importMessages((0..<4).map { message($0) })
        let folder = store.directory.viewsPath + "/search"
        let idx = try index()
        try importMessages((4..<(Int(SearchIndex.termsCountedCatchUp) / 2 + 200)).map { message($0, extra: "bulk\($0 % 11)") })
        XCTAssertGreaterThan(try store.log.head().sequence - idx.checkpoint(), SearchIndex.termsCountedCatchUp)
        // A row FTS5 does not have goes when it is made again.
        try idx.locked { try idx.db.exec("INSERT INTO terms VALUES('zzzextra', 0, 1, 1)") }
        try idx.catchUp(log: store.log)
        XCTAssertTrue(try current(idx))
        XCTAssertEqual(try kept(idx), try fts5(idx))
        XCTAssertFalse(try kept(idx).contains("zzzextra 0 1 1"))
        let made = try kept(idx)

        // An older version, made by `older` (which drops the indexes of version 8 first) and opened: rebuilt (a row
        // put in before is gone), complete.
        let indexes = ["docs_account", "docs_folder", "docs_past_account", "docs_past_folder", "docs_past_message_id"]
        func present(_ idx: SearchIndex) throws -> [String] {
            try idx.locked { () throws -> [String] in
                let s = try idx.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name IN ('docs_account', 'docs_folder', 'docs_past_account', 'docs_past_folder', 'docs_past_message_id') ORDER BY name")
                var out: [String] = []
                while try s.step() { out.append(s.text(0)) }
                return out
            }
        }
        var file = idx
        for (version, older) in [(8, ""), (7, ""), (6, "DROP TABLE terms; DELETE FROM meta WHERE key = 'terms';")] {
            try file.locked {
                try file.db.exec(indexes.map { "DROP INDEX IF EXISTS \($0);" }.joined() + older
                                    + "UPDATE meta SET value = \(version) WHERE key = 'schema_version'; INSERT INTO meta(key, value) VALUES('marker', 42);")
            }
            var notes: [String] = []
            let reopened = try SearchIndex.open(folder: folder, log: store.log) { notes.append($0) }
            XCTAssertEqual(notes.count, 1, "version \(version): rebuilt")
            try reopened.locked {
                XCTAssertNil(try reopened.metaValue("marker"), "version \(version): a new file")
                XCTAssertEqual(try reopened.metaValue("schema_version"), Int64(SearchSchema.version))
            }
            XCTAssertEqual(try present(reopened), indexes, "version \(version)")
            XCTAssertTrue(try current(reopened), "version \(version)")
            XCTAssertEqual(try kept(reopened), made, "version \(version)")
            XCTAssertEqual(try ids("bulk3*", reopened).count, (4..<(Int(SearchIndex.termsCountedCatchUp) / 2 + 200)).filter { $0 % 11 == 3 }.count)
            file = reopened
        }

        let rebuilt = try SearchIndex.rebuild(folder: dir.file("rebuilt"), log: store.log)
        XCTAssertTrue(try current(rebuilt))
        XCTAssertEqual(try kept(rebuilt), made)
    }
}
