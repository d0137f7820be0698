import CorpusGenerator
import EventModel
import Projections
import XCTest

/// The best-contacts lists of short prefixes give the same completions as a scan of the whole prefix index,
/// names changing under them included.
final class ContactTopTests: XCTestCase {
    func testOfferKeepsTheBestInRankOrder() {
        var top = ContactTop()
        func rank(_ count: UInt64) -> ContactRank { ContactRank(sent: 0, count: count, lastSeen: Timestamp(microseconds: 0)) }
        // The contacts' ranks now, as the fold reads them when a list fills.
        var now: [String: ContactRank] = [:]
        func offer(_ address: String, _ count: UInt64) -> Bool {
            now[address] = rank(count)
            return top.offer(address: address, rank: rank(count), capacity: 3) { now[$0]! }
        }
        // Not full: every address offered, in address order, unranked; a listed contact's new rank changes nothing.
        XCTAssertTrue(offer("a1", 5))
        XCTAssertTrue(offer("a0", 1))
        XCTAssertEqual(top.entries.map(\.address), ["a0", "a1"])
        XCTAssertEqual(top.entries.map(\.rank), [ContactTop.unranked, ContactTop.unranked])
        XCTAssertFalse(offer("a0", 9), "a listed address at a new rank, the list not full: unchanged")
        // The offer that fills the list ranks every entry with its contact's rank now (a0's 9, not the 1 it joined at).
        XCTAssertTrue(offer("a2", 3))
        XCTAssertEqual(top.entries.map(\.address), ["a0", "a1", "a2"])
        XCTAssertEqual(top.entries.map(\.rank), [rank(9), rank(5), rank(3)])
        XCTAssertFalse(offer("a3", 1), "below a full list: not taken")
        XCTAssertTrue(offer("a4", 7))
        XCTAssertEqual(top.entries.map(\.address), ["a0", "a4", "a1"])
        XCTAssertTrue(offer("a1", 20), "a better rank moves it up")
        XCTAssertEqual(top.entries.map(\.address), ["a1", "a0", "a4"])
        // At the last entry's rank a full list takes an address that sorts before the last one's, not one after it.
        XCTAssertFalse(offer("a5", 7), "a tie, after the last address: not taken")
        XCTAssertTrue(offer("a3", 7), "a tie, before the last address: taken")
        XCTAssertEqual(top.entries.map(\.address), ["a1", "a0", "a3"])
        // A listed address offered again at a better rank, the list full: moved, nothing dropped.
        XCTAssertTrue(offer("a3", 30))
        XCTAssertEqual(top.entries.map(\.address), ["a3", "a1", "a0"])
    }

    /// An entry whose contact lost the list's token is frozen at the rank it had (the list not full), keeps it when the
    /// list fills (where the others take their contacts' ranks then), and is unfrozen when its contact is offered again.
    func testAFrozenEntryKeepsItsRankWhenTheListFills() {
        func rank(_ count: UInt64) -> ContactRank { ContactRank(sent: 0, count: count, lastSeen: Timestamp(microseconds: 0)) }
        let now: [String: ContactRank] = ["a": rank(1), "b": rank(2), "c": rank(3)]
        var top = ContactTop()
        XCTAssertTrue(top.offer(address: "a", rank: rank(1), capacity: 3) { now[$0]! })
        XCTAssertTrue(top.offer(address: "b", rank: rank(2), capacity: 3) { now[$0]! })
        XCTAssertTrue(top.freeze(address: "a", rank: rank(9), capacity: 3))
        XCTAssertFalse(top.freeze(address: "a", rank: rank(10), capacity: 3), "frozen already")
        XCTAssertFalse(top.freeze(address: "z", rank: rank(10), capacity: 3), "not listed")
        XCTAssertEqual(top.entries.map(\.rank), [rank(9), ContactTop.unranked])
        // Offered again (its contact has the token again): unfrozen.
        var again = top
        XCTAssertTrue(again.offer(address: "a", rank: rank(4), capacity: 3) { now[$0]! })
        XCTAssertEqual(again.entries.map(\.rank), [ContactTop.unranked, ContactTop.unranked])
        XCTAssertFalse(again.offer(address: "a", rank: rank(5), capacity: 3) { now[$0]! })
        // Filled: `a` ranks at its frozen 9 (not its contact's 1 now), `b` and `c` at theirs now.
        XCTAssertTrue(top.offer(address: "c", rank: rank(3), capacity: 3) { now[$0]! })
        XCTAssertEqual(top.entries.map(\.address), ["a", "c", "b"])
        XCTAssertEqual(top.entries.map(\.rank), [rank(9), rank(3), rank(2)])
        XCTAssertFalse(top.freeze(address: "b", rank: rank(20), capacity: 3), "a full list keeps a stale entry's rank as it is")
    }

