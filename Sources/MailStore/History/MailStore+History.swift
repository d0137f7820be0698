import EventLog
import EventModel
import Projections
import Views

extension MailStore {
    /// Every event that touched a thread, an email or an action, in log order: the emails' own events
    /// (received, flags, expunged), every action on them with its outcomes and compensations, and the
    /// actions that undo or retry those actions. A thread's emails are its copies now, the copy that founded it and
    /// the copies its actions took (`pastCopies`): those expunged or moved out of it since, and a thread all of
    /// whose mail was expunged, keep their receipts, flag changes and expunges in its history. Holds them all: `forEachHistoryEvent` holds only their sequences.
    public func history(of subject: HistorySubject) throws -> [StoredEvent] {
        var events: [StoredEvent] = []
        try forEachHistoryEvent(of: subject) { events.append($0); return true }
        return events
    }

    /// Calls `body` with each event of `subject`'s history (as `history(of:)`), in log order, until it returns false.
    /// Its memory: 8 bytes per event of the history (their sequences, gathered from the streams and sorted), the
    /// ids of the emails and actions it follows, and 512 decoded events at a time (`EventLog.events(at:)`), so a
    /// thread of 100,000 events takes ~1 MB where the events themselves had all been held.
    public func forEachHistoryEvent(of subject: HistorySubject, _ body: (StoredEvent) throws -> Bool) throws {
        var work = HistoryActionFollower.Work()
        try log.events(at: try historySequences(of: subject, work: &work), body)
    }

    /// The work `history` does to find which actions `subject`'s history follows (a seam for tests: it grows with
    /// the actions and their targets, never with emails times targets).
    package func historyWork(of subject: HistorySubject) throws -> HistoryActionFollower.Work {
        var work = HistoryActionFollower.Work()
        _ = try historySequences(of: subject, work: &work)
        return work
    }

    /// The sequences of `subject`'s history, ascending; `work` gets what finding its actions took.
    ///
    /// Linear in the emails, the actions met and their targets (`HistoryActionFollower`: the emails' actions are read
    /// from the index alone, 1,024 emails per read transaction, each action's record at most twice). Memory beyond the
    /// sequences (8 bytes an event): the emails' ids and the bound of `HistoryActionFollower` (the distinct actions met).
    private func historySequences(of subject: HistorySubject, work: inout HistoryActionFollower.Work) throws -> [UInt64] {
        let views = try latestViews()
        var emails: [String] = []
        var threads: [String] = []
        var given: [String] = []
        switch subject {
        case .thread(let id):
            emails = try views.threadEmails(id: id).map(\.id)
            // The copy that founded the thread (its id is the thread's, or the thread's begins with it and `-`),
            // wherever it is now: expunged, moved to another folder by another client, or merged away.
            let founder = String(id.prefix { $0 != "-" })
            if !founder.isEmpty, !emails.contains(founder) { emails.append(founder) }
            threads = [id]
        case .email(let id):
            emails = [id]
        case .action(let id):
            given = try historyActions(named: id)
        case .account(let name):
            var sequences: [UInt64] = []
            try log.scan(filter: ScanFilter(stream: .account(name))) { ev in
                sequences.append(ev.envelope.sequence)
                return true
            }
            return sequences
        }
        let log = self.log
        var follower = HistoryActionFollower(lookups: HistoryActionLookups(
            actionsOnThread: { t in try views.read { try ActionsReader($0).indexedActionIDs(touching: t) } },
            actionsOnEmails: { chunk in
                try views.read { snapshot in
                    let reader = ActionsReader(snapshot)
                    return try chunk.flatMap { try reader.indexedActionIDs(touching: $0, email: true) }
                }
            },
            facts: { id in
                try views.action(id: id).map {
                    HistoryActionFacts(threadIDs: $0.threadIDs, causation: $0.causation?.description, targetCount: $0.targets.count)
                }
            },
            // Actions taken because of one: retries (causation = it) and undo inverses (causation = its ActionUndone).
            undoEvents: { a in
                var ids: [String] = []
                try log.scan(filter: ScanFilter(types: [.actionUndone], stream: .action(a))) { ev in
                    ids.append(ev.envelope.id.description)
                    return true
                }
                return ids
            }))
        let actions = try follower.follow(given: given, threads: threads, emails: emails)
        work = follower.work
        if case .thread(let id) = subject {
            emails += try pastCopies(ofThread: id, actions: actions, known: Set(emails), views: views)
        }
        var streams = Set(emails.map { StreamName.email($0) })
        for a in actions { streams.insert(StreamName.action(a)) }
        // An event is in one stream: the streams' sequences are distinct.
        var sequences: [UInt64] = []
        for s in streams {
            try log.scan(filter: ScanFilter(stream: s)) { ev in
                sequences.append(ev.envelope.sequence)
                return true
            }
        }
        return sequences.sorted()
    }

