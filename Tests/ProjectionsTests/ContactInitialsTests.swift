import EventModel
import Projections
import XCTest

/// Initials typed (`r d`: each word one ASCII letter or digit) complete from the best list of their pair (`pairs`,
/// contacts schema 15): one lookup, where before the index entries of the rarer letter (~10,000 over 50K contacts) were
/// read.
final class ContactInitialsTests: XCTestCase {
    func testTheInitialsOfTokens() {
        XCTAssertEqual(ContactsProjector.initials(["rob", "dunn", "rd@x.org"]), Array("dr".utf8))
        XCTAssertEqual(ContactsProjector.initials(["élodie", "elodie", "3com", "_x@y.org", "\u{155}a"]), Array("3e".utf8),
                       "a token starting with a byte that is no ASCII letter or digit gives none")
        XCTAssertEqual(ContactsProjector.initials(["r\u{301}a"]), Array("r".utf8),
                       "a letter and a combining mark give the letter: the pair's list holds the contact, the check drops it")
        XCTAssertEqual(ContactsProjector.initials([]), [])
    }

    func testWhichPrefixesAreInitials() {
        func pair(_ words: [String]) -> String? {
            ContactsReader.initialsPair(words).map { String(decoding: [$0.0, $0.1], as: UTF8.self) }
        }
        XCTAssertEqual(pair(["r", "d"]), "rd")
        XCTAssertEqual(pair(["r", "r", "d"]), "rd", "the first two distinct")
        XCTAssertEqual(pair(["7", "d", "q"]), "7d")
        XCTAssertNil(pair(["r", "r"]), "one initial twice: its own list")
        XCTAssertNil(pair(["r", "do"]), "a word of two letters")
        XCTAssertNil(pair(["é", "d"]), "not ASCII")
        XCTAssertNil(pair(["_", "d"]))
        XCTAssertNil(pair(["r"]))
    }

