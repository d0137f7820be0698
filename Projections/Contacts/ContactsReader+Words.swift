import EventModel
import Glibc

extension ContactsReader {
    /// The most words of a prefix matched: a name is indexed by at most `ContactsProjector.maxNameWords`.
    package static let maxQueryWords = ContactsProjector.maxNameWords

    /// The words of a typed prefix (`lowered`) that names several words ("carl w", "worth, c", "jean-l", "o'b", "carl "),
    /// at most `maxQueryWords`: split at blanks and commas, and at a hyphen or apostrophe between two letters (as in a
    /// name). Nil when it is one token as typed: nothing to split, or an @ in it (an address's prefix, matched whole).
    /// An address's other characters do not split it ("noreply-", "noreply-1", "john.sm" are one token each).
    package static func queryWords(_ lowered: String) -> [String]? {
        guard !lowered.utf8.contains(UInt8(ascii: "@")) else { return nil }
        var words: [String] = []
        for chunk in lowered.split(whereSeparator: { $0.isWhitespace || $0 == "," }) where words.count < maxQueryWords {
            let chars = Array(chunk)
            var start = 0
            for i in chars.indices where i > start && i + 1 < chars.count && "-'\u{2019}".contains(chars[i])
                && chars[i - 1].isLetter && chars[i + 1].isLetter {
                words.append(String(chars[start..<i]))
                start = i + 1
            }
            words.append(String(chars[start...]))
        }
        guard !words.isEmpty, words != [lowered] else { return nil }
        return Array(words.prefix(maxQueryWords))
    }

    /// Contacts with a token (a name word, or the address) starting each of `words`, best first, at most `limit`.
    ///
    /// Initials (each word one ASCII letter or digit, two of them distinct: `r d`) first read the best list of their first
    /// two distinct (`pairs`): checked in its order, it is the answer where `limit` pass or it is not full.
    ///
    /// The words are taken the one whose first characters start the fewest index entries first (`entryCount`; the
    /// longest among equals), called the first word below. Then the best-contacts list of each word's first
    /// `ContactsProjector.topPrefixLength` characters, in that order: a list whose contacts, checked in its order (every
    /// word starts one of the contact's tokens), give `limit`, or a list not full (it holds every contact its prefix
    /// starts), is the answer, as for one word (`fromTopList`).
    ///
    /// Else the index: the entries of the first word, at most `candidates`, are kept (rank and address, in one buffer:
    /// `RankedContactEntries`) and taken best first, each contact looked up and checked, until `limit` pass. Where the
    /// others are selective, reading their entries costs less than the checks that would find `limit` (`readsOthers`,
    /// at the pass rate of the checks made, the first word's list's counted, once `probe` were made): each other word's
    /// entries are then read while they are at most as many plus 256, and the addresses they name kept as hashes
    /// (`HashTable`; a word with none: no contact, done), and the entries still to take that a word does not name are
    /// dropped; a word with more is left to the check (it is the less selective, so the contacts tried pass it as a
    /// rule). A common other word (`budget re`) is so not read, and no sort is made.
    ///
    /// At most `maxQueryWords` + 1 lists read; `candidates` entries read for the first word (their addresses held, each at
    /// most `Key.maxPartBytes`) and `candidates` + 256 for each other, as many hashes held, and at most `candidates`
    /// contacts looked up; a contact past the first `candidates` entries of the first word is not found.
    /// `lists: false` skips the lists, `probe: 0` reads the others at once, `probe: .max` never (tests compare them).
    package func completeWords(account: String, words: [String], limit: Int, candidates: Int = 20_000,
                               probe: Int = 16, lists: Bool = true) throws -> [Contact] {
        let limit = min(limit, ContactsReader.maxLimit)
        guard limit > 0, candidates > 0, !words.isEmpty, !words.contains(where: \.isEmpty) else { return [] }
        let accountKey = Key(account).bytes
        // Initials (`r d`): the list of the first two distinct ones holds, best first, every contact with a token starting
        // with each (that a check still finds) above its last; one lookup where a letter's ~10,000 entries would be read,
        // and no entry count.
        if lists, let pair = ContactsReader.initialsPair(words) {
            let list = try snapshot.get(ContactsProjector.pairsTable, ContactsProjector.pairKey(account: account, pair.0, pair.1)) ?? ContactTop()
            let out = try stillMatching(list, account: account, limit: limit, contact: { ContactsReader.hasEach(words, name: $0, address: $1) })
            if out.count >= limit || list.entries.count < ContactsProjector.topSize { return out.map(\.contact) }
        }
        // The word whose first characters start the fewest index entries first (the longest among equals): its entries
        // are the ones read whole, the others' only where they are selective.
        // (One word, `carl `: nothing to order, no count read.)
        let counted = words.count == 1 ? [(word: words[0], entries: 0)]
            : try words.map { (word: $0, entries: try entryCount(account: account, word: $0)) }
                .sorted { $0.entries < $1.entries || ($0.entries == $1.entries && $0.word.utf8.count > $1.word.utf8.count) }
        let ordered = counted.map(\.word)
        // The checks of the first word's list: its best contacts (or its first characters'), how many passed.
        var sampled = (checks: 0, passed: 0)
        if lists {
            for word in ordered {
                let listed = String(word.prefix(ContactsProjector.topPrefixLength))
                let list = try snapshot.get(ContactsProjector.topTable, Key(account, listed).bytes) ?? ContactTop()
                let out = try stillMatching(list, account: account, limit: limit, contact: { ContactsReader.hasEach(words, name: $0, address: $1) })
                if out.count >= limit || list.entries.count < ContactsProjector.topSize { return out.map(\.contact) }
                if word == ordered[0] { sampled = (list.entries.count, out.count) }
            }
        }
        // The first word's entries, taken best first and checked against the words.
        var entries = RankedContactEntries()
        var leadRead = 0
        try scanEntries(accountKey, ordered[0]) { address, value in
            leadRead += 1
            if let rank = ContactRank(borrowing: value) { entries.append(rank: rank, address: address) }
            return leadRead < candidates
        }
        var passed: [Contact] = []
        var last: ArraySlice<UInt8>?
        var checks = 0
        var filtered = ordered.count == 1
        while passed.count < limit {
            // The checks still needed at the rate seen, against reading the others' entries (`readsPerCheck` a check).
            if !filtered && checks + sampled.checks >= probe, ContactsReader.readsOthers(
                needed: limit - passed.count, checked: checks + sampled.checks, passed: passed.count + sampled.passed,
                remaining: entries.remaining) {
                filtered = true
                try keepNamed(by: counted.dropFirst(), in: &entries, account: accountKey, most: leadRead + 256)
            }
            guard let e = entries.next() else { break }
            // The same contact under two tokens of the word (a name word and the address): next in order.
            if e.address == last { continue }
            last = e.address
            checks += 1
            if let c = try checked(Array(e.address), account: accountKey, words: words) { passed.append(c) }
        }
        return passed
    }