    /// A stored list as a damaged or hostile view file may hold it (out of address order, an address twice, more entries
    /// than a list keeps) is offered to, frozen in and ranked for reading without a trap, and stays bounded.
    func testADamagedListIsOfferedToAndReadWithoutATrap() throws {
        func rank(_ count: UInt64) -> ContactRank { ContactRank(sent: 0, count: count, lastSeen: Timestamp(microseconds: 0)) }
        var w = ByteWriter(capacity: 64)
        w.writeVarint(4)
        for a in ["z", "a", "a", "m"] {
            w.write(a)
            ContactTop.unranked.write(to: &w)
        }
        let bytes = w.bytes
        let damaged = try bytes.withUnsafeBytes { buf in
            var r = ByteReader(buf)
            return try ContactTop(from: &r)
        }
        var notFull = damaged
        XCTAssertTrue(notFull.offer(address: "b", rank: rank(2), capacity: 16) { _ in rank(1) })
        XCTAssertFalse(notFull.offer(address: "z", rank: rank(2), capacity: 16) { _ in rank(1) })
        _ = notFull.freeze(address: "a", rank: rank(3), capacity: 16)
        XCTAssertLessThanOrEqual(notFull.entries.count, 5)
        // Filled by an offer, and past the capacity already: kept at most as long as it was, ranked.
        var filling = damaged
        XCTAssertTrue(filling.offer(address: "c", rank: rank(2), capacity: 5) { _ in rank(1) })
        XCTAssertEqual(filling.entries.count, 5)
        XCTAssertFalse(filling.entries.contains { $0.rank == ContactTop.unranked })
        var over = damaged
        _ = over.offer(address: "d", rank: rank(9), capacity: 2) { _ in rank(1) }
        XCTAssertLessThanOrEqual(over.entries.count, 4)
        XCTAssertFalse(over.freeze(address: "m", rank: rank(3), capacity: 2), "a full list is not frozen in")
        // Read: ranked by the contacts there are (none here: each unranked), every entry kept.
        let harness = FoldHarness(types: [ContactsProjector.self])
        let read = try ContactsReader(harness.snapshot).rankedEntries(damaged, account: "acc")
        XCTAssertEqual(read.count, 4)
        XCTAssertTrue(try ContactsReader(harness.snapshot).complete(account: "acc", prefix: "a", limit: 10).isEmpty)
    }

    /// A list that is not full is written when a contact joins it, not when a listed contact's rank changes (schema
    /// 16): folded again with more mail from its contacts, its stored bytes stay as they were, and a completion still
    /// ranks them by their contacts as they are now.
    func testAListNotFullIsNotRewrittenWhenItsContactsRanksChange() throws {
        let harness = FoldHarness(types: [ContactsProjector.self])
        let key = Key("acc", "an").bytes
        try harness.fold([received(0, from: EmailAddress(name: nil, email: "ann@x.org"), at: 10),
                          received(1, from: EmailAddress(name: nil, email: "andy@x.org"), at: 5)], account: "acc")
        let before = try XCTUnwrap(try harness.snapshot.get(ContactsProjector.topTable, key))
        XCTAssertEqual(before.entries.map(\.address), ["andy@x.org", "ann@x.org"])
        XCTAssertEqual(try ContactsReader(harness.snapshot).complete(account: "acc", prefix: "an", limit: 10).map(\.address),
                       ["ann@x.org", "andy@x.org"], "as recent, as many: the later first")
        // andy writes twice more: his rank passes ann's; the list is as it was, the completion follows the ranks.
        try harness.fold([received(2, from: EmailAddress(name: nil, email: "andy@x.org"), at: 6),
                          received(3, from: EmailAddress(name: nil, email: "andy@x.org"), at: 7)], account: "acc")
        XCTAssertEqual(try harness.snapshot.get(ContactsProjector.topTable, key), before)
        XCTAssertEqual(try ContactsReader(harness.snapshot).complete(account: "acc", prefix: "an", limit: 10).map(\.address),
                       ["andy@x.org", "ann@x.org"])
        XCTAssertEqual(try ContactsReader(harness.snapshot).complete(account: "acc", prefix: "an", limit: 1).map(\.address),
                       ["andy@x.org"])
    }

