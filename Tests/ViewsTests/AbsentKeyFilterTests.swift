import CorpusGenerator
import EventLog
import EventModel
import Foundation
import MailStore
import Projections
import TestSupport
@testable import Views
import XCTest

/// The filters a fold from empty keeps of the keys it put, so lookups of new keys skip the B-tree: never a
/// key put reported absent, few keys never put reported present, dropped where they do not pay, and only
/// for views built from empty.
final class AbsentKeyFilterTests: ViewsTestCase {
    private func key(_ i: Int, _ tag: String) -> [UInt8] { Array("\(tag)\(i)@example.com".utf8) }

    func testAFilterNeverReportsAKeyPutAbsentAndRarelyReportsOneNeverPut() {
        var filter = AbsentKeyFilter()
        XCTAssertFalse(filter.mightContain(key(1, "put")), "an empty filter has seen nothing")
        let n = 100_000
        for i in 0..<n { filter.insert(key(i, "put")) }
        // Across several layers (16K, 32K, 64K keys...), every key put is still there.
        let missed = (0..<n).filter { !filter.mightContain(key($0, "put")) }.count
        XCTAssertEqual(missed, 0, "keys put reported absent")
        let claimed = (0..<n).filter { filter.mightContain(key($0, "other")) }.count
        XCTAssertLessThan(claimed, n / 20, "keys never put reported present: \(claimed) of \(n)")
        XCTAssertGreaterThan(claimed, 0, "a Bloom filter of this size has some false positives")
        // Memory follows the keys: 16K + 32K + 64K capacity at 10 bits a key.
        XCTAssertLessThanOrEqual(filter.bytes, n * 5 / 2)
        XCTAssertGreaterThanOrEqual(filter.bytes, n * 10 / 8)
    }

    func testFiltersAreDroppedWhereTheyDoNotPay() {
        let budget = AbsentKeyBudget()
        let filters = AbsentKeyFilters(tables: ["new", "existing", "scanned", "other"], budget: budget)
        // New keys looked up before each put: nearly all skipped (a few false "maybe"), the filter kept.
        var skipped = 0
        for i in 0..<10_000 {
            if filters.surelyAbsent("new", key(i, "n")) { skipped += 1 }
            filters.put("new", key(i, "n"))
        }
        XCTAssertGreaterThan(skipped, 9_500)
        XCTAssertFalse(filters.surelyAbsent("new", key(5, "n")), "a key put is never reported absent")
        // Keys mostly there: after the trial, the filter goes.
        for i in 0..<100 { filters.put("existing", key(i, "e")) }
        for i in 0..<AbsentKeyFilters.trialLookups { XCTAssertFalse(filters.surelyAbsent("existing", key(i % 100, "e"))) }
        // Put into and never looked up: the filter goes.
        for i in 0..<AbsentKeyFilters.unreadPuts { filters.put("scanned", key(i, "s")) }
        XCTAssertEqual(filters.filteredTables, ["new", "other"])
        XCTAssertFalse(filters.surelyAbsent("existing", key(999, "e")), "a table without a filter is read")
        XCTAssertFalse(filters.surelyAbsent("unknown", key(1, "u")), "a table never filtered is read")
        XCTAssertEqual(filters.skippedLookups, skipped)

        // A filter that would grow past the store's budget goes instead.
        let small = AbsentKeyFilters(tables: ["t"], budget: AbsentKeyBudget(bytes: AbsentKeyFilter().nextLayerBytes))
        for i in 0..<AbsentKeyFilter.firstCapacity { small.put("t", key(i, "t")) }
        XCTAssertEqual(small.filteredTables, ["t"], "the first layer fits the budget")
        small.put("t", key(-1, "t"))
        XCTAssertEqual(small.filteredTables, [], "the second layer does not")
        XCTAssertFalse(small.surelyAbsent("t", key(-1, "t")))
    }

    /// A fold from the log's start, in several calls (so later batches look up keys earlier ones wrote),
    /// skips most lookups and gives exactly the views folded incrementally.
    func testAFoldFromEmptySkipsLookupsAndEqualsTheIncrementalViews() throws {
        _ = try generateCorpus(CorpusOptions(messages: 1_200, outputDirectory: dir.file("md"), seed: 5))
        var options = Importer.Options()
        options.batchMessages = 100
        let importer = try Importer(store: store, options: options)
        let live = try views()
        _ = try importer.importMaildir(dir.file("md")) { _, _ in try? live.catchUp() }
        try live.catchUp()
        let head = try store.log.head().sequence

        let fresh = try ViewStore.scratch(in: dir.file("scratch"), log: store.log, through: head / 5)
        for step in 2...5 { try fresh.catchUp(through: head * UInt64(step) / 5) }
        XCTAssertGreaterThan(fresh.lookupsSkipped, 3_000, "each new message's lookups of its own keys are skipped")
        try assertEqualViews(fresh, live, "folded from empty with filters")

        try assertEqualViews(try live.past(at: head), live, "the live views' history at their head")
    }
}
