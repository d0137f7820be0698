import EventLog
import EventModel
import MailStore
import XCTest

/// `history` finds a thread's actions with work linear in its emails, actions and their targets: each action's
/// record read at most twice, however many emails it touched (a star thread of N emails, archived and the archive
/// undone, read N records of N targets each, quadratic: 437 s at 40,000 emails). Counted, never timed.
final class HistoryActionFollowerTests: ViewsTestCase {
    /// What the stand-in lookups were asked, counted on their side (whatever the follower counts itself).
    private final class Asked {
        var records = 0
        var targets = 0
        var emails = 0
        var threads = 0
    }

    /// A star thread of 50,000 emails, an archive of all of them, its undo's inverse (also on another thread, where
    /// a chain of 2,000 retries follows it) and actions not to follow: each record is read at most twice and the
    /// targets read stay within twice those held, where reading the actions of each email (or of each thread per
    /// action followed) reads billions (and took minutes).
    func testAStarOf50KEmailsReadsEachActionRecordAtMostTwice() throws {
        let n = 50_000, chain = 2_000
        let emails = (0..<n).map { "e\($0)" }
        var records: [String: HistoryActionFacts] = [
            "archive": HistoryActionFacts(threadIDs: ["t"], causation: nil, targetCount: n),
            "inverse": HistoryActionFacts(threadIDs: ["t", "t2"], causation: "undo-of-archive", targetCount: n),
            "unrelated": HistoryActionFacts(threadIDs: ["t2"], causation: nil, targetCount: 3),
            "far": HistoryActionFacts(threadIDs: ["t3"], causation: "archive", targetCount: 1),
        ]
        for i in 0..<chain {
            records["retry-\(i)"] = HistoryActionFacts(threadIDs: ["t2"], causation: i == 0 ? "inverse" : "retry-\(i - 1)", targetCount: 1)
        }
        var onThread: [String: [String]] = [:]
        for (id, r) in records { for t in r.threadIDs { onThread[t, default: []].append(id) } }
        let asked = Asked()
        var follower = HistoryActionFollower(lookups: HistoryActionLookups(
            actionsOnThread: { t in
                asked.threads += 1
                return onThread[t] ?? []
            },
            actionsOnEmails: { chunk in
                asked.emails += chunk.count
                // Every email was archived and moved back; one names an action the view has no record of.
                return chunk.flatMap { $0 == "e7" ? ["archive", "inverse", "ghost"] : ["archive", "inverse"] }
            },
            facts: { id in
                asked.records += 1
                let r = records[id]
                asked.targets += r?.targetCount ?? 0
                return r
            },
            undoEvents: { $0 == "archive" ? ["undo-of-archive"] : [] }))
        let followed = try follower.follow(given: [], threads: ["t"], emails: emails)

        XCTAssertEqual(followed, Set(["archive", "inverse"] + (0..<chain).map { "retry-\($0)" }))
        let heldTargets = records.values.reduce(0) { $0 + $1.targetCount }
        XCTAssertLessThanOrEqual(asked.records, 2 * (records.count + 1), "each record read at most twice")
        XCTAssertLessThanOrEqual(asked.targets, 2 * heldTargets, "targets read linear in those held")
        XCTAssertEqual(asked.emails, n, "each email's index read once")
        XCTAssertLessThanOrEqual(asked.threads, 4, "each thread's index read once (the subject's twice)")
        XCTAssertEqual(follower.work.emailLookups, (n + HistoryActionFollower.emailChunk - 1) / HistoryActionFollower.emailChunk)
        XCTAssertEqual(follower.work.recordReads, asked.records)
        XCTAssertEqual(follower.work.targetsRead, asked.targets)
        XCTAssertEqual(follower.work.threadLookups, asked.threads)
    }

    /// An action given (`history --action`) is followed even when the view has no record of it; one found in an
    /// index without a record is not.
    func testAGivenActionIsKeptWithoutARecordAnIndexedOneIsNot() throws {
        var follower = HistoryActionFollower(lookups: HistoryActionLookups(
            actionsOnThread: { _ in ["lost"] }, actionsOnEmails: { _ in ["lost"] }, facts: { _ in nil }, undoEvents: { _ in [] }))
        XCTAssertEqual(try follower.follow(given: ["asked"], threads: ["t"], emails: ["e"]), ["asked"])
    }

    /// Through the store: a star thread archived and the archive undone. Its history is every event of its emails'
    /// streams and of both actions' (the archive, its undo, the inverse move), in log order, and finding the actions
    /// read their two records at most twice each, not once per email.
    func testAStarThreadsHistoryAfterArchiveAndUndoReadsEachRecordAtMostTwice() throws {
        let n = 40
        try folder("INBOX", role: .inbox)
        try folder("Archive", role: .archive)
        try receive("e0", subject: "Star")
        for i in 1..<n { try receive("e\(i)", inReplyTo: ["e0@example.com"], subject: "Re: Star") }
        let v = try views()
        let thread = try XCTUnwrap(try v.emailRecord(id: "e0")).threadID
        XCTAssertEqual(try v.threadEmails(id: thread).count, n)
        let actions = ManageThreadActionsUseCase(store: store)
        let archive = try actions.archiveThread(id: thread)
        try actions.undo(actionId: archive.description)
        var inverse: String?
        try store.log.scan { ev in
            if ev.envelope.type == .threadMoved, ev.envelope.causationID != nil { inverse = ev.envelope.id.description }
            return true
        }
        let moved = try XCTUnwrap(inverse, "the undo's inverse move")
        var streams = Set((0..<n).map { StreamName.email("e\($0)").rawValue })
        streams.insert(StreamName.action(archive.description).rawValue)
        streams.insert(StreamName.action(moved).rawValue)
        var expected: [UInt64] = []
        try store.log.scan { ev in
            if streams.contains(ev.envelope.stream) { expected.append(ev.envelope.sequence) }
            return true
        }
        let history = try store.history(of: .thread(thread))
        XCTAssertEqual(history.map(\.envelope.sequence), expected)
        XCTAssertTrue(history.contains { $0.envelope.type == .actionUndone })

        let work = try store.historyWork(of: .thread(thread))
        XCTAssertLessThanOrEqual(work.recordReads, 4, "two actions, each record read at most twice")
        XCTAssertLessThanOrEqual(work.targetsRead, 4 * n)
        XCTAssertEqual(work.emailLookups, 1)
        XCTAssertEqual(try store.history(of: .action(archive.description)).map(\.envelope.sequence),
                       expected.filter { seq in history.contains { $0.envelope.sequence == seq && $0.envelope.stream.hasPrefix("action/") } })
    }
}
