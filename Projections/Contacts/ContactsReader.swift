/// Reads the contacts view: autocomplete from the prefix index.
package struct ContactsReader {
    let snapshot: Snapshot

    /// A reader over `snapshot`.
    package init(_ snapshot: Snapshot) { self.snapshot = snapshot }

    /// Contacts of `account` whose address, local part or a name word starts with `prefix`
    /// (case-insensitive): those who wrote first, then the most frequent, then the most recent. A prefix of
    /// 1 to `ContactsProjector.topPrefixLength` characters reads its best-contacts list (one lookup, then one
    /// per entry); a longer one makes one pass over the prefix index (each entry carries its rank; at most
    /// `candidates` entries), then one lookup per result.
    package func complete(account: String, prefix: String, limit: Int = 10, candidates: Int = 20_000) throws -> [Contact] {
        // A token longer than a key part is stored bounded: match on its kept beginning.
        let lowered = prefix.lowercased()
        let needle = Array(lowered.utf8.prefix(Key.maxPartBytes - 17))
        guard !needle.isEmpty, limit > 0 else { return [] }
        if lowered.count <= ContactsProjector.topPrefixLength, limit <= ContactsProjector.topSize,
           let found = try fromTopList(account: account, prefix: lowered, limit: limit) {
            return found
        }
        return try scanComplete(account: account, needle: needle, limit: limit, candidates: candidates)
    }

    /// A completion by one pass over the prefix index: every entry whose token starts with `needle` (at most
    /// `candidates`), the best `limit` of them by rank.
    package func scanComplete(account: String, needle: [UInt8], limit: Int, candidates: Int = 20_000) throws -> [Contact] {
        var start = Key(account).bytes
        start.append(contentsOf: needle)
        var best: [String: ContactRank] = [:]
        var scanned = 0
        try snapshot.scan(ContactsProjector.prefixTable, prefix: start) { key, rank in
            scanned += 1
            var r = KeyReader(key)
            _ = r.string()
            _ = r.string()
            let address = r.string()
            if best[address] == nil { best[address] = rank }
            return scanned < candidates
        }
        let top = best.sorted { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) }.prefix(limit)
        return try top.compactMap { address, _ in try snapshot.get(ContactsProjector.peopleTable, Key(account, address).bytes) }
    }

    /// A completion from the best-contacts list of a short prefix: its entries in rank order whose contact
    /// still has a token starting with `prefix`. Nil when a full list has fewer than `limit` such entries (stale
    /// ones took the room), so the caller scans the index instead.
    func fromTopList(account: String, prefix: String, limit: Int) throws -> [Contact]? {
        let list = try snapshot.get(ContactsProjector.topTable, Key(account, prefix).bytes) ?? ContactTop()
        var out: [Contact] = []
        for entry in list.entries where out.count < limit {
            guard let c = try snapshot.get(ContactsProjector.peopleTable, Key(account, entry.address).bytes) else { continue }
            let tokens = ContactsProjector.tokens(name: c.name, address: entry.address)
            if tokens.contains(where: { $0.hasPrefix(prefix) }) { out.append(c) }
        }
        if out.count < limit, list.entries.count >= ContactsProjector.topSize { return nil }
        return out
    }

    /// Every contact of `account`, by address.
    package func all(account: String, limit: Int = .max) throws -> [Contact] {
        try snapshot.prefixed(ContactsProjector.peopleTable, Key(account).bytes, limit: limit).map(\.1)
    }

    /// The addresses (lowercased) of `account` the user wrote to, at most `limit`.
    package func correspondents(account: String, limit: Int = 100_000) throws -> Set<String> {
        var out = Set<String>()
        try snapshot.scan(ContactsProjector.peopleTable, prefix: Key(account).bytes) { _, c in
            if c.wroteTo > 0 { out.insert(c.address.lowercased()) }
            return out.count < limit
        }
        return out
    }
}