    /// Over 1,500 contacts named from a few words and renamed now and then (so the pairs' lists fill and hold stale
    /// entries), initials of two and three words complete as ranking every contact would, with the lists and without;
    /// and where two initials complete ten, the pair's list answered (one entry of the index allowed gives the same).
    func testInitialsCompleteAsRankingEveryContact() throws {
        let harness = FoldHarness(types: [ContactsProjector.self])
        let vocabulary = ["anna", "bob", "carl", "dora", "diaz", "dunn", "eve", "rob", "ruth", "roy", "wagner", "worth", "7even"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(n))
        }
        var events: [DomainEvent] = []
        var names: [Int: String] = [:]
        for i in 0..<3_000 {
            // 1,500 addresses, each seen about twice; one message in five renames its sender.
            let n = next(1_500)
            if names[n] == nil || next(5) == 0 {
                names[n] = (0..<(1 + next(3))).map { _ in vocabulary[next(vocabulary.count)] }.joined(separator: " ")
            }
            let name = names[n]!
            events.append(received(i, from: EmailAddress(name: name, email: "\(vocabulary[n % vocabulary.count])\(n)@x.org")))
        }
        try harness.fold(events, account: "acc")
        let reader = ContactsReader(harness.snapshot)
        let everyone = try reader.all(account: "acc")
        let initials = Array(Set(vocabulary.map { String($0.prefix(1)) })).sorted()
        var full = 0, answeredByList = 0
        for _ in 0..<300 {
            let words = (0..<(2 + next(2))).map { _ in initials[next(initials.count)] }
            let expected = Array(everyone.filter { c in
                let tokens = ContactsProjector.tokens(name: c.name, address: c.address)
                return words.allSatisfy { w in tokens.contains { $0.hasPrefix(w) } }
            }.sorted {
                let a = ContactRank($0), b = ContactRank($1)
                return a < b || (a == b && Array($0.address.utf8).lexicographicallyPrecedes(Array($1.address.utf8)))
            }.prefix(10).map(\.address))
            for lists in [true, false] {
                XCTAssertEqual(try reader.completeWords(account: "acc", words: words, limit: 10, lists: lists).map(\.address), expected,
                               "\(words) lists \(lists)")
            }
            XCTAssertEqual(try reader.complete(account: "acc", prefix: words.joined(separator: " "), limit: 10).map(\.address), expected)
            guard expected.count == 10, Set(words).count == 2 else { continue }
            full += 1
            if try reader.completeWords(account: "acc", words: words, limit: 10, candidates: 1).map(\.address) == expected { answeredByList += 1 }
        }
        XCTAssertGreaterThan(full, 80, "most pairs of initials complete ten")
        XCTAssertGreaterThan(answeredByList * 10, full * 9, "the pair's list answers nearly all of them (\(answeredByList) of \(full))")
    }

    /// A contact renamed out of a pair is not completed by it (its entry there is stale), one renamed into it is.
    func testARenamedContactLeavesAndEntersAPair() throws {
        let harness = FoldHarness(types: [ContactsProjector.self])
        // 20 others with both initials fill the list of `d r`; Rhea Dent (5 messages) and Sam Dunn (3) rank above them.
        var events = (0..<20).map { received($0, from: EmailAddress(name: "Rita Dole", email: "rd\($0)@x.org")) }
        events.append(contentsOf: (20..<25).map { received($0, from: EmailAddress(name: "Rhea Dent", email: "dent@x.org")) })
        events.append(contentsOf: (25..<28).map { received($0, from: EmailAddress(name: "Sam Dunn", email: "sam@x.org")) })
        try harness.fold(events, account: "acc")
        func complete(_ prefix: String, limit: Int = 10) throws -> [String] {
            try ContactsReader(harness.snapshot).complete(account: "acc", prefix: prefix, limit: limit).map(\.address)
        }
        XCTAssertEqual(try complete("r d").first, "dent@x.org")
        XCTAssertFalse(try complete("r d").contains("sam@x.org"))
        XCTAssertEqual(try complete("r d", limit: 30).count, 21, "past the list's 16: the index")
        try harness.fold([received(28, from: EmailAddress(name: "Jo Dent", email: "dent@x.org")),
                          received(29, from: EmailAddress(name: "Sam Rice Dunn", email: "sam@x.org"))], account: "acc")
        let got = try complete("r d")
        XCTAssertFalse(got.contains("dent@x.org"), "renamed out: its entry in the list is stale")
        XCTAssertEqual(got.first, "sam@x.org", "renamed into the pair")
        XCTAssertEqual(got.count, 10)
        XCTAssertEqual(try complete("r d", limit: 30).count, 21)
        XCTAssertEqual(try complete("j d"), ["dent@x.org"])
        XCTAssertEqual(try complete("d r s"), ["sam@x.org"], "three initials")
    }

    /// A contact's pairs are bounded by its tokens: a name of 30 words with as many initials gives the address and its
    /// first 16 words (`ContactsProjector.maxNameWords`), 17 initials, so 136 lists, not the 630 of 36.
    func testTheListsOfOneContactAreBounded() throws {
        let harness = FoldHarness(types: [ContactsProjector.self])
        let letters = Array("0123456789abcdefghijklmnopqrstuvwxyz").map(String.init)
        let name = letters.dropFirst().prefix(30).map { $0 + "x" }.joined(separator: " ")
        try harness.fold([received(0, from: EmailAddress(name: name, email: "0@x.org"))], account: "acc")
        XCTAssertEqual(harness.store.entries("contacts.pairs").count, 17 * 16 / 2)
    }

    /// Initials typed past `ContactsReader.maxQueryWords` (36, with the 256-character bound of the CLI far off) are
    /// taken as their first 16, as a name's words are: a contact named by those 16 completes, one lacking one does not.
    func testMoreInitialsThanAQueryKeepsAreBounded() throws {
        let harness = FoldHarness(types: [ContactsProjector.self])
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789").map(String.init)
        try harness.fold([received(0, from: EmailAddress(name: letters.prefix(16).map { $0 + "x" }.joined(separator: " "), email: "a@x.org")),
                          received(1, from: EmailAddress(name: letters.prefix(15).map { $0 + "x" }.joined(separator: " "), email: "b@x.org"))],
                         account: "acc")
        let typed = letters.joined(separator: " ")
        XCTAssertEqual(ContactsReader.queryWords(typed)?.count, ContactsReader.maxQueryWords)
        XCTAssertEqual(try ContactsReader(harness.snapshot).complete(account: "acc", prefix: typed, limit: 10).map(\.address), ["a@x.org"])
    }

    /// Mail `e<i>` from `from` to me.
    private func received(_ i: Int, from: EmailAddress) -> DomainEvent {
        .emailReceived(EmailReceived(emailID: "e\(i)", folder: "INBOX", messageID: "m\(i)@t", subject: "s", from: [from],
            to: [EmailAddress(name: "Me", email: "me@home.org")], date: Timestamp(microseconds: Int64(100 + i)), dateSource: .header,
            size: 1, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!))
    }
}
