import Categorizer
import EventModel
import XCTest

/// The categorizer's quality on labelled real-world mail, kept from regressing. The floors are the measured
/// figures of rules version 1 (docs/categories.md) rounded down a little.
final class LabelledSetTests: XCTestCase {
    /// Floors of (precision, recall) per category for the hand-written set.
    static let handwrittenFloors: [AICategory: (Double, Double)] = [
        .primary: (0.90, 0.90), .social: (0.95, 0.95), .promotions: (0.90, 0.90), .updates: (0.90, 0.90), .forums: (0.90, 0.90),
    ]

    func testHandwrittenSetKeepsItsScores() throws {
        let set = try LabelledSet.handwritten()
        XCTAssertGreaterThanOrEqual(set.count, 175)
        let s = Scores(set)
        print("hand-written set:\n" + s.table + s.misses.joined(separator: "\n"))
        for (c, floor) in LabelledSetTests.handwrittenFloors {
            XCTAssertGreaterThanOrEqual(s.precision(c), floor.0, "precision of \(c)")
            XCTAssertGreaterThanOrEqual(s.recall(c), floor.1, "recall of \(c)")
        }
    }

    /// Mail written after the rules were frozen: the figures that say how the rules do on mail they were not
    /// tuned on (docs/categories.md).
    func testHeldOutSetKeepsItsScores() throws {
        let set = try LabelledSet.handwritten("heldout.txt")
        XCTAssertGreaterThanOrEqual(set.count, 40)
        let s = Scores(set)
        print("held-out set:\n" + s.table + s.misses.joined(separator: "\n"))
        XCTAssertGreaterThanOrEqual(Double(s.correct) / Double(s.total), 0.88)
    }

    func testSharedCorporaKeepTheirScores() throws {
        guard let set = try LabelledSet.shared() else { throw XCTSkip("../shared/corpora is not here") }
        XCTAssertEqual(set.count, 124)
        let s = Scores(set)
        print("shared corpora:\n" + s.table + s.misses.joined(separator: "\n"))
        XCTAssertGreaterThanOrEqual(s.recall(.forums), 0.95)
        XCTAssertGreaterThanOrEqual(s.precision(.forums), 0.95)
        XCTAssertGreaterThanOrEqual(s.recall(.primary), 0.90)
        XCTAssertGreaterThanOrEqual(Double(s.correct) / Double(s.total), 0.95)
    }

    func testBothSetsTogetherHaveAtLeast300Messages() throws {
        guard let shared = try LabelledSet.shared() else { throw XCTSkip("../shared/corpora is not here") }
        let all = shared + (try LabelledSet.handwritten()) + (try LabelledSet.handwritten("heldout.txt"))
        XCTAssertGreaterThanOrEqual(all.count, 300)
        print("all labelled:\n" + Scores(all).table)
    }
}
