import EventModel
import MailStore
import XCTest

final class ThreadingTests: ViewsTestCase {
    /// Participants are senders once each, most recent first, compared without case (ASCII and not), in a
    /// thread of a few senders and in one of more than the short list holds.
    func testParticipantsAreDistinctSendersWithoutCaseInSmallAndLargeThreads() throws {
        try receive("s0", messageID: "s0@x", from: "Ann@Example.com", name: "Ann")
        try receive("s1", messageID: "s1@x", inReplyTo: ["s0@x"], from: "ÉMILE@example.com", name: "Émile")
        try receive("s2", messageID: "s2@x", inReplyTo: ["s1@x"], from: "ann@example.com", name: "Ann")
        try receive("s3", messageID: "s3@x", inReplyTo: ["s2@x"], from: "émile@EXAMPLE.com", name: "Émile")
        let small = try XCTUnwrap(try views().thread(id: "s0"))
        XCTAssertEqual(small.participants.map(\.email), ["émile@EXAMPLE.com", "ann@example.com"])
        for i in 0..<45 {
            try receive("b\(i)", messageID: "b\(i)@x", inReplyTo: i == 0 ? [] : ["b\(i - 1)@x"],
                        from: i < 40 ? "P\(i)@Example.com" : "p\(i - 40)@example.com", name: nil)
        }
        let big = try XCTUnwrap(try views().thread(id: "b0"))
        XCTAssertEqual(big.participants.count, 40, "40 senders, five of them twice in another case")
        XCTAssertEqual(big.participants.first?.email, "p4@example.com", "the most recent sender first")
        XCTAssertFalse(big.participants.contains { $0.email == "P4@Example.com" }, "an earlier sender in another case is the same one")
    }

    func testReplyChainsForksAndMissingParents() throws {
        try receive("a")
        try receive("b", inReplyTo: ["a@example.com"], references: ["a@example.com"])
        try receive("c", inReplyTo: ["a@example.com"], references: ["a@example.com"]) // a fork
        try receive("x", inReplyTo: ["ghost@example.com"], references: ["ghost@example.com"])
        try receive("y", references: ["ghost@example.com"]) // sibling through a missing parent
        try receive("lonely", subject: "Hello") // same subject, never merged by subject alone
        XCTAssertEqual(try partition(), [["a@example.com", "b@example.com", "c@example.com"],
                                         ["x@example.com", "y@example.com"], ["lonely@example.com"]])
    }

    func testThreadsMergeWhenALaterMessageLinksThem() throws {
        try receive("p1")
        try receive("p2")
        XCTAssertEqual(try partition().count, 2)
        try receive("bridge", references: ["p1@example.com", "p2@example.com"])
        XCTAssertEqual(try partition(), [["p1@example.com", "p2@example.com", "bridge@example.com"]])
        XCTAssertTrue(try views().compareWithRebuild().differences.isEmpty)
    }

    func testGmailThreadIDWins() throws {
        try receive("g1", gmailThread: 42)
        try receive("g2", references: ["unrelated@example.com"], gmailThread: 42)
        try receive("g3", inReplyTo: ["g1@example.com"], gmailThread: 7) // Gmail says another thread
        XCTAssertEqual(try partition(), [["g1@example.com", "g2@example.com"], ["g3@example.com"]])
    }

    func testThreadRowFields() throws {
        try folder("INBOX", role: .inbox)
        try folder("[Gmail]/All Mail", role: .all)
        try receive("r1", subject: "[swift-dev] Build broken", from: "alice@example.com", name: "Alice Smith", flags: ["\\Seen"])
        let r2Date = tick()
        try receive("r2", inReplyTo: ["r1@example.com"], subject: "Re: [swift-dev] Build broken", from: "bob@example.com", name: "Bob",
                    date: r2Date, attachment: true)
        // The same message in All Mail: counted once.
        try receive("r2copy", folder: "[Gmail]/All Mail", messageID: "r2@example.com", subject: "Re: [swift-dev] Build broken",
                    from: "bob@example.com", name: "Bob", date: r2Date)
        try receive("r3", inReplyTo: ["r2@example.com"], subject: "Aw: Re: Build broken", from: "alice@example.com", name: "Alice Smith",
                    flags: ["\\Flagged", "\\Seen"])
        try event(.emailCategorized(EmailCategorized(emailID: "r3", category: .updates)))
        let t = try XCTUnwrap(try useCase().fetchThreads(accountId: "acct", folderId: "INBOX").threads.first)
        XCTAssertEqual(t.subject, "[swift-dev] Build broken", "the oldest message's subject, its list tag kept")
        XCTAssertEqual(t.participants.map(\.email), ["alice@example.com", "bob@example.com"], "most recent sender first")
        XCTAssertEqual(t.participantsJSON, #"[{"name":"Alice Smith","email":"alice@example.com"},{"name":"Bob","email":"bob@example.com"}]"#)
        XCTAssertEqual(t.snippet, "snippet of r3")
        XCTAssertEqual(t.messageCount, 3, "the All Mail copy counts once")
        XCTAssertEqual(t.unreadCount, 1)
        XCTAssertTrue(t.isStarred)
        XCTAssertTrue(t.hasAttachments)
        XCTAssertEqual(t.aiCategory, .updates)
        XCTAssertEqual(Set(t.messageIds), ["r1@example.com", "r2@example.com", "r3@example.com"])
        XCTAssertEqual(Set(t.folders), ["INBOX", "[Gmail]/All Mail"])
        // Flag changes and expunges flow into the row.
        try event(.flagsChanged(FlagsChanged(emailID: "r2", folder: "INBOX", flags: ["\\Seen"])))
        try event(.flagsChanged(FlagsChanged(emailID: "r3", folder: "INBOX", flags: ["\\Seen"])))
        var row = try useCase().thread(id: t.id)
        XCTAssertEqual(row.unreadCount, 0)
        XCTAssertFalse(row.isStarred)
        try event(.emailExpunged(EmailExpunged(emailID: "r3", folder: "INBOX")))
        row = try useCase().thread(id: t.id)
        XCTAssertEqual(row.messageCount, 2)
        XCTAssertTrue(row.snippet.hasPrefix("snippet of r2"))
        XCTAssertTrue(try views().compareWithRebuild().differences.isEmpty)
    }

    func testParticipantJSONDecodingIsTolerant() {
        XCTAssertEqual(Participant.decode(from: nil), [])
        XCTAssertEqual(Participant.decode(from: ""), [])
        XCTAssertEqual(Participant.decode(from: "{not json"), [])
        XCTAssertEqual(Participant.decode(from: #"[{"name":null,"email":"s@example.com"}]"#), [Participant(name: nil, email: "s@example.com")])
        let list = [Participant(name: "John Doe", email: "john@example.com"), Participant(name: nil, email: "sarah@example.com")]
        XCTAssertEqual(Participant.encode(list), #"[{"name":"John Doe","email":"john@example.com"},{"name":null,"email":"sarah@example.com"}]"#)
        XCTAssertEqual(Participant.decode(from: Participant.encode(list)), list)
    }
}