    /// The first two distinct initials of `words` when each word is one initial (an ASCII letter or digit,
    /// `ContactsProjector.initials`), else nil: such a prefix is read from the list of their pair (`pairs`).
    package static func initialsPair(_ words: [String]) -> (UInt8, UInt8)? {
        var firsts: [UInt8] = []
        for w in words {
            guard w.utf8.count == 1, let b = w.utf8.first, ContactsProjector.initialBit(b) != nil else { return nil }
            if !firsts.contains(b) { firsts.append(b) }
        }
        return firsts.count >= 2 ? (firsts[0], firsts[1]) : nil
    }

    /// How many index entries the first `ContactsProjector.countedPrefixLength` characters of `word` start (`counts`):
    /// the word's own for a word that short, a bound for a longer one.
    package func entryCount(account: String, word: String) throws -> Int {
        try snapshot.get(ContactsProjector.countsTable, Key(account, String(word.prefix(ContactsProjector.countedPrefixLength))).bytes) ?? 0
    }

    /// About how many index entries are read in the time a contact is looked up and checked (measured: ~50 ns against
    /// ~1.5 µs), which decides when a completion of several words reads its other words' entries.
    static let readsPerCheck = 32

    /// Whether a completion of several words reads its other words' entries now, short of `needed` contacts with
    /// `remaining` entries of its first word to check: when at the pass rate seen (`passed` of `checked`) checking them
    /// would cost more than reading about as many entries of each other word, or when nothing was checked yet.
    package static func readsOthers(needed: Int, checked: Int, passed: Int, remaining: Int) -> Bool {
        checked == 0 || needed * checked * readsPerCheck > max(passed, 1) * remaining
    }

    /// Keeps, of `entries`, those each of `words` names: a word's entries are read while they are at most `most`, their
    /// addresses kept as hashes (`HashTable`); a word with more is left to the check (it is the less selective). A word
    /// of at most `ContactsProjector.countedPrefixLength` characters counted (`entries`, from `counts`) past `most` is
    /// not read at all: a scan by its bytes reads at least as many (`re`: ~11,400 entries, ~4,000 read in vain before).
    private func keepNamed(by words: ArraySlice<(word: String, entries: Int)>, in entries: inout RankedContactEntries,
                           account accountKey: [UInt8], most: Int) throws {
        for (word, counted) in words where entries.remaining > 0 {
            if counted > most && word.count <= ContactsProjector.countedPrefixLength { continue }
            var named: [UInt64] = []
            var read = 0
            try scanEntries(accountKey, word) { address, _ in
                read += 1
                guard read <= most else { return false }
                named.append(ContactsReader.hash(address))
                return true
            }
            guard read <= most else { continue }
            let table = HashTable(named)
            entries.keep { table.contains(ContactsReader.hash($0)) }
        }
    }