    /// An address and its decomposed twin are two contacts (two people keys): the list keeps both, and orders ties
    /// by address bytes, as the index scan does. `String`'s canonical equality took the twin for the same entry and
    /// replaced it.
    func testCanonicallyEqualAddressesAreTwoEntriesInByteOrder() throws {
        let composed = "zo\u{EB}@x.org", decomposed = "zoe\u{308}@x.org"
        XCTAssertEqual(composed, decomposed, "canonically equivalent")
        XCTAssertNotEqual(Array(composed.utf8), Array(decomposed.utf8))
        var top = ContactTop()
        let rank = ContactRank(sent: 0, count: 3, lastSeen: Timestamp(microseconds: 5))
        XCTAssertTrue(top.offer(address: composed, rank: rank, capacity: 4) { _ in rank })
        XCTAssertTrue(top.offer(address: decomposed, rank: rank, capacity: 4) { _ in rank }, "a second contact, not the first again")
        XCTAssertEqual(top.entries.map { Array($0.address.utf8) }, [Array(decomposed.utf8), Array(composed.utf8)],
                       "equal ranks by address bytes: 'e' (0x65) before 0xC3")
        XCTAssertFalse(top.offer(address: composed, rank: rank, capacity: 4) { _ in rank }, "the same bytes again: unchanged")
        XCTAssertEqual(top.entries.count, 2)

        // Folded: the list (1 to 6 characters) and the scan (7 or more) complete to the same two contacts in the same order.
        let harness = FoldHarness(types: [ContactsProjector.self])
        let blob = BlobHash(bytes: [UInt8](repeating: 1, count: 32))!
        let events = [composed, decomposed].enumerated().map { i, a in
            DomainEvent.emailReceived(EmailReceived(emailID: "e\(i)", folder: "INBOX", messageID: "m\(i)@t", subject: "s",
                from: [EmailAddress(name: nil, email: a)], to: [], date: Timestamp(microseconds: 7), dateSource: .header,
                size: 1, blob: blob))
        }
        try harness.fold(events, account: "acc")
        let reader = ContactsReader(harness.snapshot)
        let listed = try reader.complete(account: "acc", prefix: "zo", limit: 10).map { Array($0.address.utf8) }
        let scanned = try reader.scanComplete(account: "acc", needle: Array("zo".utf8), limit: 10).map { Array($0.address.utf8) }
        XCTAssertEqual(listed, [Array(decomposed.utf8), Array(composed.utf8)])
        XCTAssertEqual(listed, scanned)
    }

    func testAStoredListClaimingTooManyEntriesIsRefusedNotAllocated() {
        var w = ByteWriter(capacity: 16)
        w.writeVarint(1 << 40)
        let bytes = w.bytes
        XCTAssertThrowsError(try bytes.withUnsafeBytes { buf in
            var r = ByteReader(buf)
            return try ContactTop(from: &r)
        })
    }

