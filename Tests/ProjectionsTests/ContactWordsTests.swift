import EventModel
import Projections
import XCTest

/// A prefix of several words completes the contacts with a token starting each ("carl w", "worth, c", "jean-l"), as
/// mail clients complete a name typed in full; an address's prefix stays one token.
final class ContactWordsTests: XCTestCase {
    private let carl = "cworth@cworth.org", carla = "carla@w.org", chris = "chris@chris-wilson.co.uk"
    private let jeanLuc = "jl@x.org", obrien = "pat@x.org", johnSmith = "john.smith@corp.example", smithers = "js@x.org"

    private func reader() throws -> (FoldHarness, ContactsReader) {
        let harness = FoldHarness(types: [ContactsProjector.self])
        let senders: [(String, String, Int)] = [
            ("Carl Worth", carl, 5), ("Carla Wagner", carla, 3), ("Chris Wilson", chris, 1), ("Jean-Luc Picard", jeanLuc, 1),
            ("Pat O'Brien", obrien, 1), ("Someone", johnSmith, 2), ("John Smithers", smithers, 4),
        ]
        var events: [DomainEvent] = []
        for (name, address, times) in senders {
            for _ in 0..<times { events.append(received(events.count, from: EmailAddress(name: name, email: address))) }
        }
        try harness.fold(events, account: "acc")
        return (harness, ContactsReader(harness.snapshot))
    }

    func testSeveralWordsCompleteContactsWithATokenForEach() throws {
        let (_, reader) = try reader()
        func complete(_ prefix: String, limit: Int = 10) throws -> [String] {
            try reader.complete(account: "acc", prefix: prefix, limit: limit).map(\.address)
        }
        XCTAssertEqual(try complete("carl w"), [carl, carla], "both start 'carl' and a word with 'w'; the more frequent first")
        XCTAssertEqual(try complete("Carl Worth"), [carl], "a name typed in full")
        XCTAssertEqual(try complete("worth, carl"), [carl], "in any order, with a comma")
        XCTAssertEqual(try complete("carl "), [carl, carla], "a blank after a first name")
        XCTAssertEqual(try complete("  carl"), [carl, carla])
        XCTAssertEqual(try complete("c w"), [carl, carla, chris])
        XCTAssertEqual(try complete("c w", limit: 2), [carl, carla])
        XCTAssertEqual(try complete("carl x"), [])
        XCTAssertEqual(try complete("jean-l"), [jeanLuc], "a hyphenated name")
        XCTAssertEqual(try complete("o'b"), [obrien], "an apostrophe")
        XCTAssertEqual(try complete("cworth w"), [carl], "the address is a token too")
        XCTAssertEqual(try complete("john.sm"), [johnSmith], "a dot does not split: an address's beginning")
        XCTAssertEqual(try complete("john sm"), [smithers], "a blank: no address has one")
        XCTAssertEqual(try complete("john-sm"), [smithers], "a hyphen between letters splits")
        XCTAssertEqual(try complete("cworth@cw"), [carl], "an @: an address's prefix, not split")
        XCTAssertEqual(try complete("carl@w"), [], "'carl@w' is no address's beginning")
        XCTAssertEqual(try complete(" , "), [])
    }

