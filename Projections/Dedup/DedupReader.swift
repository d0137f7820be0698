/// Reads the dedup view.
package struct DedupReader {
    let snapshot: Snapshot

    /// A reader over `snapshot`.
    package init(_ snapshot: Snapshot) { self.snapshot = snapshot }

    /// The copies of a message (emails and folders) in `account`.
    package func copies(account: String, messageID: String) throws -> [DedupCopy] {
        try snapshot.get(DedupProjector.messagesTable, DedupProjector.messageKey(account: account, messageID: messageID)) ?? []
    }

    /// Every message of `account` with more than one copy (a Message-ID over `Key.maxPartBytes` bytes
    /// shows in its bounded form).
    package func duplicates(account: String) throws -> [(String, [DedupCopy])] {
        var out: [(String, [DedupCopy])] = []
        var after: [UInt8]?
        repeat {
            let page = try duplicates(account: account, after: after, visits: .max)
            out += page.found
            after = page.next
        } while after != nil
        return out
    }

    /// The messages of `account` with more than one copy whose keys follow `after` (the `next` of a previous
    /// page; nil: from the first), visiting at most `visits` messages and keeping at most `limit`: those found,
    /// and the key to go on after (nil when the account's messages are all visited). Only the duplicates are
    /// kept, not every message read.
    package func duplicates(account: String, after: [UInt8]?, visits: Int, limit: Int = .max) throws -> (found: [(String, [DedupCopy])], next: [UInt8]?) {
        let prefix = Key(account).bytes
        var found: [(String, [DedupCopy])] = []
        var visited = 0
        var last: [UInt8]?
        var more = false
        try snapshot.scan(DedupProjector.messagesTable, prefix: prefix, from: after) { key, copies in
            if let after, key == after { return true }
            if visited == visits || found.count == limit { more = true; return false }
            visited += 1
            last = key
            if copies.count > 1 {
                var r = KeyReader(key)
                _ = r.string()
                found.append((r.string(), copies))
            }
            return true
        }
        return (found, more ? last : nil)
    }

    /// True when a notification was delivered for `emailID` (and not yet evicted).
    package func wasNotified(emailID: String) throws -> Bool {
        try snapshot.get(DedupProjector.notifiedTable, Key(emailID).bytes) != nil
    }
}
