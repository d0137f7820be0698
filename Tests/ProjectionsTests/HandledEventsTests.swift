import EventModel
import Projections
import XCTest

/// The engine hands a projector only the event types it declares (`Projector.handledEvents`). Every other
/// type must leave its tables as they are, wherever it comes in the log: checked here with one example of every
/// event type, folded alone into an empty view and in the middle of all the others.
final class HandledEventsTests: XCTestCase {
    /// Every table of `type`'s view after folding `events` one per batch, the one at `skipping` left out (its
    /// sequence number still taken, so the others keep theirs).
    private func tables(_ type: any Projector.Type, _ events: [DomainEvent], skipping: Int? = nil) throws -> [String: [([UInt8], [UInt8])]] {
        let harness = FoldHarness(types: [type])
        for (i, e) in events.enumerated() {
            let stored = harness.stored(e, account: "acc")
            guard i != skipping else { continue }
            for f in harness.folds {
                try f.projector.apply(stored, e)
                try f.projector.prepareFlush()
                try f.context.flush()
            }
        }
        var out: [String: [([UInt8], [UInt8])]] = [:]
        for name in harness.store.tableNames { out[name] = harness.store.entries(name) }
        return out
    }

    private func same(_ a: [String: [([UInt8], [UInt8])]], _ b: [String: [([UInt8], [UInt8])]]) -> Bool {
        a.keys.sorted() == b.keys.sorted() && a.allSatisfy { name, entries in
            let other = b[name]!
            return other.count == entries.count && zip(other, entries).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        }
    }

    func testAnEventTypeAProjectorDoesNotDeclareChangesNothingInItsView() throws {
        let examples = DomainEvent.examples
        var skippedSomewhere = 0
        for type in FoldHarness.types {
            let all = try tables(type, examples)
            var declared = 0
            for (i, e) in examples.enumerated() {
                guard !type.handledEvents.contains(e.type) else { declared += 1; continue }
                skippedSomewhere += 1
                XCTAssertTrue(try tables(type, [e]).isEmpty, "\(type.name) wrote \(e.type) into an empty view")
                XCTAssertTrue(same(try tables(type, examples, skipping: i), all), "\(type.name) changed with \(e.type) among the others")
            }
            XCTAssertGreaterThan(declared, 0, "\(type.name) declares none of the examples")
        }
        XCTAssertGreaterThan(skippedSomewhere, 0)
    }

    func testEveryTypeAnExampleOfWhichChangesAViewIsDeclaredByIt() throws {
        // The converse, where the examples show it: an undeclared type that changed a view would be skipped.
        let examples = DomainEvent.examples
        for type in FoldHarness.types {
            let all = try tables(type, examples)
            for (i, e) in examples.enumerated() {
                if !same(try tables(type, examples, skipping: i), all) {
                    XCTAssertTrue(type.handledEvents.contains(e.type), "\(type.name) folds \(e.type) but does not declare it")
                }
            }
        }
    }
}