    func testTheWordsOfAPrefix() {
        XCTAssertNil(ContactsReader.queryWords("carl"))
        XCTAssertNil(ContactsReader.queryWords("carl.w@x"))
        XCTAssertNil(ContactsReader.queryWords("carl-w@x"))
        XCTAssertNil(ContactsReader.queryWords("noreply-"), "an address being typed")
        XCTAssertNil(ContactsReader.queryWords("noreply-1"))
        XCTAssertNil(ContactsReader.queryWords("john.sm"))
        XCTAssertEqual(ContactsReader.queryWords("jean-l"), ["jean", "l"])
        XCTAssertEqual(ContactsReader.queryWords("d\u{2019}art"), ["d", "art"])
        XCTAssertNil(ContactsReader.queryWords("x-1"), "a hyphen before a digit does not split")
        XCTAssertEqual(ContactsReader.queryWords("-x-y-"), ["-x", "y-"], "only between letters")
        XCTAssertEqual(ContactsReader.queryWords("carl "), ["carl"])
        XCTAssertEqual(ContactsReader.queryWords("worth, carl"), ["worth", "carl"])
        XCTAssertEqual(ContactsReader.queryWords(" , "), nil)
        XCTAssertEqual(ContactsReader.queryWords(Array(repeating: "w", count: 40).joined(separator: " "))?.count,
                       ContactsReader.maxQueryWords, "bounded as names are")
    }

    /// The entries read are bounded by `candidates`: the longest word's first entries only (the lists, which answer
    /// here, left out).
    func testTheLongestWordsEntriesAreReadAtMostCandidates() throws {
        let (_, reader) = try reader()
        XCTAssertEqual(try reader.completeWords(account: "acc", words: ["w", "carl"], limit: 10).map(\.address), [carl, carla])
        XCTAssertEqual(try reader.completeWords(account: "acc", words: ["w", "carl"], limit: 10, candidates: 1, lists: false).map(\.address), [carl],
                       "one entry of 'carl…' read: 'carl' (the name word) before 'carla'")
        XCTAssertEqual(try reader.completeWords(account: "acc", words: ["w", "carl"], limit: 10, candidates: 0), [])
    }