    /// The contact at `address` (a key part) when each of `words` starts one of its tokens.
    private func checked(_ address: [UInt8], account accountKey: [UInt8], words: [String]) throws -> Contact? {
        guard let c = try snapshot.get(ContactsProjector.peopleTable, accountKey + address + [0]) else { return nil }
        // The contact's own address: a key part holds at most `Key.maxPartBytes` of it.
        return ContactsReader.hasEach(words, name: c.name, address: c.address) ? c : nil
    }

    /// Whether each of `words` starts one of the tokens of a contact named `name` at `address`
    /// (`ContactsProjector.tokens`): made one at a time until each has one.
    static func hasEach(_ words: [String], name: String?, address: String) -> Bool {
        var unmatched = words
        ContactsProjector.forEachToken(name: name, address: address) { token in
            unmatched.removeAll { token.hasPrefix($0) }
            return !unmatched.isEmpty
        }
        return unmatched.isEmpty
    }

    /// Reads the prefix index entries of `account` (`accountKey`) whose token starts with `word` (its kept beginning, as a
    /// key part bounds it), in key order, each as its address and value, borrowed, while `body` returns true. An entry
    /// without an address (a damaged view file's) is skipped.
    private func scanEntries(_ accountKey: [UInt8], _ word: String,
                             _ body: (_ address: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Bool) throws {
        let start = accountKey + Array(word.utf8.prefix(Key.maxPartBytes - 17))
        try start.withUnsafeBytes { wanted in
            try snapshot.reader.scanBorrowed(ContactsProjector.prefixTable.name, from: start) { key, value in
                guard key.count >= wanted.count, memcmp(key.baseAddress!, wanted.baseAddress!, wanted.count) == 0 else { return false }
                guard let address = ContactsReader.address(key, tokenEnd: ContactsReader.tokenEnd(key, from: wanted.count)) else { return true }
                return try body(address, value)
            }
        }
    }

    /// A hash of an address's bytes, 8 at a time (no seed to set up per address, as `Hasher` has): a word's contacts
    /// are a table of them. Collisions cost only a contact checked in vain.
    private static func hash(_ a: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(a.count)
        var i = 0
        while i + 8 <= a.count {
            h = (h ^ a.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 32
            i += 8
        }
        while i < a.count {
            h = (h ^ UInt64(a[i])) &* 0x100_0000_01B3
            i += 1
        }
        h ^= h >> 29
        h = h &* 0xC4CE_B9FE_1A85_EC53
        return h ^ (h >> 32)
    }

    /// A set of hashes (`hash`) for membership tests: open addressing, at least twice as many slots as hashes (a power
    /// of two), 0 marking an empty slot (a hash of 0 is kept as 1). Made once from a word's hashes, then only read.
    private struct HashTable {
        private var slots: [UInt64]
        private let mask: Int

        init(_ hashes: [UInt64]) {
            var size = 16
            while size < 2 * hashes.count { size *= 2 }
            slots = [UInt64](repeating: 0, count: size)
            mask = size - 1
            for h in hashes {
                let h = max(h, 1)
                var i = Int(truncatingIfNeeded: h) & mask
                while slots[i] != 0 && slots[i] != h { i = (i + 1) & mask }
                slots[i] = h
            }
        }

        func contains(_ hash: UInt64) -> Bool {
            let h = max(hash, 1)
            var i = Int(truncatingIfNeeded: h) & mask
            while slots[i] != 0 {
                if slots[i] == h { return true }
                i = (i + 1) & mask
            }
            return false
        }
    }

    /// Two completions (each best first) as one: best rank first, then address bytes, each address once, at most `limit`.
    package static func merged(_ a: [Contact], _ b: [Contact], limit: Int) -> [Contact] {
        var seen = Set<[UInt8]>()
        let all = (a + b).map { (entry: ContactTop.Entry(address: $0.address, rank: ContactRank($0)), contact: $0) }
            .sorted { ContactTop.before($0.entry, $1.entry) }
        return all.filter { seen.insert(Array($0.entry.address.utf8)).inserted }.prefix(limit).map(\.contact)
    }

    /// Where the token of a prefix index key (`Key(account, token, address)`) ends: its terminator, the first 0 byte at or
    /// after `from` (the bytes matched), or the key's end.
    static func tokenEnd(_ key: UnsafeRawBufferPointer, from: Int) -> Int {
        memchr(key.baseAddress! + from, 0, key.count - from).map { key.baseAddress!.distance(to: UnsafeRawPointer($0)) } ?? key.count
    }

    /// The address part of a prefix index key whose token ends at `tokenEnd` (without the key's closing 0); nil when it
    /// has none (a damaged view file's key).
    static func address(_ key: UnsafeRawBufferPointer, tokenEnd i: Int) -> UnsafeRawBufferPointer? {
        var end = key.count
        if end > i + 1 && key[end - 1] == 0 { end -= 1 }
        return i + 1 < end ? UnsafeRawBufferPointer(rebasing: key[(i + 1)..<end]) : nil
    }
}