    /// The copies the actions on thread `id` (of `actions`, those naming it) took that are not in `known`: copies the
    /// thread had then, since expunged, moved elsewhere by another client or replaced by the server's copy in the
    /// folder the action put them in, whose own events (received, flags, expunged) belong to the thread's history.
    /// A target of an action on this thread alone is the thread's; one of an action on several threads is the
    /// thread's when the message its receipt names (its Message-ID) is one the thread's record links to it.
    ///
    /// Bound: one record read per action naming the thread, and, for actions on several threads, one look-up in the
    /// views per target not already known (a copy still there belongs to the thread it is in now) and one receipt read
    /// (the first event of the copy's stream, through the stream index) per target gone, at most `historyReceiptReads`
    /// in all; memory: the copies found (the thread's). A copy no action took that did not found the thread (a reply
    /// expunged on the server, no action on its thread) is not found: the views keep no id of an expunged copy.
    private func pastCopies(ofThread id: String, actions: Set<String>, known: Set<String>, views: ViewStore) throws -> [String] {
        var found = Set<String>()
        var receipts = 0
        var linked: Set<String>?
        for a in actions.sorted() {
            guard let record = try views.action(id: a), record.threadIDs.contains(id) else { continue }
            for target in record.targets where !known.contains(target.emailID) && !found.contains(target.emailID) {
                if record.threadIDs.count == 1 {
                    found.insert(target.emailID)
                    continue
                }
                if let live = try views.emailRecord(id: target.emailID) {
                    if live.threadID == id { found.insert(target.emailID) }
                    continue
                }
                guard receipts < MailStore.historyReceiptReads else { continue }
                receipts += 1
                if linked == nil {
                    linked = Set(try views.read { try ThreadsReader($0).record(thread: id) }?.memberKeys ?? [])
                }
                var key: String?
                try log.scan(filter: ScanFilter(types: [.emailReceived], stream: .email(target.emailID))) { ev in
                    if case .emailReceived(let p) = try ev.decode() { key = ViewBounds.id(p.messageKey) }
                    return false
                }
                if let key, linked?.contains(key) == true { found.insert(target.emailID) }
            }
        }
        return found.sorted()
    }

    /// The most receipts `history --thread` reads to tell which gone targets of actions on several threads were its own.
    package static let historyReceiptReads = 10_000

    /// The most causation steps `historyActions(named:)` follows back from the action asked about.
    package static let historyCauseHops = 64

    /// The actions `history --action id` starts from: the action `id` names, either itself or the one an outcome or
    /// compensation of it answers (the `ActionUndone` whose id `undo` prints lives in the undone action's stream,
    /// where `history --action` had found nothing), and the actions it was taken because of, followed back through
    /// causation ids (an undo's inverse names the `ActionUndone`, which names the undone action; a retry names the
    /// action retried). Bound: at most `historyCauseHops` events read by id (one lookup and one read each). An id no
    /// event has is kept as it is (the view may still know the action).
    private func historyActions(named id: String) throws -> [String] {
        guard var next = EventID(id) else { return [id] }
        var actions: [String] = []
        var seen = Set<EventID>()
        for _ in 0..<Self.historyCauseHops {
            guard seen.insert(next).inserted, let at = try log.sequence(of: next), let ev = try log.event(at: at),
                  let decoded = try? ev.decode() else { break }
            if decoded.threadAction != nil {
                actions.append(next.description)
                guard let cause = ev.envelope.causationID else { break }
                next = cause
            } else if let answered = Self.actionAnswered(by: decoded) {
                next = answered
            } else {
                break
            }
        }
        return actions.isEmpty ? [id] : actions
    }

    /// The action an outcome or compensation answers (`ActionApplied`, `ActionFailed`, `ActionRejected`,
    /// `FlagRejected`, `ActionReverted`, `ActionUndone`), or nil for another event.
    package static func actionAnswered(by event: DomainEvent) -> EventID? {
        switch event {
        case .actionApplied(let p): p.actionID
        case .actionFailed(let p): p.actionID
        case .actionRejected(let p): p.actionID
        case .flagRejected(let p): p.actionID
        case .actionReverted(let p): p.actionID
        case .actionUndone(let p): p.actionID
        default: nil
        }
    }
}
