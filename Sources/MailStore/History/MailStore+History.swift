import EventLog
import EventModel
import Projections
import Views

extension MailStore {
    /// Every event that touched a thread, an email or an action, in log order: the emails' own events
    /// (received, flags, expunged), every action on them with its outcomes and compensations, and the
    /// actions that undo or retry those actions. Holds them all: `forEachHistoryEvent` holds only their sequences.
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
        try log.events(at: try historySequences(of: subject), body)
    }

    /// The sequences of `subject`'s history, ascending.
    private func historySequences(of subject: HistorySubject) throws -> [UInt64] {
        let views = try latestViews()
        var emails: [String] = []
        var actions: [String] = []
        switch subject {
        case .thread(let id):
            emails = try views.threadEmails(id: id).map(\.id)
            actions = try views.actionIDs(touching: id)
        case .email(let id):
            emails = [id]
        case .action(let id):
            actions = [id]
        case .account(let name):
            var sequences: [UInt64] = []
            try log.scan(filter: ScanFilter(stream: .account(name))) { ev in
                sequences.append(ev.envelope.sequence)
                return true
            }
            return sequences
        }
        for e in emails { actions += try views.actionIDs(touching: e, email: true) }
        var streams = Set(emails.map { StreamName.email($0) })
        var queue = actions
        var seen = Set<String>()
        while let a = queue.popLast() {
            guard seen.insert(a).inserted else { continue }
            streams.insert(StreamName.action(a))
            // Actions taken because of this one: retries (causation = it) and undo inverses (causation = its ActionUndone).
            guard let r = try views.action(id: a) else { continue }
            var causes: Set<String> = [a]
            try log.scan(filter: ScanFilter(types: [.actionUndone], stream: .action(a))) { ev in
                causes.insert(ev.envelope.id.description)
                return true
            }
            for t in r.threadIDs {
                for other in try views.actionIDs(touching: t) where !seen.contains(other) {
                    if let c = try views.action(id: other)?.causation, causes.contains(c.description) { queue.append(other) }
                }
            }
        }
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
}
