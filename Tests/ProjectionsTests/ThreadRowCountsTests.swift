import EventModel
import Projections
import XCTest

/// A thread row's counts and folders, for threads short and long (the recompute searches small threads' message
/// keys and folders in lists and big threads' in a dictionary and a set): the same as counted straightforwardly.
final class ThreadRowCountsTests: XCTestCase {
    func testCountsAndFoldersOfThreadsOfEverySize() throws {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<60 {
            let harness = FoldHarness(types: [ThreadsProjector.self])
            let messages = 1 + round % 30
            let folderCount = 1 + Int.random(in: 0..<(round % 3 == 0 ? 40 : 4), using: &rng)
            var events: [DomainEvent] = []
            var copies: [(key: String, folder: String, seen: Bool, hasID: Bool)] = []
            for m in 0..<messages {
                // Some messages have no Message-ID: their key is the copy's own, and they are not in `messageIDs`.
                let hasID = m == 0 || Int.random(in: 0..<5, using: &rng) != 0
                for c in 0..<(hasID ? Int.random(in: 1...3, using: &rng) : 1) {
                    let folder = "F\(Int.random(in: 0..<folderCount, using: &rng))"
                    let seen = Bool.random(using: &rng)
                    let id = "r\(round)m\(m)c\(c)"
                    events.append(.emailReceived(EmailReceived(
                        emailID: id, folder: folder, messageID: hasID ? "m\(m)@x" : "",
                        inReplyTo: m == 0 ? [] : ["m0@x"], references: m == 0 ? [] : ["m0@x"], subject: "S",
                        from: [EmailAddress(name: nil, email: "s\(m)@example.com")],
                        date: Timestamp(microseconds: 1_700_000_000_000_000 + Int64(m) * 1_000_000), dateSource: .header,
                        flags: seen ? ["\\Seen"] : [], size: 10, blob: BlobHash(bytes: [UInt8](repeating: 1, count: 32))!)))
                    copies.append((hasID ? "m\(m)@x" : "<\(id)>", folder, seen, hasID))
                }
            }
            try harness.fold(events, account: "acct")
            let row = try XCTUnwrap(ThreadsReader(harness.snapshot).thread(id: "r\(round)m0c0"), "round \(round)")
            var keys: [String] = []
            for c in copies where !keys.contains(c.key) { keys.append(c.key) }
            let unread = keys.filter { k in !copies.contains { $0.key == k && $0.seen } }
            XCTAssertEqual(row.messageCount, keys.count, "round \(round)")
            XCTAssertEqual(row.unreadCount, unread.count, "round \(round)")
            XCTAssertEqual(row.messageIDs, keys.filter { k in copies.contains { $0.key == k && $0.hasID } }, "round \(round)")
            XCTAssertEqual(row.folders, Set(copies.map(\.folder)).sorted(), "round \(round)")
        }
    }
}
