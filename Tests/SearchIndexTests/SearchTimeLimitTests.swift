import CorpusGenerator
import CSQLite
import Foundation
import MailStore
@testable import SearchIndex
import SearchQuery
import TestSupport
import XCTest

/// A search's time: the expanded statement's time budget (past it, FTS5's prefixes go on from where it stopped) and
/// a search's time limit (past it, `SearchIndexError.timedOut`), both enforced by SQLite's progress handler and by an
/// interrupter that stops a statement between two of its calls.
final class SearchTimeLimitTests: SearchIndexTestCase {
    /// With no time for it, every statement with expanded prefixes goes on with FTS5's prefixes (counted), and finds
    /// the same copies in the same order as FTS5's prefixes alone; with time, none does (the rows budget is the same).
    func testAnExpandedStatementPastItsTimeGoesOnWithFTS5sPrefixes() throws {
        _ = try generateCorpus(CorpusOptions(messages: 300, outputDirectory: dir.file("md"), seed: 7))
        _ = try Importer(store: store, options: Importer.Options()).importMaildir(dir.file("md"))
        let idx = try index()
        let queries = ["m*", "s* -t*", "a* is:unread", "from:b*", "re-m*", "(c* OR is:starred) -folder:INBOX"]
        idx.expandedSeconds = 3_600
        var found: [String: [String]] = [:]
        for q in queries { found[q] = try hits(q, idx, expanded: true) }
        XCTAssertEqual(idx.expandedFallbacks, 0, "an hour is time enough for each")
        idx.expandedSeconds = 0
        for q in queries {
            let before = idx.expandedFallbacks
            let got = try hits(q, idx, expanded: true)
            XCTAssertGreaterThan(idx.expandedFallbacks, before, "'\(q)' went on with FTS5's prefixes")
            XCTAssertEqual(got, found[q], "'\(q)'")
            XCTAssertEqual(got, try hits(q, idx, expanded: false), "'\(q)'")
            XCTAssertFalse(got.isEmpty, "'\(q)' matches")
        }
    }

    /// A search past its limit throws `timedOut` and nothing else; within it, the same copies as without one; the
    /// index answers the next search in full (no interrupt is left over).
    func testASearchPastItsTimeLimitThrowsTimedOut() throws {
        _ = try generateCorpus(CorpusOptions(messages: 200, outputDirectory: dir.file("md"), seed: 3))
        _ = try Importer(store: store, options: Importer.Options()).importMaildir(dir.file("md"))
        let idx = try index()
        for q in ["m*", "hello OR s*", "NOT t*", "*"] {
            let all = try hits(q, idx, expanded: true)
            XCTAssertFalse(all.isEmpty, "'\(q)'")
            XCTAssertThrowsError(try idx.withTimeLimit(0) { try hits(q, idx, expanded: true) }, "'\(q)'") { error in
                guard case SearchIndexError.timedOut(let s) = error else { return XCTFail("'\(q)': \(error)") }
                XCTAssertEqual(s, 0)
                XCTAssertTrue("\(error)".contains("--timeout"), "\(error)")
            }
            XCTAssertEqual(try idx.withTimeLimit(60) { try hits(q, idx, expanded: true) }, all, "'\(q)'")
            XCTAssertEqual(try hits(q, idx, expanded: true), all, "'\(q)' after")
        }
        // Through the store: the error's category is `timedOut` (the CLI's exit code 8).
        XCTAssertThrowsError(try store.search("m*", timeLimit: 0)) { XCTAssertEqual(ErrorCategory(of: $0), .timedOut) }
        XCTAssertFalse(try store.search("m*", timeLimit: 60).isEmpty)
    }

