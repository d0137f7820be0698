import EventModel
import Projections

extension ViewStore {
    /// The emails of a thread as the threads view has them (each copy's folder, flags, message key).
    public func threadEmails(id: String) throws -> [(id: String, email: EmailRecord)] {
        guard let t = try value("threads.threads", Key(id).bytes, as: ThreadRecord.self) else { return [] }
        return try t.emailIDs.compactMap { e in try emailRecord(id: e).map { (e, $0) } }
    }

    /// One email copy as the threads view has it.
    public func emailRecord(id: String) throws -> EmailRecord? {
        try value("threads.emails", Key(id).bytes, as: EmailRecord.self)
    }

    /// The server copy (folder, UID, flags as the server has them) of an email, if the sync engine knows one.
    public func syncedCopy(account: String, emailID: String) throws -> (folder: String, copy: SyncedCopy)? {
        guard let at = try value("sync.emails", Key(emailID).bytes, as: CopyLocation.self),
              let copy = try value("sync.copies", SyncStateProjector.copyKey(account: account, folder: at.folder, uid: at.uid),
                                   as: SyncedCopy.self) else { return nil }
        return (at.folder, copy)
    }

    /// An action and its outcome so far.
    public func action(id: String) throws -> ActionRecord? {
        try value("actions.items", Key(id).bytes, as: ActionRecord.self)
    }

    /// The actions of `account` not yet written back, oldest first.
    public func pendingActions(account: String) throws -> [ActionRecord] {
        try prefixed("actions.pending", Key(account).bytes, as: String.self).compactMap { try action(id: $0.1) }
    }

    /// The actions of `account` that failed or were refused and were not retried or undone, oldest first.
    public func failedActions(account: String) throws -> [ActionRecord] {
        try prefixed("actions.failed", Key(account).bytes, as: String.self).compactMap { try action(id: $0.1) }
    }

    /// The ids of the actions that touched a thread (or, with `email: true`, an email), oldest first.
    public func actionIDs(touching id: String, email: Bool = false) throws -> [String] {
        let ids = try prefixed(email ? "actions.byEmail" : "actions.byThread", Key(id).bytes, as: Present.self).map { key, _ in
            var r = KeyReader(key)
            _ = r.string()
            return r.string()
        }
        return try ids.compactMap { try action(id: $0) }.sorted { $0.sequence < $1.sequence }.map(\.id.description)
    }
}