    func testShortPrefixCompletionsEqualTheScan() throws {
        let harness = FoldHarness(types: [ContactsProjector.self])
        var rng = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0..<1_000_000, using: &rng)
        var gen = SplitMix64(seed: seed)
        let words = ["ann", "anna", "andrew", "bob", "bobby", "bea", "zoe", "zed", "zebulon", "élodie", "émile", "an", "b"]
        var events: [DomainEvent] = []
        for i in 0..<3_000 {
            // Few addresses, many names each: names change often, so lists hold stale entries.
            let n = Int.random(in: 0..<400, using: &gen)
            let name = "\(words[Int.random(in: 0..<words.count, using: &gen)]) \(words[Int.random(in: 0..<words.count, using: &gen)])"
            let from = EmailAddress(name: Int.random(in: 0..<5, using: &gen) == 0 ? nil : name, email: "p\(n)@x\(n % 7).org")
            events.append(received(i, from: from, at: Int64(Int.random(in: 0..<1_000_000, using: &gen))))
        }
        try fold(events, into: harness, batch: 500)
        let reader = ContactsReader(harness.snapshot)
        var prefixes = Set<String>()
        for w in words + ["p1", "p12", "x", "me", "ho", "é", "él"] { for n in 1...min(ContactsProjector.topPrefixLength + 1, w.count) { prefixes.insert(String(w.prefix(n))) } }
        for p in prefixes.sorted() {
            for limit in [1, 10, 16] {
                let fast = try reader.complete(account: "acc", prefix: p, limit: limit).map(\.address)
                let scan = try reader.scanComplete(account: "acc", needle: Array(p.utf8), limit: limit).map(\.address)
                XCTAssertEqual(fast, scan, "prefix \(p) limit \(limit) seed \(seed)")
            }
        }
        XCTAssertFalse(try reader.complete(account: "acc", prefix: "a").isEmpty)
    }

    /// A scan over long prefixes with the name words' lists (schema 10) against the scan of every entry: the same
    /// contacts in the same order, with lists full and not, stale entries (names change often) and limits above and
    /// below a list's size.
    func testWordListsAnswerAsTheFullScan() throws {
        let harness = FoldHarness(types: [ContactsProjector.self])
        var rng = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0..<1_000_000, using: &rng)
        var gen = SplitMix64(seed: seed)
        let words = ["bartholomew", "bartholomeus", "alexandria", "alexandra", "alexander", "zebulonian", "émilienne",
                     "christopher", "christophe", "ann", "bob", "rarelyused"]
        var events: [DomainEvent] = []
        for i in 0..<4_000 {
            // Few addresses, many names each: names change often, so lists hold stale entries.
            let n = Int.random(in: 0..<500, using: &gen)
            let first = words[Int.random(in: 0..<(words.count - 1), using: &gen)]
            let second = Int.random(in: 0..<50, using: &gen) == 0 ? "rarelyused" : words[Int.random(in: 0..<words.count, using: &gen)]
            let from = EmailAddress(name: Int.random(in: 0..<6, using: &gen) == 0 ? nil : "\(first) \(second)", email: "q\(n)@x\(n % 5).org")
            events.append(received(i, from: from, at: Int64(Int.random(in: 0..<1_000, using: &gen))))
        }
        try fold(events, into: harness, batch: 400)
        let reader = ContactsReader(harness.snapshot)
        var prefixes = Set<String>()
        for w in words { for n in (ContactsProjector.topPrefixLength + 1)...max(ContactsProjector.topPrefixLength + 1, w.count) { prefixes.insert(String(w.prefix(n))) } }
        prefixes.formUnion(["bartholomewx", "q1", "q12@x"])
        var answeredByLists = 0
        for p in prefixes.sorted() {
            for limit in [1, 10, 16, 40] {
                let aided = try reader.scanComplete(account: "acc", needle: Array(p.utf8), limit: limit).map(\.address)
                let plain = try reader.scanComplete(account: "acc", needle: Array(p.utf8), limit: limit, wordLists: false).map(\.address)
                XCTAssertEqual(aided, plain, "prefix \(p) limit \(limit) seed \(seed)")
                XCTAssertEqual(try reader.complete(account: "acc", prefix: p, limit: limit).map(\.address), plain)
                if !plain.isEmpty { answeredByLists += 1 }
            }
        }
        XCTAssertGreaterThan(answeredByLists, 40)
        // The lists exist for the long words and are bounded.
        let list = try XCTUnwrap(try harness.snapshot.get(ContactsProjector.wordsTable, Key("acc", "bartholomew").bytes))
        XCTAssertEqual(list.entries.count, ContactsProjector.topSize)
        XCTAssertNil(try harness.snapshot.get(ContactsProjector.wordsTable, Key("acc", "ann").bytes), "a short word has prefix lists only")
    }

    /// A prefix longer than `topPrefixLength` read from its first characters' list where that answers: many
    /// addresses sharing a long beginning (`noreply-…`) are one lookup; where few of a full list's contacts match
    /// (`noreply-42…`: 11 of 500), the index is scanned. Every answer equals the full scan's.
    func testALongPrefixReadsItsFirstCharactersListWhereThatAnswers() throws {
        let harness = FoldHarness(types: [ContactsProjector.self])
        var rng = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0..<1_000_000, using: &rng)
        var gen = SplitMix64(seed: seed)
        var events: [DomainEvent] = []
        for i in 0..<3_000 {
            let n = Int.random(in: 0..<600, using: &gen)
            // `noreplz…` share `norepl` with the others but not `noreply`: their own 7-character list.
            let address = n < 500 ? "noreply-\(n)@x\(n % 9).org" : "noreplz\(n)@y.org"
            let name = Int.random(in: 0..<4, using: &gen) == 0 ? "Robot \(n % 3)" : nil
            events.append(received(i, from: EmailAddress(name: name, email: address), at: Int64(Int.random(in: 0..<1_000_000, using: &gen))))
        }
        try fold(events, into: harness, batch: 500)
        let reader = ContactsReader(harness.snapshot)
        for limit in [1, 10, 16] {
            let viaList = try XCTUnwrap(try reader.fromTopList(account: "acc", prefix: "noreply-", limit: limit),
                                        "limit \(limit) seed \(seed): the `norepl` list's contacts nearly all start `noreply-`")
            let plain = try reader.scanComplete(account: "acc", needle: Array("noreply-".utf8), limit: limit, wordLists: false)
            XCTAssertEqual(viaList.map(\.address), plain.map(\.address), "limit \(limit) seed \(seed)")
            XCTAssertEqual(try reader.complete(account: "acc", prefix: "NoReply-", limit: limit).map(\.address), plain.map(\.address))
        }
        // A full `noreply` list with few contacts starting `noreply-42` (11 of 500): answered by the address lists of
        // `noreply-` (full), `noreply-4` (full) and `noreply-42` (not full: every address it starts).
        let viaDeep = try XCTUnwrap(try reader.fromTopList(account: "acc", prefix: "noreply-42", limit: 10), "seed \(seed)")
        XCTAssertEqual(viaDeep.map(\.address), try reader.scanComplete(account: "acc", needle: Array("noreply-42".utf8), limit: 10, wordLists: false).map(\.address))
        XCTAssertEqual(try harness.snapshot.get(ContactsProjector.deepTable, Key("acc", "noreply-").bytes)?.entries.count, ContactsProjector.topSize)
        // Every address starting `noreply-42` that the mail has (up to 11: most of `noreply-42` and `-420` to `-429`).
        let starting42 = Set(events.compactMap { e -> String? in
            guard case .emailReceived(let p) = e, let a = p.from.first?.email, a.hasPrefix("noreply-42") else { return nil }
            return a
        })
        XCTAssertEqual(try harness.snapshot.get(ContactsProjector.deepTable, Key("acc", "noreply-42").bytes)?.entries.count,
                       starting42.count, "seed \(seed)")
        XCTAssertNil(try harness.snapshot.get(ContactsProjector.deepTable, Key("acc", "noreply-420").bytes), "under a list that is not full")
        var prefixes = ["noreply-1", "noreply-42", "noreply-4", "noreplz5", "noreplz", "noreply-499@x4", "noreply-0@x0.org", "noreplyx"]
        prefixes += (0..<20).map { _ in "noreply-\(Int.random(in: 0..<500, using: &gen))" }
        for p in prefixes {
            for limit in [1, 10, 16, 40] {
                let plain = try reader.scanComplete(account: "acc", needle: Array(p.utf8), limit: limit, wordLists: false).map(\.address)
                XCTAssertEqual(try reader.complete(account: "acc", prefix: p, limit: limit).map(\.address), plain,
                               "prefix \(p) limit \(limit) seed \(seed)")
            }
        }
    }

    /// The address lists (`deep`, schema 12) against the scan of every entry: many addresses sharing long beginnings
    /// (`noreply-N`, `christopher.N`), name words starting the same letters (`christophersen`, whose lists the answer
    /// merges), names that change (stale word-list entries), limits above and below a list's size. Every long prefix
    /// whose first 7 characters' list does not answer is answered from lists (no scan) where its beginning is shared
    /// by addresses, and the tables are the same folded in batches of 1, 37 and 5,000 events.
    func testLongAddressPrefixesAreAnsweredByTheirListsAsTheScanAnswers() throws {
        var rng = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0..<1_000_000, using: &rng)
        var gen = SplitMix64(seed: seed)
        let names = ["Christophersen Lee", "Christopherina Ray", "Chris Topher", "Noreply Team", "Noreplyteambot X", nil]
        var events: [DomainEvent] = []
        for i in 0..<5_000 {
            let n = Int.random(in: 0..<1_200, using: &gen)
            let address: String
            switch n % 4 {
            case 0: address = "noreply-\(n / 4)@x\(n % 9).org"
            case 1: address = "christopher.\(n / 4)@y.org"
            case 2: address = "christopher\(n / 4)@z\(n % 3).org"
            default: address = "Nore\(n)@w.org"
            }
            let name = names[Int.random(in: 0..<names.count, using: &gen)]
            events.append(received(i, from: EmailAddress(name: name, email: address), at: Int64(Int.random(in: 0..<1_000_000, using: &gen))))
        }
        var stores: [InMemoryKeyValueStore] = []
        for batch in [5_000, 37, 1] {
            let harness = FoldHarness(types: [ContactsProjector.self])
            try fold(events, into: harness, batch: batch)
            stores.append(harness.store)
        }
        for store in stores.dropFirst() {
            XCTAssertEqual(store.tableNames, stores[0].tableNames)
            for table in stores[0].tableNames {
                XCTAssertTrue(store.entries(table).elementsEqual(stores[0].entries(table), by: { $0.0 == $1.0 && $0.1 == $1.1 }),
                              "table \(table) seed \(seed)")
            }
        }
        let reader = ContactsReader(Snapshot(stores[0]))
        var prefixes = Set(["noreply-", "noreply-1", "noreply-12", "noreply-123", "noreply-1@", "noreply-99@x", "christop", "christoph",
                            "christopher", "christopher.", "christopher.1", "christopher1", "christophers", "christopherina",
                            "noreplyt", "noreplyteam", "nore1", "nore11", "nore111", "christopher.299@y.org", "christopher.299@y.orgx",
                            "noreply-1" + String(repeating: "9", count: 45)])
        for _ in 0..<60 {
            let full = ["noreply-", "christopher.", "christopher"][Int.random(in: 0..<3, using: &gen)] + "\(Int.random(in: 0..<300, using: &gen))"
            prefixes.insert(String(full.prefix(Int.random(in: 8..<16, using: &gen))))
        }
        var fromLists = 0
        for p in prefixes.sorted() {
            for limit in [1, 10, 16, 40] {
                let plain = try reader.scanComplete(account: "acc", needle: Array(p.utf8), limit: limit, wordLists: false).map(\.address)
                XCTAssertEqual(try reader.complete(account: "acc", prefix: p, limit: limit).map(\.address), plain, "prefix \(p) limit \(limit) seed \(seed)")
                if limit <= ContactsProjector.topSize, let listed = try reader.fromDeepLists(account: "acc", prefix: p, limit: limit) {
                    XCTAssertEqual(listed.map(\.address), plain, "prefix \(p) limit \(limit) seed \(seed)")
                    fromLists += 1
                }
            }
        }
        // `noreply-12` (the list of `noreply` full of others) and `christopher.1` are answered by lists.
        for p in ["noreply-12", "christopher.1", "christopher1"] {
            XCTAssertNotNil(try reader.fromDeepLists(account: "acc", prefix: p, limit: 10), "prefix \(p) seed \(seed)")
        }
        XCTAssertGreaterThan(fromLists, 60, "seed \(seed)")
        // No list for a prefix whose shorter one is not full, none past `deepPrefixLength`.
        XCTAssertNil(try Snapshot(stores[0]).get(ContactsProjector.deepTable, Key("acc", "nore1234").bytes))
        for (key, _) in stores[0].entries(ContactsProjector.deepTable.name) {
            XCTAssertLessThanOrEqual(key.count, Key("acc").bytes.count + ContactsProjector.deepPrefixLength + 1)
        }
    }

    /// The index pass (read in place, the best kept as it goes) against ranking every contact by hand: the same
    /// contacts in the same order, each once although its address and a name word both match.
    func testAScanCompletionEqualsRankingEveryContact() throws {
        let harness = FoldHarness(types: [ContactsProjector.self])
        var gen = SplitMix64(seed: 12)
        let words = ["ann", "anna", "andrew", "bob", "bobby", "zoe", "zebulon", "émile", "annabellina", "annabelle"]
        var events: [DomainEvent] = []
        for i in 0..<2_000 {
            let n = Int.random(in: 0..<300, using: &gen)
            let name = "\(words[Int.random(in: 0..<words.count, using: &gen)]) \(words[Int.random(in: 0..<words.count, using: &gen)])"
            // Few distinct dates and counts: many ties, broken by address.
            let from = EmailAddress(name: name, email: "Ann\(n)@x\(n % 7).org")
            events.append(.emailReceived(EmailReceived(emailID: "e\(i)", folder: "INBOX", messageID: "m\(i)@t", subject: "s",
                from: [from], to: [EmailAddress(name: nil, email: "me@home.org")],
                date: Timestamp(microseconds: Int64(Int.random(in: 0..<3, using: &gen))), dateSource: .header,
                size: 1, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!)))
        }
        try harness.fold(events, account: "acc")
        let reader = ContactsReader(harness.snapshot)
        let everyone = try reader.all(account: "acc")
        XCTAssertGreaterThan(everyone.count, 200)
        for prefix in ["ann", "ann1", "ann12", "anna", "bob", "ann12@x", "émi", "me@", "zz", "annabell", "annabelli", "annabelle"] {
            let expected = everyone
                .filter { c in ContactsProjector.tokens(name: c.name, address: c.address).contains { $0.hasPrefix(prefix) } }
                .sorted { a, b in
                    let (ra, rb) = (ContactRank(a), ContactRank(b))
                    if ra != rb { return ra < rb }
                    return Array(a.address.lowercased().utf8).lexicographicallyPrecedes(Array(b.address.lowercased().utf8))
                }
                .prefix(10).map(\.address)
            let scanned = try reader.scanComplete(account: "acc", needle: Array(prefix.utf8), limit: 10).map(\.address)
            XCTAssertEqual(scanned, Array(expected), "prefix \(prefix)")
            if prefix != "zz" { XCTAssertFalse(scanned.isEmpty, "prefix \(prefix)") }
        }
    }

    /// Mail `e<i>` from `from` to me, dated `at` microseconds.
    private func received(_ i: Int, from: EmailAddress, at: Int64) -> DomainEvent {
        .emailReceived(EmailReceived(emailID: "e\(i)", folder: "INBOX", messageID: "m\(i)@t", subject: "s", from: [from],
            to: [EmailAddress(name: "Me", email: "me@home.org")], date: Timestamp(microseconds: at), dateSource: .header,
            size: 1, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!))
    }

    /// Folds `events` in batches of `batch` (each batch's end writes the contacts' deferred index work).
    private func fold(_ events: [DomainEvent], into harness: FoldHarness, batch: Int) throws {
        var start = 0
        while start < events.count {
            try harness.fold(Array(events[start..<min(start + batch, events.count)]), account: "acc")
            start += batch
        }
    }
}

