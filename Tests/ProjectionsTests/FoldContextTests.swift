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

    /// The room the emptied caches keep is counted after a flush and after a discard, by the tables that had
    /// entries (as their dictionaries hold it), stays counted through batches that leave a table alone, and is gone
    /// once freed; an untouched table counts none.
    func testTheCachesRoomIsCountedAfterFlushAndDiscardUntilFreed() throws {
        let context = FoldContext(store: InMemoryKeyValueStore())
        let a = context.table(Table<Int>(.threads, "a")), b = context.table(Table<Int>(.threads, "b"))
        XCTAssertEqual(context.cacheBytes, 0)
        for i in 0..<100 { a.set(Key("k\(i)").bytes, i) }
        try context.flush()
        let room = context.cacheBytes
        XCTAssertGreaterThan(room, 100 * MemoryLayout<TableKey>.stride, "a's room for 100 entries")
        XCTAssertEqual(b.cacheBytes, 0)
        b.set(Key("x").bytes, 1)
        context.discard()
        XCTAssertGreaterThan(b.cacheBytes, 0, "b's room, kept after the discard")
        XCTAssertEqual(context.cacheBytes, room + b.cacheBytes)
        try context.flush()
        XCTAssertEqual(context.cacheBytes, room + b.cacheBytes, "a batch that leaves both alone keeps their room")
        var budget = room
        context.trimCaches(budget: &budget)
        XCTAssertEqual(context.cacheBytes, room, "b's room freed past the budget")
        a.freeCache()
        XCTAssertEqual(context.cacheBytes, 0)
        // Entries set after a free are written.
        a.set(Key("k1").bytes, 5)
        try context.flush()
        XCTAssertGreaterThan(a.cacheBytes, 0)
    }

    /// The table the write tests below fold into.
    static let counts = Table<Int>(.threads, "n")

    /// Deleting an entry the batch read as absent writes nothing; a delete of an entry not read, of one read
    /// present, or of one set earlier in the batch is written, and the last change of the batch wins.
    func testDeletingAnEntryReadAsAbsentWritesNothing() throws {
        let store = CountingStore()
        let context = FoldContext(store: store)
        let t = context.table(Self.counts), table = Self.counts
        let present = Key("present").bytes, absent = Key("absent").bytes, unread = Key("unread").bytes
        let setThenDeleted = Key("set-then-deleted").bytes, deletedThenSet = Key("deleted-then-set").bytes
        t.set(present, 1)
        try context.flush()
        store.reset()
        XCTAssertEqual(try t.get(present), 1)
        XCTAssertNil(try t.get(absent))
        XCTAssertNil(try t.get(setThenDeleted))
        XCTAssertNil(try t.get(deletedThenSet))
        t.set(present, nil)
        t.set(absent, nil)
        t.set(unread, nil)
        t.set(setThenDeleted, 5)
        t.set(setThenDeleted, nil)
        t.set(deletedThenSet, nil)
        t.set(deletedThenSet, 6)
        try context.flush()
        XCTAssertEqual(store.deletes["threads.n"], 3, "present, unread and set-then-deleted: not absent")
        XCTAssertEqual(store.puts["threads.n"], 1, "deleted-then-set")
        XCTAssertNil(try Snapshot(store.inner).get(table, present))
        XCTAssertNil(try Snapshot(store.inner).get(table, setThenDeleted))
        XCTAssertEqual(try Snapshot(store.inner).get(table, deletedThenSet), 6)
        // Read absent through modifyIfChanged (left alone), then deleted: nothing written either.
        store.reset()
        try t.modifyIfChanged(absent) { _ in false }
        t.set(absent, nil)
        try context.flush()
        XCTAssertEqual(store.writes, 0)
    }

    /// `modifyIfChanged` writes an entry only when its body says it changed it: an entry left alone is not
    /// written back over the store (a change from elsewhere survives the flush), a changed one is.
    func testModifyIfChangedWritesOnlyWhatItsBodyChanged() throws {
        let store = InMemoryKeyValueStore()
        let context = FoldContext(store: store)
        let t = context.table(Self.counts), table = Self.counts
        let kept = Key("kept").bytes, changed = Key("changed").bytes, absent = Key("absent").bytes
        t.set(kept, 1)
        t.set(changed, 1)
        try context.flush()
        var seen: [Int?] = []
        try t.modifyIfChanged(kept) { v in seen.append(v); return false }
        try t.modifyIfChanged(changed) { v in seen.append(v); v = (v ?? 0) + 1; return true }
        try t.modifyIfChanged(absent) { v in seen.append(v); return false }
        XCTAssertEqual(seen, [1, 1, nil], "the body gets the stored value")
        // Written behind the table's back: a flush that rewrote the kept entry would put 1 over it.
        var w = ByteWriter(capacity: 8)
        Int(7).write(to: &w)
        try store.put("threads.n", kept, w.bytes)
        try context.flush()
        XCTAssertEqual(try Snapshot(store).get(table, kept), 7, "an entry its body left alone is not written")
        XCTAssertEqual(try Snapshot(store).get(table, changed), 2)
        XCTAssertNil(try Snapshot(store).get(table, absent))
        // A later change in the same batch still writes an entry first left alone.
        try t.modifyIfChanged(kept) { _ in false }
        try t.modifyIfChanged(kept) { v in v = 9; return true }
        try context.flush()
        XCTAssertEqual(try Snapshot(store).get(table, kept), 9)
    }

    /// The best-contacts list keys of a contact's tokens: one per distinct prefix of 1 to 7 characters, the
    /// same bytes as `Key(account, prefix)`, by the byte path (ASCII) and by characters (the rest).
    func testShortPrefixKeysAreEachPrefixOfOneToSevenCharactersOnce() {
        let tokens: Set<String> = ["jo", "john", "john.smith@example.com", "zoë", "zo", "éa", "x\u{0}yz", "été-au-lac", "a\r\nbcdefg", "a\r\n", "ab€"]
        var expected = Set<[UInt8]>()
        for t in tokens {
            for n in 1...min(ContactsProjector.topPrefixLength, t.count) { expected.insert(Key("acct", String(t.prefix(n))).bytes) }
        }
        let keys = ContactsProjector.shortPrefixKeys(account: "acct", tokens: tokens)
        XCTAssertEqual(Set(keys), expected)
        XCTAssertEqual(keys.count, expected.count, "each list once")
        XCTAssertTrue(keys.contains(Key("acct", "john.sm").bytes) && !keys.contains(Key("acct", "john.smi").bytes))
        XCTAssertTrue(keys.contains(Key("acct", "x\u{0}y").bytes), "a 0 byte is written as Key writes it")
        XCTAssertTrue(keys.contains(Key("acct", "a\r\nbcdef").bytes) && !keys.contains(Key("acct", "a\r").bytes), "CR LF is one character")
        XCTAssertTrue(ContactsProjector.shortPrefixKeys(account: "acct", tokens: []).isEmpty)
        XCTAssertTrue(ContactsProjector.shortPrefixKeys(account: "acct", tokens: [""]).isEmpty)
    }

    /// Hostile sizes: a 100 KB address and a name of many long words give at most 7 list keys per token, each
    /// the account's key and at most 7 characters, whatever the account's length.
    func testShortPrefixKeysStayBoundedForHugeTokensAndAccounts() {
        let account = String(repeating: "a", count: 5_000)
        let address = String(repeating: "x", count: 100_000) + "@example.com"
        let tokens = ContactsProjector.tokens(name: Array(repeating: String(repeating: "wörd", count: 1_000), count: 40).enumerated()
            .map { "\($0.offset)\($0.element)" }.joined(separator: " "), address: address)
        XCTAssertLessThanOrEqual(tokens.count, 2 * ContactsProjector.maxNameWords + 1, "each word with and without diacritics")
        XCTAssertGreaterThan(tokens.count, ContactsProjector.maxNameWords + 1)
        let keys = ContactsProjector.shortPrefixKeys(account: account, tokens: tokens)
        XCTAssertLessThanOrEqual(keys.count, tokens.count * ContactsProjector.topPrefixLength)
        let base = Key(account).bytes.count
        XCTAssertLessThanOrEqual(base, Key.maxPartBytes + 1)
        for k in keys { XCTAssertLessThanOrEqual(k.count, base + ContactsProjector.topPrefixLength * 4 + 1) }
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
        XCTAssertEqual(ContactsProjector.tokens(name: "Zoë Ünïcode", address: "z@e.x"), ["z@e.x", "zoë", "ünïcode", "zoe", "unicode"],
                       "words with diacritics also without them")
    }
}