    /// Over 1,200 contacts named from a few words (so the best-contacts lists fill), two- and three-word prefixes
    /// complete as ranking every contact would: through the lists where they answer, through the index where not.
    func testSeveralWordsCompleteAsRankingEveryContact() throws {
        let harness = FoldHarness(types: [ContactsProjector.self])
        let vocabulary = ["anna", "annette", "bob", "bobby", "carl", "carla", "dora", "dorian", "eve", "evelyn", "worth", "wagner"]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ n: Int) -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(n))
        }
        var events: [DomainEvent] = []
        for i in 0..<1_200 {
            let name = (0..<(1 + next(3))).map { _ in vocabulary[next(vocabulary.count)] }.joined(separator: " ")
            let from = EmailAddress(name: name, email: "\(vocabulary[next(vocabulary.count)])\(i)@x\(i % 7).org")
            for _ in 0...next(3) { events.append(received(events.count, from: from)) }
        }
        try harness.fold(events, account: "acc")
        let reader = ContactsReader(harness.snapshot)
        let everyone = try reader.all(account: "acc")
        var listed = 0
        for _ in 0..<200 {
            let words = (0..<(2 + next(2))).map { _ in String(vocabulary[next(vocabulary.count)].prefix(1 + next(6))) }
            let expected = everyone.filter { c in
                let tokens = ContactsProjector.tokens(name: c.name, address: c.address)
                return words.allSatisfy { w in tokens.contains { $0.hasPrefix(w) } }
            }.sorted {
                let a = ContactRank($0), b = ContactRank($1)
                return a < b || (a == b && Array($0.address.utf8).lexicographicallyPrecedes(Array($1.address.utf8)))
            }.prefix(10).map(\.address)
            let viaLists = try reader.completeWords(account: "acc", words: words, limit: 10).map(\.address)
            let viaIndex = try reader.completeWords(account: "acc", words: words, limit: 10, lists: false).map(\.address)
            XCTAssertEqual(viaIndex, Array(expected), "\(words)")
            XCTAssertEqual(viaLists, Array(expected), "\(words)")
            // The others' entries read at once, or never (every contact of the first word checked), with and without lists.
            for probe in [0, Int.max] {
                for lists in [false, true] {
                    let got = try reader.completeWords(account: "acc", words: words, limit: 10, probe: probe, lists: lists).map(\.address)
                    XCTAssertEqual(got, Array(expected), "\(words) probe \(probe) lists \(lists)")
                }
            }
            if try reader.complete(account: "acc", prefix: words.joined(separator: " "), limit: 10).map(\.address) != Array(expected) {
                XCTFail("complete '\(words.joined(separator: " "))'")
            }
            if !expected.isEmpty { listed += 1 }
        }
        XCTAssertGreaterThan(listed, 60, "many queries complete to someone")
    }

    /// The other words' entries are read when checking the first word's contacts at the pass rate seen would cost more
    /// (a check about `readsPerCheck` entries read), or at once when nothing was checked.
    func testWhenTheOtherWordsAreRead() {
        XCTAssertTrue(ContactsReader.readsOthers(needed: 10, checked: 0, passed: 0, remaining: 3_800))
        XCTAssertFalse(ContactsReader.readsOthers(needed: 8, checked: 16, passed: 2, remaining: 3_784), "1 in 8 pass: ~64 checks")
        XCTAssertTrue(ContactsReader.readsOthers(needed: 9, checked: 16, passed: 1, remaining: 3_784), "1 in 16: ~144 checks")
        XCTAssertTrue(ContactsReader.readsOthers(needed: 10, checked: 16, passed: 0, remaining: 3_784), "none passed")
        XCTAssertFalse(ContactsReader.readsOthers(needed: 1, checked: 16, passed: 0, remaining: 3_784), "one more needed")
    }

    /// More contacts share a long prefix's kept beginning than the best 1,000 it checks (`ContactsReader.maxLimit`):
    /// what it returns is at most `limit`, each starting the whole prefix.
    func testAPrefixPastTheKeptBeginningSharedByMoreThanMaxLimit() throws {
        let harness = FoldHarness(types: [ContactsProjector.self])
        let base = String(repeating: "x", count: 90)
        try harness.fold((0..<1_200).map { received($0, from: EmailAddress(name: nil, email: "\(base)\($0)@x.org")) }, account: "acc")
        XCTAssertGreaterThan(1_200, ContactsReader.maxLimit)
        let reader = ContactsReader(harness.snapshot)
        let got = try reader.complete(account: "acc", prefix: base + "5", limit: 10).map(\.address)
        XCTAssertEqual(got.count, 10)
        XCTAssertTrue(got.allSatisfy { $0.hasPrefix(base + "5") }, "\(got)")
    }

    /// The word whose first characters start the fewest index entries is read first, not the longest: `w` (one name
    /// word, `worth`) before `carl` (600 others named Carl, whose entries come first in key order), so Carl Worth is
    /// found among `candidates` entries that `carl`'s would have filled with others.
    func testTheWordStartingTheFewestEntriesIsReadFirst() throws {
        let harness = FoldHarness(types: [ContactsProjector.self])
        var events = (0..<600).map { received($0, from: EmailAddress(name: "Carl \($0)", email: "a\($0)@x.org")) }
        events.append(received(600, from: EmailAddress(name: "Carl Worth", email: carl)))
        try harness.fold(events, account: "acc")
        let reader = ContactsReader(harness.snapshot)
        XCTAssertGreaterThan(try reader.entryCount(account: "acc", word: "carl"), try reader.entryCount(account: "acc", word: "w"))
        for words in [["carl", "w"], ["w", "carl"]] {
            XCTAssertEqual(try reader.completeWords(account: "acc", words: words, limit: 10, candidates: 5, lists: false).map(\.address), [carl], "\(words)")
        }
    }

    /// A word with far more index entries than the longest word's plus 256 (1,200 `w…` tokens against one `carl`) is not
    /// read whole: it is left to the check of each contact, and the answer is the same.
    func testAWordWithTooManyEntriesIsLeftToTheCheck() throws {
        let harness = FoldHarness(types: [ContactsProjector.self])
        var events = (0..<600).map { received($0, from: EmailAddress(name: "Wanda \($0)", email: "w\($0)@x.org")) }
        events.append(received(600, from: EmailAddress(name: "Carl Worth", email: carl)))
        events.append(received(601, from: EmailAddress(name: "Carl Xu", email: "cx@x.org")))
        try harness.fold(events, account: "acc")
        let reader = ContactsReader(harness.snapshot)
        XCTAssertEqual(try reader.completeWords(account: "acc", words: ["w", "carl"], limit: 10, probe: 0, lists: false).map(\.address), [carl])
        XCTAssertEqual(try reader.completeWords(account: "acc", words: ["w", "carl"], limit: 10, lists: false).map(\.address), [carl])
        XCTAssertEqual(try reader.completeWords(account: "acc", words: ["w", "carl"], limit: 10).map(\.address), [carl])
        XCTAssertEqual(try reader.complete(account: "acc", prefix: "carl w", limit: 10).map(\.address), [carl])
    }

    /// A prefix longer than a key part's kept beginning completes only the tokens it starts, not every token sharing
    /// that beginning: addresses cut in the index (past `Key.maxPartBytes`) and whole ones just under it.
    func testAPrefixPastTheKeptBeginningMatchesWhole() throws {
        for (letter, repeats) in [("x", 90), ("y", 85)] {
            let harness = FoldHarness(types: [ContactsProjector.self])
            let base = String(repeating: letter, count: repeats)
            // 20 contacts, so the list of the first 7 characters is full and the index is read.
            try harness.fold((0..<20).map { received($0, from: EmailAddress(name: nil, email: "\(base)\($0)@x.org")) }, account: "acc")
            let reader = ContactsReader(harness.snapshot)
            XCTAssertEqual(try reader.complete(account: "acc", prefix: base + "7@", limit: 10).map(\.address), ["\(base)7@x.org"], letter)
            XCTAssertEqual(try reader.complete(account: "acc", prefix: base + "1", limit: 10).count, 10, "1, 10-19: the best 10")
            XCTAssertEqual(try reader.complete(account: "acc", prefix: base + "1", limit: 20).count, 11, letter)
            XCTAssertEqual(try reader.complete(account: "acc", prefix: base + "7@y", limit: 10), [], letter)
        }
    }

    /// An address longer than a key part (`Key.maxPartBytes`) is kept bounded in the index: a word of it past the kept
    /// beginning still completes, checked against the contact's own address.
    func testALongAddressCompletesWithItsWholeBeginning() throws {
        let harness = FoldHarness(types: [ContactsProjector.self])
        let long = String(repeating: "verylong", count: 18) + "@example.org"
        XCTAssertGreaterThan(long.utf8.count, Key.maxPartBytes)
        try harness.fold([received(0, from: EmailAddress(name: "Zed Long", email: long)),
                          received(1, from: EmailAddress(name: "Zed Short", email: "zs@example.org"))], account: "acc")
        let reader = ContactsReader(harness.snapshot)
        let wholeBeginning = String(long.prefix(120))
        for lists in [true, false] {
            XCTAssertEqual(try reader.completeWords(account: "acc", words: ["zed", "verylong"], limit: 10, lists: lists).map(\.address), [long])
            XCTAssertEqual(try reader.completeWords(account: "acc", words: ["zed", wholeBeginning], limit: 10, lists: lists).map(\.address), [long],
                           "lists: \(lists)")
            XCTAssertEqual(try reader.completeWords(account: "acc", words: ["zed", wholeBeginning + "x"], limit: 10, lists: lists), [])
        }
    }

    /// Mail `e<i>` from `from` to me.
    private func received(_ i: Int, from: EmailAddress) -> DomainEvent {
        .emailReceived(EmailReceived(emailID: "e\(i)", folder: "INBOX", messageID: "m\(i)@t", subject: "s", from: [from],
            to: [EmailAddress(name: "Me", email: "me@home.org")], date: Timestamp(microseconds: Int64(100 + i)), dateSource: .header,
            size: 1, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!))
    }
}
