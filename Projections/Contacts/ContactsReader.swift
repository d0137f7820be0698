import EventModel
import Glibc

/// Reads the contacts view: autocomplete from the prefix index.
package struct ContactsReader {
    let snapshot: Snapshot

    /// A reader over `snapshot`.
    package init(_ snapshot: Snapshot) { self.snapshot = snapshot }

    /// The most contacts one completion returns: a completion keeps its best in a sorted list (each offer a
    /// linear insert), and `limit` came from a caller (`--limit` of `Int.max` had overflowed its reservation).
    package static let maxLimit = 1_000

    /// Contacts of `account` whose address, local part or a name word starts with `prefix`
    /// (case-insensitive): those who wrote first, then the most frequent, then the most recent. A prefix of
    /// 1 to `ContactsProjector.topPrefixLength` characters reads its best-contacts list (one lookup, then one
    /// per entry); a longer one reads the list of its first `topPrefixLength` characters where that answers for it,
    /// else the lists of the addresses and name words it starts where those answer (`fromTopList`), else makes one pass
    /// over the prefix index (each entry carries its rank; at most
    /// `candidates` entries), then one lookup per result. At most `maxLimit` contacts, whatever `limit` asks.
    ///
    /// A prefix of several words ("carl w", "worth, c", "jean-l", "o'b"; `queryWords`) completes contacts with a token
    /// starting each word (`completeWords`); one word with blanks or commas around it completes as that word; without a
    /// blank or comma the prefix also completes as one token (an address "jean-l…"), the two merged by rank.
    package func complete(account: String, prefix: String, limit: Int = 10, candidates: Int = 20_000) throws -> [Contact] {
        // In the form the name words were indexed in (`IndexedText`): composed, Greek without its marks, ё as е.
        let lowered = IndexedText.form(prefix.lowercased())
        guard let words = ContactsReader.queryWords(lowered) else {
            return try completeToken(account: account, lowered: lowered, limit: limit, candidates: candidates)
        }
        let several = words.count == 1
            ? try completeToken(account: account, lowered: words[0], limit: limit, candidates: candidates)
            : try completeWords(account: account, words: words, limit: limit, candidates: candidates)
        if lowered.contains(where: { $0.isWhitespace || $0 == "," }) { return several }
        return ContactsReader.merged(several, try completeToken(account: account, lowered: lowered, limit: limit, candidates: candidates),
                                     limit: min(limit, ContactsReader.maxLimit))
    }

    /// The completion of one token's prefix (`lowered`, lowercased): see `complete`.
    private func completeToken(account: String, lowered: String, limit: Int, candidates: Int) throws -> [Contact] {
        let limit = min(limit, ContactsReader.maxLimit)
        // A token longer than a key part is stored bounded: the index is read by its kept beginning.
        let needle = Array(lowered.utf8.prefix(Key.maxPartBytes - 17))
        guard !needle.isEmpty, limit > 0 else { return [] }
        if limit <= ContactsProjector.topSize, let found = try fromTopList(account: account, prefix: lowered, limit: limit) {
            return found
        }
        guard needle.count < lowered.utf8.count else {
            return try scanComplete(account: account, needle: needle, limit: limit, candidates: candidates)
        }
        // Past the kept beginning the index cannot tell the tokens apart: the best `maxLimit` sharing it, each checked
        // against the contact's own tokens (a contact past those, were more than `maxLimit` to share it, is not found).
        return try scanComplete(account: account, needle: needle, limit: ContactsReader.maxLimit, candidates: candidates)
            .filter { ContactsReader.hasToken(name: $0.name, address: $0.address) { $0.hasPrefix(lowered) } }.prefix(limit).map { $0 }
    }

    /// A completion by one pass over the prefix index: every entry whose token starts with `needle` (at most
    /// `candidates`), the best `limit` of them by rank. The entries are read in place (no copy, no string per
    /// entry); only one that enters the best `limit` is copied. An entry whose key or rank does not parse (a
    /// damaged view file) is skipped.
    ///
    /// With `wordLists` (schema 10), a name word of more than `ContactsProjector.topPrefixLength` characters is read
    /// from its best list (`words`) where that list answers for it: when it is not full (it holds every contact
    /// with the word) or holds `limit` contacts that still have the word; then the pass skips the word's entries
    /// (a common name's thousands). Otherwise the word's entries are read as any others.
    package func scanComplete(account: String, needle: [UInt8], limit: Int, candidates: Int = 20_000,
                              wordLists: Bool = true) throws -> [Contact] {
        let limit = min(limit, ContactsReader.maxLimit)
        let accountKey = Key(account).bytes
        let start = accountKey + needle
        var best = ContactCandidates(limit: limit)
        var scanned = 0
        // The word whose entries are being read (its list did not answer), and where to go on after a skipped word.
        var readingWord: [UInt8] = []
        var from = start
        var resume: [UInt8]?
        repeat {
            resume = nil
            try start.withUnsafeBytes { wanted in
                try snapshot.reader.scanBorrowed(ContactsProjector.prefixTable.name, from: from) { key, value in
                    guard key.count >= wanted.count, memcmp(key.baseAddress!, wanted.baseAddress!, wanted.count) == 0 else { return false }
                    scanned += 1
                    let i = ContactsReader.tokenEnd(key, from: wanted.count)
                    let token = UnsafeRawBufferPointer(rebasing: key[accountKey.count..<i])
                    // `hasWordList` by bytes: a word of more than 7 bytes but 7 characters or fewer has no list, and
                    // its lookup finds none (one read); a part cut by `Key` (`maxPartBytes`) is not looked up.
                    if wordLists, token.count > ContactsProjector.topPrefixLength, token.count < Key.maxPartBytes,
                       memchr(token.baseAddress!, Int32(UInt8(ascii: "@")), token.count) == nil,
                       !(readingWord.count == token.count && memcmp(readingWord, token.baseAddress!, token.count) == 0) {
                        if try offerWordList(account: account, accountKey: accountKey, token: token, limit: limit, into: &best, scanned: &scanned) {
                            resume = Array(key[0..<i]) + [1]
                            return false
                        }
                        readingWord = Array(token)
                    }
                    if let address = ContactsReader.address(key, tokenEnd: i), let rank = ContactRank(borrowing: value) {
                        best.offer(rank: rank, address: address)
                    }
                    return scanned < candidates
                }
            }
            if let next = resume { from = next }
        } while resume != nil && scanned < candidates
        return try best.entries.compactMap { entry in
            try snapshot.get(ContactsProjector.peopleTable, accountKey + entry.address + [0])
        }
    }

    /// Offers the contacts of name word `token`'s best list to `best` when the list answers for the word (see
    /// `scanComplete`); false when it does not (no list, or a full one with fewer than `limit` entries still valid).
    private func offerWordList(account: String, accountKey: [UInt8], token: UnsafeRawBufferPointer, limit: Int,
                               into best: inout ContactCandidates, scanned: inout Int) throws -> Bool {
        guard let list = try snapshot.get(ContactsProjector.wordsTable, accountKey + Array(token) + [0]) else { return false }
        let word = String(decoding: token, as: UTF8.self)
        let valid = try stillMatching(list, account: account, limit: limit) { $0 == word }.map(\.entry)
        if list.entries.count >= ContactsProjector.topSize, valid.count < limit { return false }
        scanned += list.entries.count
        for entry in valid {
            var address = Key.bounded(entry.address)
            address.withUTF8 { best.offer(rank: entry.rank, address: UnsafeRawBufferPointer($0)) }
        }
        return true
    }

    /// A completion from the best-contacts list of `prefix`'s first `ContactsProjector.topPrefixLength` characters
    /// (all of a short prefix): its entries in rank order whose contact still has a token starting with `prefix`.
    /// When a full list has fewer than `limit` such entries (stale ones, or for a longer prefix contacts that start only
    /// its first characters, took the room), the lists of a longer prefix's addresses and name words answer if they can
    /// (`fromDeepLists`, for a prefix of more than `topPrefixLength` ASCII characters); nil when they cannot either, so
    /// the caller scans the index instead.
    ///
    /// Why a longer prefix may read the shorter one's list: every contact it matches is matched by its first
    /// characters too, so one ranked above the list's last entry is in the list. When the list is not full it holds
    /// every contact of the shorter prefix; when it holds `limit` that match, they are the best `limit`. Many
    /// addresses sharing a long beginning (`noreply-…`, `notifications+…`) are one lookup, not a scan of them all.
    package func fromTopList(account: String, prefix: String, limit: Int) throws -> [Contact]? {
        let listPrefix = String(prefix.prefix(ContactsProjector.topPrefixLength))
        let list = try snapshot.get(ContactsProjector.topTable, Key(account, listPrefix).bytes) ?? ContactTop()
        let out = try stillMatching(list, account: account, limit: limit) { $0.hasPrefix(prefix) }.map(\.contact)
        if out.count < limit, list.entries.count >= ContactsProjector.topSize {
            return try fromDeepLists(account: account, prefix: prefix, limit: limit)
        }
        return out
    }

    /// The most name words a completion from lists reads the lists of (more: the index scan, which skips their entries).
    static let maxWordLists = 32

    /// A completion of a prefix of more than `ContactsProjector.topPrefixLength` ASCII characters (when the list of its
    /// first 7 is full and does not answer) from lists only: the addresses it starts from the `deep` list of the prefix,
    /// or of its shortest beginning whose list is not full (which holds every address it starts), and the name words it
    /// starts from each word's list (`words`: every word of 8 characters or more has one). Their best `limit` together,
    /// in rank order, are the scan's: a contact is matched by its address or a name word. Nil (the caller scans) when
    /// a list is missing or does not answer: no `deep` list (no address starts the prefix, or the view has none), a
    /// prefix longer than `deepPrefixLength` whose list is full, more than `maxWordLists` words, a word's full list with
    /// fewer than `limit` contacts still having it, a word cut in its key. At most `limit` <= `topSize`.
    package func fromDeepLists(account: String, prefix: String, limit: Int) throws -> [Contact]? {
        let p = Array(prefix.utf8)
        guard limit <= ContactsProjector.topSize, p.count > ContactsProjector.topPrefixLength,
              p.allSatisfy(ContactsProjector.deepByte) else { return nil }
        let base = Key(account)
        var addresses: ContactTop?
        for length in (ContactsProjector.topPrefixLength + 1)...min(p.count, ContactsProjector.deepPrefixLength) {
            guard let list = try snapshot.get(ContactsProjector.deepTable, ContactsProjector.listKey(base, p[0..<length])) else { return nil }
            if list.entries.count < ContactsProjector.topSize || length == p.count {
                addresses = list
                break
            }
        }
        guard let addresses else { return nil }
        var candidates: [(entry: ContactTop.Entry, contact: Contact?)] = []
        for (e, read) in try rankedEntries(addresses, account: account) where e.address.utf8.starts(with: p) {
            candidates.append((e, read ?? nil))
        }
        var wordCount = 0
        var answered = true
        try snapshot.scan(ContactsProjector.wordsTable, prefix: base.bytes + p) { key, list in
            wordCount += 1
            let part = key[base.bytes.count..<(key.count - 1)]
            guard wordCount <= ContactsReader.maxWordLists, !part.contains(Key.hashMarker) else {
                answered = false
                return false
            }
            let word = String(decoding: part, as: UTF8.self)
            let valid = try stillMatching(list, account: account, limit: limit) { $0 == word }
            if list.entries.count >= ContactsProjector.topSize, valid.count < limit {
                answered = false
                return false
            }
            candidates += valid.map { ($0.entry, $0.contact) }
            return true
        }
        guard answered else { return nil }
        candidates.sort { ContactTop.before($0.entry, $1.entry) }
        var out: [Contact] = []
        var taken = Set<[UInt8]>()
        for c in candidates where out.count < limit && taken.insert(Array(c.entry.address.utf8)).inserted {
            if let contact = try c.contact ?? snapshot.get(ContactsProjector.peopleTable, Key(account, c.entry.address).bytes) {
                out.append(contact)
            }
        }
        return out
    }

    /// The entries of `list` in rank order, each with its contact where that was read (`read`: nil when not read, `.some(nil)`
    /// when there is none). A list that is not full holds its addresses unranked (`ContactTop.unranked`, in address
    /// order): each entry's contact is read (at most `topSize` - 1 lookups) and gives the entry its rank now, and they are
    /// sorted as a full list is kept (`ContactTop.before`). A full list's entries as they are, no contact read.
    package func rankedEntries(_ list: ContactTop, account: String) throws -> [(entry: ContactTop.Entry, read: Contact??)] {
        guard !list.isFull(capacity: ContactsProjector.topSize) else { return list.entries.map { ($0, nil) } }
        var out: [(entry: ContactTop.Entry, read: Contact??)] = []
        out.reserveCapacity(list.entries.count)
        for var e in list.entries {
            let contact = try snapshot.get(ContactsProjector.peopleTable, Key(account, e.address).bytes)
            e.rank = contact.map(ContactRank.init) ?? ContactTop.unranked
            out.append((e, .some(contact)))
        }
        out.sort { ContactTop.before($0.entry, $1.entry) }
        return out
    }

    /// The entries of a best list (`top` or `words`) whose contact still has a token `matches` accepts, in rank order
    /// (`rankedEntries`), at most `limit`, each with its contact: an entry left stale by a name change is dropped here.
    private func stillMatching(_ list: ContactTop, account: String, limit: Int,
                               _ matches: (String) -> Bool) throws -> [(entry: ContactTop.Entry, contact: Contact)] {
        try stillMatching(list, account: account, limit: limit, contact: { ContactsReader.hasToken(name: $0, address: $1, where: matches) })
    }

    /// The entries of a best list whose contact (its name and the entry's address) `matches` accepts (`completeWords`
    /// asks for a token starting each word), in rank order (`rankedEntries`), at most `limit`, each with its contact.
    func stillMatching(_ list: ContactTop, account: String, limit: Int,
                       contact matches: (_ name: String?, _ address: String) -> Bool) throws -> [(entry: ContactTop.Entry, contact: Contact)] {
        var out: [(entry: ContactTop.Entry, contact: Contact)] = []
        for (entry, read) in try rankedEntries(list, account: account) where out.count < limit {
            guard let c = try read ?? snapshot.get(ContactsProjector.peopleTable, Key(account, entry.address).bytes) else { continue }
            if matches(c.name, entry.address) { out.append((entry, c)) }
        }
        return out
    }

    /// Whether one of the tokens of a contact named `name` at `address` (`ContactsProjector.tokens`) is one `matches`
    /// accepts: made one at a time until one is.
    static func hasToken(name: String?, address: String, where matches: (String) -> Bool) -> Bool {
        var found = false
        ContactsProjector.forEachToken(name: name, address: address) { found = matches($0); return !found }
        return found
    }

    /// Every contact of `account`, by address.
    package func all(account: String, limit: Int = .max) throws -> [Contact] {
        try snapshot.prefixed(ContactsProjector.peopleTable, Key(account).bytes, limit: limit).map(\.1)
    }

    /// Calls `body` with `account`'s contacts by address, from after the key `after` (nil: the first), at most
    /// `visits` of them; returns the key to go on after, nil when all are visited.
    package func forEach(account: String, after: [UInt8]?, visits: Int, _ body: (Contact) -> Void) throws -> [UInt8]? {
        var visited = 0
        var last: [UInt8]?
        var more = false
        try snapshot.scan(ContactsProjector.peopleTable, prefix: Key(account).bytes, from: after) { key, c in
            if let after, key == after { return true }
            if visited == visits { more = true; return false }
            visited += 1
            last = key
            body(c)
            return true
        }
        return more ? last : nil
    }

    /// Those of `addresses` (lowercased) that are the user's own by their mail in `account`'s Sent-role folders
    /// (`Contact.isUsersOwn`: an alias, another identity). One lookup for each distinct address, for at most `limit`.
    package func sentAs(account: String, among addresses: [String], limit: Int = 1_024) throws -> Set<String> {
        var out = Set<String>()
        var looked = Set<String>()
        for a in addresses where a.utf8.count <= ViewBounds.maxAddressBytes {
            let address = a.folded
            guard looked.insert(address).inserted else { continue }
            if looked.count > limit { break }
            if let c = try snapshot.get(ContactsProjector.peopleTable, Key(account, address).bytes), c.isUsersOwn {
                out.insert(address)
            }
        }
        return out
    }

    /// The addresses (lowercased) of `account` the user wrote to, at most `limit`.
    package func correspondents(account: String, limit: Int = 100_000) throws -> Set<String> {
        try people(account: account, limit: limit).wroteTo
    }

    /// In one pass over `account`'s contacts: the addresses (lowercased) the user wrote to, and those that are the
    /// user's own by their mail (`Contact.isUsersOwn`: an alias), at most `limit` of each.
    package func people(account: String, limit: Int = 100_000) throws -> (wroteTo: Set<String>, own: Set<String>) {
        var wroteTo = Set<String>(), own = Set<String>()
        try snapshot.scan(ContactsProjector.peopleTable, prefix: Key(account).bytes) { _, c in
            if c.wroteTo > 0 && wroteTo.count < limit { wroteTo.insert(c.address.lowercased()) }
            if c.isUsersOwn && own.count < limit { own.insert(c.address.lowercased()) }
            return wroteTo.count < limit || own.count < limit
        }
        return (wroteTo, own)
    }
}
