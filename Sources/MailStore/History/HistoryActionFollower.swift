/// Which actions a history follows: those it starts from (given, or indexed as touching its thread or one of its
/// emails), and, transitively, the actions taken because of one of them (a retry, whose causation is the action, or
/// an undo's inverse, whose causation is one of the action's `ActionUndone` events) that touched one of its threads.
///
/// The emails' and threads' actions are read from the view's indexes alone, each thread's once, and each action's
/// record at most twice (once for its causation, once for its threads when followed), so the work is linear in the
/// emails, the actions met and their targets. It used to read, for each email, the record of every action on it
/// (to order them), and for each action followed, the record of every action on its threads: a thread of N emails
/// with one action on all of them read N records of N targets (10,000 emails: 29 s after one archive and its undo;
/// 40,000: 437 s).
///
/// Memory: bounded by the distinct actions met, never by their targets or the emails (read 1,024 at a time): the
/// ids followed and queued, each met action's causation (two ids, ~100 bytes an action), and for each thread looked
/// at the ids of its actions that have a causation; a record's facts (its threads) are held only while it is followed.
package struct HistoryActionFollower {
    /// The work done so far: what a test counts, to see it grows with the emails, actions and targets alone.
    package struct Work: Sendable, Equatable {
        /// Reads of the emails' index of actions (one per chunk of `emailChunk` emails).
        package var emailLookups = 0
        /// Threads whose index of actions was read.
        package var threadLookups = 0
        /// Action records read.
        package var recordReads = 0
        /// Targets in the records read.
        package var targetsRead = 0
        /// Action streams scanned for their `ActionUndone` events.
        package var undoLookups = 0

        /// No work yet.
        package init() {}
    }

    /// How many emails' actions one `actionsOnEmails` reads.
    package static let emailChunk = 1_024

    /// The work done so far.
    package private(set) var work = Work()
    private let lookups: HistoryActionLookups
    /// Each action met: its causation (nil: none, or no record).
    private var causations: [String: String?] = [:]
    /// Each thread looked at: its actions that have a causation, by causation.
    private var threadsByCause: [String: [String: [String]]] = [:]

    /// A follower making `lookups`.
    package init(lookups: HistoryActionLookups) { self.lookups = lookups }

    /// The actions to follow from `given` (kept even when the view has no record of one, as `history --action`
    /// asks) and from those indexed as touching `threads` or `emails` (one without a record is left out), with those
    /// taken because of them.
    package mutating func follow(given: [String], threads: [String], emails: [String]) throws -> Set<String> {
        let kept = Set(given)
        var queued = kept
        for t in threads {
            work.threadLookups += 1
            queued.formUnion(try lookups.actionsOnThread(t))
        }
        var start = emails.startIndex
        while start < emails.endIndex {
            let end = min(emails.endIndex, start + Self.emailChunk)
            work.emailLookups += 1
            queued.formUnion(try lookups.actionsOnEmails(Array(emails[start..<end])))
            start = end
        }
        var followed = Set<String>()
        var queue = Array(queued)
        while let a = queue.popLast() {
            guard let r = try facts(a) else {
                if kept.contains(a) { followed.insert(a) }
                continue
            }
            followed.insert(a)
            work.undoLookups += 1
            var causes: Set<String> = [a]
            for u in try lookups.undoEvents(a) { causes.insert(u) }
            for t in r.threadIDs {
                let byCause = try actionsByCause(thread: t)
                for c in causes {
                    for other in byCause[c] ?? [] where queued.insert(other).inserted { queue.append(other) }
                }
            }
        }
        return followed
    }

    /// An action's facts, its causation kept.
    private mutating func facts(_ id: String) throws -> HistoryActionFacts? {
        work.recordReads += 1
        let f = try lookups.facts(id)
        work.targetsRead += f?.targetCount ?? 0
        causations[id] = .some(f?.causation)
        return f
    }

    /// A thread's actions that have a causation, by causation: read once per thread, each record at most once.
    private mutating func actionsByCause(thread: String) throws -> [String: [String]] {
        if let known = threadsByCause[thread] { return known }
        work.threadLookups += 1
        var byCause: [String: [String]] = [:]
        for id in try lookups.actionsOnThread(thread) {
            let cause: String?
            if let known = causations[id] { cause = known } else { cause = try facts(id)?.causation }
            if let cause { byCause[cause, default: []].append(id) }
        }
        threadsByCause[thread] = byCause
        return byCause
    }
}
