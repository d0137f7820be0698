import EventLog
import EventModel
import Projections
import Views

extension MailStore {
    /// Every event that touched a thread, an email or an action, in log order: the emails' own events
    /// (received, flags, expunged), every action on them with its outcomes and compensations, and the
    /// actions that undo or retry those actions.
    public func history(of subject: HistorySubject) throws -> [StoredEvent] {
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
            var events: [StoredEvent] = []
            try log.scan(filter: ScanFilter(stream: .account(name))) { ev in
                events.append(ev)
                return true
            }
            return events
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
        var events: [UInt64: StoredEvent] = [:]
        for s in streams {
            try log.scan(filter: ScanFilter(stream: s)) { ev in
                events[ev.envelope.sequence] = ev
                return true
            }
        }
        return events.keys.sorted().map { events[$0]! }
    }
}
