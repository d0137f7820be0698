import EventModel
import Foundation
import Views
import XCTest

/// A store keeps its folds (projectors and tables) from one catch-up to the next: emptied, with their
/// caches' room within a budget.
final class KeptFoldsTests: ViewsTestCase {
    /// Two view stores over the same views fold in turn (as two processes may): each one's kept folds hold
    /// nothing of what they read before, so the views equal a rebuild.
    func testKeptFoldsHoldNothingStaleWhenAnotherWriterFoldsMeanwhile() throws {
        let a = try views(), b = try views()
        // a reads the role of "Box" (none yet) while folding a message into it; b learns the role; a folds
        // another message into "Box": read again, the role is the inbox's.
        try folder("Other", role: .archive)
        try receive("first", folder: "Other")
        try receive("zero", folder: "Box")
        try a.catchUp()
        try folder("Box", role: .inbox)
        try b.catchUp()
        try receive("second", folder: "Box", messageID: "second@x")
        try a.catchUp()
        // The same in turns, over records each store wrote before the other changed them.
        for round in 0..<4 {
            for i in 0..<20 {
                try receive("r\(round)m\(i)", messageID: "r\(round)m\(i)@x", references: i > 0 ? ["r\(round)m\(i - 1)@x"] : [],
                            subject: "Round \(round)")
            }
            if round > 0 {
                for i in 0..<20 {
                    try event(.flagsChanged(FlagsChanged(emailID: "r\(round - 1)m\(i)", folder: "INBOX",
                                                         flags: i % 2 == 0 ? ["\\Seen"] : ["\\Flagged"],
                                                         added: i % 2 == 0 ? ["\\Seen"] : ["\\Flagged"], removed: [])),
                              stream: .email("r\(round - 1)m\(i)"))
                }
            }
            try (round % 2 == 0 ? b : a).catchUp()
        }
        XCTAssertGreaterThan(a.keptCacheBytes, 0, "a's folds are kept, with their caches' room")
        try event(.emailCategorized(EmailCategorized(emailID: "nonexistent", category: .social)))
        let (_, diffs) = try a.compareWithRebuild()
        XCTAssertEqual(diffs, [], "views folded by two stores in turn differ from a rebuild")
    }

    /// The kept caches' room stays within the budget: tables past it free theirs.
    func testKeptCachesStayWithinTheirBudget() throws {
        // Opened first: a store catches up when opened.
        let roomy = try views(), tight = try views()
        tight.keptCacheBudget = 16_384
        for i in 0..<600 { try receive("m\(i)", from: "sender\(i)@example.com") }
        try roomy.catchUp()
        XCTAssertGreaterThan(roomy.keptCacheBytes, 16_384, "600 messages leave caches with room")
        XCTAssertLessThanOrEqual(roomy.keptCacheBytes, roomy.keptCacheBudget)

        for i in 600..<1_200 { try receive("m\(i)", from: "sender\(i)@example.com") }
        try tight.catchUp()
        XCTAssertGreaterThan(tight.keptCacheBytes, 0, "the smaller tables keep their room")
        XCTAssertLessThanOrEqual(tight.keptCacheBytes, 16_384)
        // Kept or not, the next fold works.
        try receive("last")
        try tight.catchUp()
        XCTAssertEqual(try tight.compareWithRebuild().1, [])
    }
}
