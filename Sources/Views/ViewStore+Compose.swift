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
    /// (case-insensitive): those who wrote first, then the most frequent, then the most recent. One cursor
    /// pass over the prefix index (each entry carries its rank), then one lookup per result.
    public func completeContacts(account: String, prefix: String, limit: Int = 10, candidates: Int = 20_000) throws -> [Contact] {
        let needle = prefix.lowercased()
        guard !needle.isEmpty, limit > 0 else { return [] }
        var start = Key(account).bytes
        start.append(contentsOf: needle.utf8)
        let tokens = databases["contacts.prefix"]!, people = databases["contacts.people"]!
        return try environment.read { txn in
            var best: [String: ContactRank] = [:]
            var scanned = 0
            try txn.withCursor(tokens) { c in
                var e = try start.withUnsafeBytes { try c.seek(atLeast: $0) }
                while let entry = e, entry.key.starts(with: start), scanned < candidates {
                    scanned += 1
                    var r = KeyReader(Array(entry.key))
                    _ = r.string()
                    _ = r.string()
                    let address = r.string()
                    if best[address] == nil {
                        var vr = ByteReader(entry.value)
                        best[address] = try ContactRank(from: &vr)
                    }
                    e = try c.next()
                }
            }
            let top = best.sorted { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) }.prefix(limit)
            return try top.compactMap { address, _ in
                guard let raw = try Key(account, address).bytes.withUnsafeBytes({ try txn.get(people, key: $0) }) else { return nil }
                var r = ByteReader(raw)
                return try Contact(from: &r)
            }
        }
    }
}
