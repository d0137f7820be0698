import EventModel
import Projections
import XCTest

/// The fold context and the in-memory store: what every projector's tables rest on.
final class FoldContextTests: XCTestCase {
    func testEveryProjectorDeclaresItsTablesOnceAndNoTwoViewsShareATable() {
        var seen: [String: String] = [:]
        XCTAssertEqual(Set(FoldHarness.types.map { $0.name }), Set(ViewName.projected), "one projector per view name")
        for type in FoldHarness.types {
            let context = FoldContext(store: InMemoryKeyValueStore())
            _ = type.init(context: context)
            XCTAssertFalse(context.tableNames.isEmpty, "\(type.name) opens its tables")
            for t in context.tableNames {
                XCTAssertTrue(t.hasPrefix(type.name.rawValue + "."), "\(t) is named after its view")
                XCTAssertNil(seen[t], "\(t) is opened by \(seen[t] ?? "") and \(type.name)")
                seen[t] = type.name.rawValue
            }
        }
    }

    func testDiscardDropsEveryTablesChangesAndFlushWritesThemAll() throws {
        let store = InMemoryKeyValueStore()
        let context = FoldContext(store: store)
        let a = context.table(Table<String>(.threads, "a")), b = context.table(Table<Int>(.threads, "b"))
        a.set(Key("k").bytes, "v")
        b.set(Key("k").bytes, 1)
        context.discard()
        try context.flush()
        XCTAssertTrue(store.tableNames.isEmpty, "nothing written after a discard")
        a.set(Key("k").bytes, "v")
        b.set(Key("k").bytes, 2)
        try context.flush()
        XCTAssertEqual(store.tableNames, ["threads.a", "threads.b"])
        XCTAssertEqual(try Snapshot(store).get(Table<Int>(.threads, "b"), Key("k").bytes), 2)
    }

    func testTheInMemoryStoreScansInKeyOrderAndRefusesKeysLMDBWouldRefuse() throws {
        let store = InMemoryKeyValueStore()
        for k in ["b", "a", "ab", "c"] { try store.put("t", Key(k).bytes, Array(k.utf8)) }
        var seen: [String] = []
        try store.scan("t", from: Key("ab").bytes) { _, v in
            seen.append(String(decoding: v, as: UTF8.self))
            return seen.count < 2
        }
        XCTAssertEqual(seen, ["ab", "b"])
        XCTAssertThrowsError(try store.put("t", [UInt8](repeating: 1, count: 512), [1]))
        XCTAssertThrowsError(try store.put("t", [], [1]))
    }

    func testIncrementalFoldsInAnyBatchSizesEqualOneBatch() throws {
        let events = DomainEvent.examples
        let whole = FoldHarness(), pieces = FoldHarness()
        try whole.fold(events, account: "a")
        for e in events { try pieces.fold([e], account: "a") }
        for t in whole.store.tableNames {
            XCTAssertEqual(whole.store.entries(t).map(\.0), pieces.store.entries(t).map(\.0), t)
            XCTAssertEqual(whole.store.entries(t).map(\.1), pieces.store.entries(t).map(\.1), t)
        }
        XCTAssertEqual(whole.store.tableNames, pieces.store.tableNames)
    }
}

/// Contact tokens: the ASCII byte path gives the same words as the Unicode path.
final class ContactTokenTests: XCTestCase {
    func testASCIINamesGiveTheSameTokensAsTheUnicodePath() {
        for name in ["Alice B. Carol-Dee", "  x  ", "O'Brien, Pat 2nd", "A1b2 C3", String(repeating: "w ", count: 40)] {
            let unicode = Set(["x@y.z"] + name.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber })
                .prefix(ContactsProjector.maxNameWords).map(String.init))
            XCTAssertEqual(ContactsProjector.tokens(name: name, address: "X@y.z"), unicode, name)
        }
        XCTAssertEqual(ContactsProjector.tokens(name: "Zoë Ünïcode", address: "z@e.x"), ["z@e.x", "zoë", "ünïcode"])
    }
}
