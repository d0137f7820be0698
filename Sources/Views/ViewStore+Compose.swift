import EventModel
import LMDB
import Projections

extension ViewStore {
    /// A draft at its latest version, or nil (never saved, deleted or sent).
    public func draft(id: String) throws -> DraftRecord? {
        try value("drafts.items", Key(id).bytes, as: DraftRecord.self)
    }

    /// A draft's place in the outbox (draft, queued, sending, sent, failed), or nil.
    public func outboxItem(draftID: String) throws -> OutboxItem? {
        try value("outbox.items", Key(draftID).bytes, as: OutboxItem.self)
    }

    /// The drafts of `account`.
    public func drafts(account: String) throws -> [DraftRecord] {
        try prefixed("drafts.index", Key(account).bytes, as: Present.self).compactMap { key, _ in
            var r = KeyReader(key)
            _ = r.string()
            return try draft(id: r.string())
        }
    }

    /// Contacts of `account` whose address, local part or a name word starts with `prefix`
    /// (case-insensitive): those who wrote first, then the most frequent, then the most recent.
    public func completeContacts(account: String, prefix: String, limit: Int = 10, candidates: Int = 2000) throws -> [Contact] {
        let needle = prefix.lowercased()
        guard !needle.isEmpty else { return [] }
        var start = Key(account).bytes
        start.append(contentsOf: needle.utf8)
        let tokens = databases["contacts.prefix"]!, people = databases["contacts.people"]!
        return try environment.read { txn in
            var addresses: [String] = []
            var seen = Set<String>()
            try txn.withCursor(tokens) { c in
                var e = try start.withUnsafeBytes { try c.seek(atLeast: $0) }
                while let entry = e, entry.key.starts(with: start), addresses.count < candidates {
                    var r = KeyReader(Array(entry.key))
                    _ = r.string()
                    _ = r.string()
                    let address = r.string()
                    if seen.insert(address).inserted { addresses.append(address) }
                    e = try c.next()
                }
            }
            var found: [Contact] = []
            for a in addresses {
                guard let raw = try Key(account, a).bytes.withUnsafeBytes({ try txn.get(people, key: $0) }) else { continue }
                var r = ByteReader(raw)
                found.append(try Contact(from: &r))
            }
            found.sort { x, y in
                if (x.sent > 0) != (y.sent > 0) { return x.sent > 0 }
                if x.count != y.count { return x.count > y.count }
                return x.lastSeen > y.lastSeen
            }
            return Array(found.prefix(limit))
        }
    }
}