    /// The interrupter stops a statement that the progress handler is not watching, and once disarmed interrupts
    /// nothing more.
    func testTheInterrupterStopsALongStatementAndNothingAfterItIsDisarmed() throws {
        let d = TemporaryDirectory("interrupter")
        let db = try SQLiteConnection(path: d.file("x.sqlite"), create: true)
        // ~3e8 rows of a recursive count: tens of seconds unless interrupted.
        let long = try db.prepare("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300000000) SELECT count(*) FROM c")
        let interrupter = SQLiteInterrupter(handle: db.handle, at: mailstore_monotonic_ns() + 50_000_000)
        XCTAssertThrowsError(try long.step()) { XCTAssertTrue(($0 as? SearchIndexError)?.isInterrupt == true, "\($0)") }
        long.reset()
        interrupter.disarm()
        usleep(UInt32(SQLiteInterrupter.repeatMilliseconds * 3_000))
        let short = try db.prepare("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) SELECT count(*) FROM c")
        XCTAssertTrue(try short.step())
        XCTAssertEqual(short.int(0), 100_000)
    }

    /// A catch-up past its deadline commits what it folded and returns false; the next one goes on and ends. A build past
    /// its deadline keeps its file aside (`index.sqlite.partial`) and throws `notBuilt`; the next build with `resume` goes
    /// on with that very file and puts it in place, the same index as a build in one go; one without (`replay`) removes it.
    /// (A search whose catch-up stops, through the store and the CLI: `SearchCatchUpLimitTests`.)
    func testACatchUpOrABuildPastItsDeadlineKeepsWhatItFoldedAndTheNextGoesOn() throws {
        try importMessages(SearchIndexTests.messages)
        let early = try store.log.head().sequence
        try importMessages(SearchIndexTestCase.kayak)
        let head = try store.log.head().sequence
        let folder = store.directory.viewsPath + "/search"
        let live = try SearchIndex.rebuild(folder: folder, log: store.log, through: early)
        XCTAssertFalse(try live.catchUp(log: store.log, deadline: SearchIndex.now()), "stopped at once")
        XCTAssertLessThan(try live.checkpoint(), head)
        XCTAssertEqual(try hits("kayak", live, expanded: true), [])
        XCTAssertTrue(try live.catchUp(log: store.log))
        XCTAssertEqual(try live.checkpoint(), head)
        XCTAssertEqual(try hits("kayak", live, expanded: true).count, 1)
        let current = try store.searchAnswer("kayak", output: .messages)
        XCTAssertEqual(current.rows.count, 1)
        XCTAssertEqual(current.indexBehind, 0)
        XCTAssertNil(current.warning)
        XCTAssertNil(current.rows[0].indexBehind)

        // A build past its deadline.
        let aside = dir.file("aside"), partial = aside + "/index.sqlite" + SearchIndex.partialSuffix
        XCTAssertThrowsError(try SearchIndex.rebuild(folder: aside, log: store.log, resume: true, deadline: SearchIndex.now())) { error in
            guard case SearchIndexError.notBuilt(let folded, let of, let endStages) = error else { return XCTFail("\(error)") }
            XCTAssertLessThan(folded, of)
            XCTAssertNil(endStages, "stopped before its end")
            XCTAssertEqual(of, head)
            XCTAssertEqual(ErrorCategory(of: error), .timedOut)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: partial))
        XCTAssertFalse(FileManager.default.fileExists(atPath: aside + "/index.sqlite"))
        var kept = stat(), st = stat()
        XCTAssertEqual(stat(partial, &kept), 0)
        let built = try SearchIndex.rebuild(folder: aside, log: store.log, resume: true)
        XCTAssertEqual(try built.checkpoint(), head)
        XCTAssertEqual(stat(aside + "/index.sqlite", &st), 0)
        XCTAssertEqual(st.st_ino, kept.st_ino, "the build kept aside was gone on with")
        XCTAssertFalse(FileManager.default.fileExists(atPath: partial))
        for q in ["kayak", "quarterly", "*", "m*"] {
            XCTAssertEqual(try hits(q, built, expanded: true), try hits(q, live, expanded: true), q)
        }
        // A replay's build starts afresh and removes one kept aside.
        XCTAssertThrowsError(try SearchIndex.rebuild(folder: aside, log: store.log, resume: true, deadline: SearchIndex.now()))
        XCTAssertTrue(FileManager.default.fileExists(atPath: partial))
        _ = try SearchIndex.rebuild(folder: aside, log: store.log)
        XCTAssertFalse(FileManager.default.fileExists(atPath: partial))
    }
}
