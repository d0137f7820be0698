import EventModel
import Projections
import XCTest

/// A name with diacritics completes with or without them ("franc" and "franç" complete "François"), as search
/// finds it; a prefix typed with them completes only names that have them. Every path of a completion agrees: the
/// short prefixes' lists, a long prefix's lists and the scan.
final class ContactDiacriticsTests: XCTestCase {
    private let francois = "fd@x.org", francine = "fr@x.org", muller = "jm@x.org", zoe = "zb@x.org", lukasz = "lk@x.org"

    private func folded() throws -> FoldHarness {
        let harness = FoldHarness(types: [ContactsProjector.self])
        let senders = [
            EmailAddress(name: "François Dupont", email: francois), EmailAddress(name: "François Dupont", email: francois),
            EmailAddress(name: "François Dupont", email: francois), EmailAddress(name: "Francine Roux", email: francine),
            EmailAddress(name: "Jürgen MÜLLER", email: muller),
            EmailAddress(name: "Zoe\u{308} Ba\u{300}rd", email: zoe), // written decomposed
            EmailAddress(name: "Łukasz Wójcik", email: lukasz),
        ]
        try harness.fold(senders.enumerated().map { i, from in received(i, from: from, at: Int64(100 + i)) }, account: "acc")
        return harness
    }

    func testNamesCompleteWithAndWithoutTheirDiacritics() throws {
        let harness = try folded()
        let reader = ContactsReader(harness.snapshot)
        func complete(_ prefix: String) throws -> [String] {
            let listed = try reader.complete(account: "acc", prefix: prefix, limit: 10).map(\.address)
            let scanned = try reader.scanComplete(account: "acc", needle: Array(prefix.lowercased().utf8), limit: 10).map(\.address)
            XCTAssertEqual(listed, scanned, "the lists and the scan, '\(prefix)'")
            return listed
        }
        XCTAssertEqual(try complete("franc"), [francois, francine], "without the cedilla: both, the more frequent first")
        XCTAssertEqual(try complete("Franç"), [francois], "with it: only the name that has it")
        XCTAssertEqual(try complete("francois"), [francois], "8 letters: the word's own list")
        XCTAssertEqual(try complete("françois"), [francois])
        XCTAssertEqual(try complete("francoisx"), [])
        XCTAssertEqual(try complete("muller"), [muller], "capitals and an umlaut")
        XCTAssertEqual(try complete("jurg"), [muller])
        XCTAssertEqual(try complete("zoe"), [zoe], "a decomposed name")
        XCTAssertEqual(try complete("bard"), [zoe])
        XCTAssertEqual(try complete("wojcik"), [lukasz])
        XCTAssertEqual(try complete("łuk"), [lukasz])
        XCTAssertEqual(try complete("luk"), [], "search keeps ł as it is, and so does autocomplete")
    }

    /// A contact whose name loses its diacritics' word (a later message names them otherwise) is no longer completed
    /// by that word's plain form: the plain token goes with the word.
    func testARenamedContactLosesThePlainFormOfItsOldName() throws {
        let harness = try folded()
        try harness.fold([received(50, from: EmailAddress(name: "Fred Dupont", email: francois), at: 500)], account: "acc")
        let reader = ContactsReader(harness.snapshot)
        for prefix in ["franc", "francois", "franç"] {
            XCTAssertFalse(try reader.complete(account: "acc", prefix: prefix, limit: 10).map(\.address).contains(francois), prefix)
            XCTAssertFalse(try reader.scanComplete(account: "acc", needle: Array(prefix.utf8), limit: 10).map(\.address).contains(francois), prefix)
        }
        XCTAssertEqual(try reader.complete(account: "acc", prefix: "fred", limit: 10).map(\.address), [francois])
    }

    /// A name is completed whichever normal form it and the prefix typed are written in (`IndexedText`): a name written
    /// decomposed (macOS) by its letters typed composed and the reverse, Korean and Japanese too; Greek without its
    /// accents and in capitals; ё as е. Every path agrees: the short prefixes' lists, a long prefix's lists, the scan.
    func testNamesCompleteWhicheverFormTheyAreWrittenIn() throws {
        let jose = "jm@y.org", kim = "kim@y.org", gabriel = "ga@y.org", papa = "pp@y.org", yolkin = "yo@y.org"
        let harness = FoldHarness(types: [ContactsProjector.self])
        let senders = [
            EmailAddress(name: "Jose\u{301} Mu\u{308}ller", email: jose),
            EmailAddress(name: "\u{1100}\u{1175}\u{11B7}\u{110E}\u{1165}\u{11AF}\u{1109}\u{116E}", email: kim), // 김철수
            EmailAddress(name: "\u{30AB}\u{3099}\u{30D5}\u{3099}\u{30EA}\u{30A8}\u{30EB}", email: gabriel), // ガブリエル
            EmailAddress(name: "Σωκράτης Παπαδόπουλος", email: papa),
            EmailAddress(name: "Пётр Ёлкин", email: yolkin),
        ]
        try harness.fold(senders.enumerated().map { i, from in received(i, from: from, at: Int64(100 + i)) }, account: "acc")
        let reader = ContactsReader(harness.snapshot)
        func complete(_ prefix: String) throws -> [String] { try reader.completedBothWays(prefix) }
        for prefix in ["josé", "José", "jose", "müller", "muller", "Jose\u{301}", "mu\u{308}ller"] {
            XCTAssertEqual(try complete(prefix), [jose], prefix)
        }
        for prefix in ["김", "김철", "김철수", "\u{1100}\u{1175}\u{11B7}"] { XCTAssertEqual(try complete(prefix), [kim], prefix) }
        for prefix in ["ガブ", "ガブリエル", "\u{30AB}\u{3099}\u{30D5}\u{3099}"] { XCTAssertEqual(try complete(prefix), [gabriel], prefix) }
        for prefix in ["παπαδοπ", "παπαδόπ", "ΠΑΠΑΔΟΠΟΥΛΟΣ", "παπαδοπουλος", "σωκρατ", "ΣΩΚΡΆΤΗΣ"] {
            XCTAssertEqual(try complete(prefix), [papa], prefix)
        }
        for prefix in ["елк", "ёлк", "ЁЛКИН", "петр", "пётр"] { XCTAssertEqual(try complete(prefix), [yolkin], prefix) }
        XCTAssertEqual(try reader.complete(account: "acc", prefix: "σωκράτης παπ", limit: 10).map(\.address), [papa], "two words")
        XCTAssertEqual(try reader.complete(account: "acc", prefix: "κ", limit: 10), [])
        let shown = try XCTUnwrap(try reader.complete(account: "acc", prefix: "josé", limit: 1).first?.name)
        XCTAssertEqual(Array(shown.unicodeScalars), Array("Jose\u{301} Mu\u{308}ller".unicodeScalars), "the name as the mail had it")
    }

    /// Mail `e<i>` from `from` to me, dated `at` microseconds.
    private func received(_ i: Int, from: EmailAddress, at: Int64) -> DomainEvent {
        .emailReceived(EmailReceived(emailID: "e\(i)", folder: "INBOX", messageID: "m\(i)@t", subject: "s", from: [from],
            to: [EmailAddress(name: "Me", email: "me@home.org")], date: Timestamp(microseconds: at), dateSource: .header,
            size: 1, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!))
    }
}
