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

    /// Mail `e<i>` from `from` to me, dated `at` microseconds.
    private func received(_ i: Int, from: EmailAddress, at: Int64) -> DomainEvent {
        .emailReceived(EmailReceived(emailID: "e\(i)", folder: "INBOX", messageID: "m\(i)@t", subject: "s", from: [from],
            to: [EmailAddress(name: "Me", email: "me@home.org")], date: Timestamp(microseconds: at), dateSource: .header,
            size: 1, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!))
    }
}
