import EventModel
import DomainNames
import MailParser

/// The contacts view for recipient autocomplete: every From, To and Cc address of an account's mail with
/// its name, frequency, recency and whether they wrote, and a prefix index over the address, its local part
/// and each word of the name. Never reads any system address book.
package final class ContactsProjector: Projector {
    package static let name = ViewName.contacts
    /// 2: each prefix entry carries the contact's rank.
    /// 3: bounded keys and values (`Key`, `ViewBounds`). 4: whom the user wrote to (`Contact.wroteTo`), from the
    /// recipients of mail in Sent-role folders. 5: the best contacts per short prefix (`ContactTop`), so a
    /// completion of 1 to 6 characters reads one list instead of scanning. 6: no token for the local part (every
    /// prefix of it is a prefix of the address token), so a scan reads one entry per address, not two. 7: the best lists
    /// in a total order (`ContactTop.before`), so they no longer depend on how their offers were batched. 8: addresses in
    /// the best lists compared as bytes, as the index and the people table compare them (`ContactTop.before`). 9: best
    /// lists for prefixes of up to 7 characters (were 6), so the longest scan is of a prefix of 8 or more. 10: a best list per
    /// name word longer than that (`words`), so a scan reads a word's list and skips the word's entries. 11: no contact for an
    /// address longer than `ViewBounds.maxAddressBytes` (its lists' entries held the whole address, bounded only by the
    /// parser's header limit). 12: best lists per address prefix of 8 to `deepPrefixLength` characters under a full list
    /// (`deep`), so a long prefix that thousands of addresses share is read from lists, not scanned. 13: a name word with
    /// diacritics is also indexed without them (`DiacriticFold`), so "franc" completes "François". 14: how many index
    /// entries each prefix of 1 to `countedPrefixLength` characters starts (`counts`), so a completion of several words
    /// reads the entries of the word that starts the fewest. 15: the best contacts per pair of initials (`pairs`), so
    /// initials typed (`r d`) read one list instead of the ~10,000 index entries of a letter. 16: a best list that is
    /// not full holds its addresses unranked (`ContactTop.unranked`), so it is written when an address joins it, not
    /// each time one of its contacts' ranks changes (~64% of the lists' writes at 100K generated messages, and most of
    /// their history: `history:contacts.top` was the views' largest table at 1M). 17: mail arriving in a Junk-role folder
    /// adds no contact (spammers had been offered as recipients, ranked as people who wrote). 18: how many messages in
    /// Sent-role folders each contact sent (`Contact.wroteAs`): the user's own addresses, offered last. 19: name words
    /// in the indexed form (`IndexedText`: composed, Greek without its marks, ё as е), as a prefix typed is: a name
    /// written decomposed ("Jose\u{301}") or in Greek with accents was completed by nothing typed the other way. 20: an
    /// address at an internationalised domain also found as people read it (`readableTokens`): "bü" and "user@bü" complete
    /// `user@xn--bcher-kva.example`, which had been completed only by its A-label. 21: the display rules of those tokens
    /// as browsers apply them (`IDNA`): a zero-width joiner after a virama allowed, scripts mixed only as Chromium's
    /// policy allows and whole-script lookalikes of Greek, Armenian and others refused, as Cyrillic ones were.
    /// 22: a message counts once however many copies of it arrive (`messages`): a Gmail message in INBOX and a label
    /// (each a folder with its own copy), kept in All Mail when archived, or found again at new UIDs, had counted once
    /// per copy, its people ranked above others.
    package static let schemaVersion: UInt32 = 22
    /// What `apply` folds.
    package static let handledEvents = EventTypeSet([.emailReceived, .folderDiscovered, .folderRemoved])
    static let peopleTable = Table<Contact>(.contacts, "people")
    static let prefixTable = Table<ContactRank>(.contacts, "prefix")
    package static let topTable = Table<ContactTop>(.contacts, "top")
    package static let wordsTable = Table<ContactTop>(.contacts, "words")
    package static let deepTable = Table<ContactTop>(.contacts, "deep")
    package static let countsTable = Table<Int>(.contacts, "counts")
    package static let pairsTable = Table<ContactTop>(.contacts, "pairs")
    static let messagesTable = Table<Int>(.contacts, "messages")

    /// Key(account, lowercased address) -> contact.
    let people: ViewTable<Contact>
    /// Key(account, token) + lowercased address -> the contact's rank.
    let prefix: ViewTable<ContactRank>
    /// Key(account, prefix of 1 to `topPrefixLength` characters of a token) -> the best contacts it starts.
    let top: ViewTable<ContactTop>
    /// Key(account, name word of more than `topPrefixLength` characters) -> the best contacts with that word: a scan of
    /// a long prefix reads it in place of the word's entries (thousands for a common name).
    let words: ViewTable<ContactTop>
    /// Key(account, address prefix of 8 to `deepPrefixLength` ASCII characters) -> the best contacts whose address
    /// starts with it; kept for a prefix exactly when the list of the prefix one character shorter is full (`top` for
    /// 7 characters, `deep` beyond), so a list that is not full holds every address it starts (see `fillDeep`).
    let deep: ViewTable<ContactTop>
    /// Key(account, prefix of 1 to `countedPrefixLength` characters of a token) -> how many index entries (a token and
    /// an address) it starts: exact for a word that short, a bound for a longer one.
    let counts: ViewTable<Int>
    /// Key(account, two initials) -> the best contacts with a token starting with each: an initial is an ASCII letter or
    /// digit starting a token (`initials`), the two in byte order (`pairKey`). What initials typed (`r d`) read.
    let pairs: ViewTable<ContactTop>
    /// Key(account, message key, blob hash's first `blobHexInKey` hex digits) -> how the message was counted
    /// (`countedAsMail`, `countedAsSent`): a copy of a message counted before (the same Message-ID and the same bytes)
    /// counts for nothing more. The Message-ID alone is a sender's to choose (a message reusing another's would not
    /// count); the bytes alone are the same in tests' fixtures. One entry per message counted, its key at most ~230
    /// bytes (`Key` bounds each part; ~90 for a usual Message-ID); never removed, as no count is ever taken back.
    let messages: ViewTable<Int>
    /// How many hex digits of a blob hash the `messages` key holds: 128 bits, beside the Message-ID.
    static let blobHexInKey = 32
    /// Key(account, folder) -> role, from `FolderDiscovered` (else the role the folder's name gives).
    let folderRoles: ViewTable<FolderRole>
    static let folderRolesTable = Table<FolderRole>(.contacts, "folders")

    /// Index work deferred per contact, by people key (`PendingContactIndex`): written when the batch ends, when
    /// the contact's name changes, or when `pendingLimit` contacts wait (a part: see `writePart`).
    /// (`TableKey`: its bytes hashed in one call, where an array of bytes is hashed byte by byte.)
    private var pending: [TableKey: PendingContactIndex] = [:]
    /// Changes of `counts` waiting, by key: added when the batch ends or `pendingLimit` keys wait.
    private var pendingCounts: [TableKey: Int] = [:]
    /// How many entries of `messages` this batch set since its last part was written: a part is written at
    /// `pendingLimit`, so the table's cache holds at most that many marks (~250 bytes each) whatever the batch holds.
    private var pendingMarks = 0
    /// A `messages` mark: the message counted in `count` and `sent`.
    static let countedAsMail = 1
    /// A `messages` mark: the message counted as the user's (`wroteTo`, `wroteAs`), from a Sent-role folder.
    static let countedAsSent = 2
    /// The longest prefixes whose index entries are counted: 3 characters tell most name words apart.
    package static let countedPrefixLength = 3
    /// The most contacts whose index work waits at once (~0.5 KB each), and the most a batch adds or changes between
    /// two writes of the view's tables (`writePart`): a batch of mail with thousands of new addresses writes them in
    /// parts. The tables' caches then hold the decoded records of at most this many contacts: each one's person
    /// record, index entries and word lists and its share of the prefix lists read (`top`, `deep`, `pairs`, `counts`),
    /// with its waiting work ~1.5 KB a contact of mail of 1,000 named recipients each (~12 MiB in all, and ~5 MiB of
    /// their encoded changes while a part is written), where a batch (2 MiB of payloads: ~55,000 such addresses) had
    /// held all of its contacts' (`replay --view contacts` of 2,000 such messages: 89 MiB of heap at its peak, not 121).
    package static let maxPending = 8_192
    /// The most contacts (and changes of `counts`) that wait before a part is written: `maxPending`, or fewer set by a
    /// test, so that a batch of a few hundred contacts is written in parts as one naming tens of thousands is.
    package var pendingLimit = ContactsProjector.maxPending

    /// The tables' context: a batch naming more than `maxPending` contacts writes them in parts (`writePart`).
    private let context: FoldContext

    package init(context: FoldContext) {
        self.context = context
        people = context.table(Self.peopleTable)
        prefix = context.table(Self.prefixTable)
        top = context.table(Self.topTable)
        words = context.table(Self.wordsTable)
        deep = context.table(Self.deepTable)
        counts = context.table(Self.countsTable)
        pairs = context.table(Self.pairsTable)
        messages = context.table(Self.messagesTable)
        folderRoles = context.table(Self.folderRolesTable)
    }


    /// The most words of a display name indexed for autocomplete.
    package static let maxNameWords = 16
    /// Prefixes up to this many characters keep a list of their best contacts (`ContactTop`): these are the
    /// completions that match thousands of index entries. 7, not 6: a 7-character prefix still starts thousands of
    /// tokens (`person1` over 50,000 generated contacts: 11,111; a common first name; `noreply`), and a scan of them
    /// took ~1 ms, where a list is one lookup; at 8 characters and more the tokens sharing a prefix are few (`person10`:
    /// 1,111). 7 is also the most `ShortPrefixKeys` packs into an integer. Each more character costs a list to offer
    /// to per token of that length: ~1/6 more of this fold's list work.
    package static let topPrefixLength = 7
    /// How many contacts each such list keeps: the 10 a completion shows and room for entries gone stale.
    package static let topSize = 16
    /// The longest address prefix with a list of its own in `deep` (characters, all ASCII): a prefix shared by more than
    /// `topSize` addresses gets lists for its next character, and so on down to this length; a longer completion reads
    /// the list of its first `deepPrefixLength` characters where that holds every address it starts, else scans.
    /// Bounds the lists an address is offered to (at most 33 more, each one read per batch that ranks the contact anew).
    package static let deepPrefixLength = 40

    /// The bytes of `address` (lowercased) that its `deep` lists' prefixes are cut from: up to the first byte that is
    /// not ASCII (or is CR or 0: characters of several bytes, or a byte a key rewrites), at most `deepPrefixLength`.
    /// Empty when that is no longer than `topPrefixLength` (no `deep` list can hold the address).
    static func deepPath(_ address: String) -> [UInt8] {
        var address = address
        return address.withUTF8 { buf -> [UInt8] in
            var end = 0
            while end < min(buf.count, deepPrefixLength), deepByte(buf[end]) { end += 1 }
            return end > topPrefixLength ? Array(buf[0..<end]) : []
        }
    }

    /// Whether `b` may be part of a `deep` list's prefix: ASCII that a key keeps as it is, and that is a character alone.
    static func deepByte(_ b: UInt8) -> Bool { b < 0x80 && b != 0x0D && b != 0 }

    /// The keys of the best-contacts lists of `tokens` in `account`: `Key(account, p)` for every distinct
    /// prefix `p` of 1 to `topPrefixLength` characters of a token. Tokens of ASCII without CR (nearly all:
    /// addresses and most names), where a character is a byte, take a byte path with no `String` per prefix;
    /// others go by characters. Prefixes met before (a first name and the address that starts with it) are
    /// found by the part each key ends with: one of up to 7 bytes packed into an integer with its length, so
    /// finding it compares integers; a longer one (characters of several bytes) compared as bytes.
    package static func shortPrefixKeys(account: String, tokens: Set<String>) -> [[UInt8]] {
        var keys = ShortPrefixKeys(base: Key(account), capacity: tokens.count * topPrefixLength)
        for t in tokens {
            var t = t
            let bytewise = t.withUTF8 { buf -> Bool in
                // CR forms one character with a following LF: such a token goes by characters.
                guard buf.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else { return false }
                for last in 0..<min(topPrefixLength, buf.count) {
                    keys.add(UnsafeBufferPointer(rebasing: buf[0...last]))
                }
                return true
            }
            if bytewise { continue }
            var end = t.startIndex
            for _ in 0..<topPrefixLength where end < t.endIndex {
                end = t.index(after: end)
                var prefix = String(t[..<end])
                prefix.withUTF8 { keys.add($0) }
            }
        }
        return keys.keys
    }

    /// The tokens a contact is found by: the address and each word of the name (lowercased; at most
    /// `maxNameWords`, since a name is text from mail and may be a novel), a word with diacritics also without them
    /// as the search index removes them (`DiacriticFold`; schema 13): "franc" and "franç" both complete "François"
    /// (a prefix typed is only lowercased and brought to that form, so "franç" does not complete a "Francois" written
    /// without). A non-ASCII name is first brought to the indexed form (`IndexedText`; schema 19), as the search
    /// index's text and a prefix typed are: "José" written decomposed, "Παπαδόπουλος" found by "παπαδοπ". The address
    /// token also finds the local part: every prefix of it starts the address. An address at an internationalised
    /// domain also gives the tokens of `readableTokens` (schema 20). ASCII names take a byte path that gives the same
    /// words as the Unicode one.
    package static func tokens(name: String?, address: String) -> Set<String> {
        var out = Set<String>()
        forEachToken(name: name, address: address) { out.insert($0); return true }
        return out
    }

    /// Calls `body` with each of the tokens `tokens(name:address:)` gives (the address first; a token may come more
    /// than once), until it returns false: a check that needs some of them builds no set of them all.
    package static func forEachToken(name: String?, address: String, _ body: (String) -> Bool) {
        guard body(IndexedText.form(address.folded)), readableTokens(address, body), var name, !name.isEmpty else { return }
        var words = 0
        var going = true
        let ascii = name.withUTF8 { buf -> Bool in
            guard buf.allSatisfy({ $0 < 0x80 }) else { return false }
            var word: [UInt8] = []
            for b in buf {
                let lower = b | 0x20
                if (lower >= 0x61 && lower <= 0x7A) || (b >= 0x30 && b <= 0x39) {
                    word.append(b >= 0x41 && b <= 0x5A ? lower : b)
                } else if !word.isEmpty {
                    going = body(String(decoding: word, as: UTF8.self))
                    word.removeAll(keepingCapacity: true)
                    words += 1
                    if !going || words == maxNameWords { return true }
                }
            }
            if !word.isEmpty { _ = body(String(decoding: word, as: UTF8.self)) }
            return true
        }
        if ascii { return }
        for word in IndexedText.form(name).folded.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).prefix(maxNameWords) {
            let word = String(word)
            guard body(word) else { return }
            if let plain = DiacriticFold.removingDiacritics(word), !body(plain) { return }
        }
    }

    /// The most labels of a domain indexed as words (`readableTokens`): a domain holds up to 42 A-labels.
    package static let maxDomainWords = 4

    /// Calls `body` with the tokens of an address at an internationalised domain (schema 20): the address with its
    /// A-labels as people read them (`IDNA.unicodeEmail`, under its safety rules) and each label so decoded (at most
    /// `maxDomainWords`), as a name word is, also without diacritics: "bü", "buch" and "user@bü" complete
    /// `user@xn--bcher-kva.example`. Nothing for any other address (one scan of its bytes for `xn--`). False when `body`
    /// asked to stop.
    static func readableTokens(_ address: String, _ body: (String) -> Bool) -> Bool {
        let shown = IDNA.unicodeEmail(address)
        guard shown != address, let at = shown.lastIndex(of: "@") else { return true }
        guard body(IndexedText.form(shown.folded)) else { return false }
        let labels = shown[shown.index(after: at)...].split(separator: ".").filter { !$0.utf8.allSatisfy { $0 < 0x80 } }
        for label in labels.prefix(maxDomainWords) {
            let word = IndexedText.form(String(label).folded)
            guard body(word) else { return false }
            if let plain = DiacriticFold.removingDiacritics(word), !body(plain) { return false }
        }
        return true
    }

    /// Whether `token` has a best list of its own (`words`): a name word (an address token has an @) of more than
    /// `topPrefixLength` characters. Shorter words are served by the prefix lists; each address is one contact.
    package static func hasWordList(_ token: String) -> Bool {
        token.utf8.count > topPrefixLength && !token.utf8.contains(UInt8(ascii: "@")) && token.count > topPrefixLength
    }

    /// The initials of `tokens`: the first bytes that are ASCII letters or digits (a token starting otherwise has none),
    /// each once, in byte order. At most 36 (of a contact's tokens, 17). A token starting with a letter and a combining
    /// mark (`ŕ`) gives the letter: a pair's list may so hold a contact that a check then drops, never miss one.
    package static func initials(_ tokens: Set<String>) -> [UInt8] {
        var seen: UInt64 = 0
        for t in tokens {
            guard let b = t.utf8.first, let bit = initialBit(b) else { continue }
            seen |= 1 << UInt64(bit)
        }
        var out: [UInt8] = []
        for bit in 0..<36 where seen & (1 << UInt64(bit)) != 0 {
            out.append(bit < 10 ? UInt8(0x30 + bit) : UInt8(0x61 + bit - 10))
        }
        return out
    }

    /// The position of `b` among the 36 initials (digits, then lowercase letters), nil when it is none.
    package static func initialBit(_ b: UInt8) -> Int? {
        switch b {
        case 0x30...0x39: return Int(b - 0x30)
        case 0x61...0x7A: return Int(b - 0x61) + 10
        default: return nil
        }
    }

    /// The `pairs` key of initials `a` and `b` (distinct; in either order): `Key(account, "ab")`, the two in byte order.
    package static func pairKey(account: String, _ a: UInt8, _ b: UInt8) -> [UInt8] {
        Key(account, String(decoding: [min(a, b), max(a, b)], as: UTF8.self)).bytes
    }

    /// The index key of a token for an address.
    package static func prefixKey(account: String, token: String, address: String) -> [UInt8] {
        Key(account, token, address).bytes
    }

    package func apply(_ event: UnsafePointer<StoredEvent>, _ decoded: DomainEvent) throws {
        let account = event.pointee.envelope.account
        switch decoded {
        case .folderDiscovered(let f):
            folderRoles.set(Key(account, f.folder).bytes, f.role)
            return
        case .folderRemoved(let f):
            folderRoles.set(Key(account, f.folder).bytes, nil)
            return
        case .emailReceived:
            break
        default:
            return
        }
        guard case .emailReceived(let p) = decoded else { return }
        // (`folded`: `lowercased()` without its Unicode machinery for ASCII addresses.)
        let senders = Set(p.from.map { $0.email.folded })
        let role = try folderRoles.get(Key(account, p.folder).bytes) ?? FolderNaming.role(forPath: p.folder)
        // Spam's senders (and the addresses it was sent to) are no one to write to: mail that arrives in a Junk-role
        // folder adds no contact and counts for none (schema 17).
        guard role != .junk else { return }
        // Mail in a Sent-role folder is mail the user wrote: its recipients are people they write to.
        let byUser = role == .sent
        // Each message once (schema 21): a copy of one counted before adds only what that copy did not count (a
        // message the user sent themselves, in INBOX and then in Sent, counts once and as written by them).
        let messageKey = Key(account, p.messageKey, String(p.blob.hex.prefix(ContactsProjector.blobHexInKey))).bytes
        let marks = try messages.get(messageKey) ?? 0
        let countsMail = marks & ContactsProjector.countedAsMail == 0
        let countsSent = byUser && marks & ContactsProjector.countedAsSent == 0
        guard countsMail || countsSent else { return }
        messages.set(messageKey, marks | ContactsProjector.countedAsMail | (byUser ? ContactsProjector.countedAsSent : 0))
        pendingMarks += 1
        let recipients = countsSent ? Set((p.to + p.cc).map { $0.email.folded }) : []
        let date = p.date
        var seen = Set<String>()
        // (`utf8.contains`: `String.contains(String)` goes through Foundation's NSString search, ~3% of this fold.)
        // An address past SMTP's length limit is no one to write to: no contact, so every list entry's address is bounded.
        for a in p.from + p.to + p.cc where a.email.utf8.count <= ViewBounds.maxAddressBytes && a.email.utf8.contains(UInt8(ascii: "@")) {
            let address = a.email.folded
            guard seen.insert(address).inserted else { continue }
            let key = Key(account, address).bytes
            let pendingKey = TableKey(key)
            // Its index work is done once the people table is no longer being modified: a list that fills reads
            // contacts' ranks from it (`rank(account:address:)`).
            var isNew = false
            var names: (old: String?, new: String?) = (nil, nil)
            var oldRank = ContactTop.unranked
            let rank: ContactRank = try people.modify(key) { c in
                isNew = c == nil
                if let c { oldRank = ContactRank(c) }
                var contact = c ?? Contact(name: nil, address: ViewBounds.text(a.email), count: 0, sent: 0, lastSeen: date)
                names.old = contact.name
                if let name = a.name, !name.isEmpty { contact.name = ViewBounds.text(name) }
                if countsMail {
                    contact.count += 1
                    if senders.contains(address) { contact.sent += 1 }
                }
                if recipients.contains(address) { contact.wroteTo += 1 }
                if countsSent && senders.contains(address) { contact.wroteAs += 1 }
                if date > contact.lastSeen { contact.lastSeen = date }
                names.new = contact.name
                c = contact
                return ContactRank(contact)
            }
            if !isNew, names.old != names.new {
                // The entries under the old name's tokens are written with the rank they had, then those
                // tokens' entries go. Old tokens' lists keep the entry (one not full frozen at that rank: `freeze`);
                // the reader drops it when it no longer matches.
                if let before = pending.removeValue(forKey: pendingKey) { try writeIndex(before) }
                let tokens = ContactsProjector.tokens(name: names.new, address: address)
                let old = ContactsProjector.tokens(name: names.old, address: address)
                for t in old.subtracting(tokens) {
                    prefix.set(ContactsProjector.prefixKey(account: account, token: t, address: address), nil)
                    count(account, t, -1)
                }
                for t in tokens.subtracting(old) { count(account, t, 1) }
                try freeze(account: account, address: address, old: old, new: tokens, rank: oldRank)
                pending[pendingKey] = PendingContactIndex(account: account, address: address, tokens: tokens, rank: rank)
            } else if let waiting = pending.index(forKey: pendingKey) {
                pending.values[waiting].rank = rank
            } else {
                let tokens = ContactsProjector.tokens(name: names.new, address: address)
                if isNew { for t in tokens { count(account, t, 1) } }
                pending[pendingKey] = PendingContactIndex(account: account, address: address, tokens: tokens, rank: rank)
            }
        }
        if pending.count >= pendingLimit || pendingMarks >= pendingLimit { try writePart() }
        if pendingCounts.count >= pendingLimit { try writeCounts() }
    }

    /// Writes the index work of every waiting contact and the waiting counts, then, where the fold may
    /// (`FoldContext.writesInParts`), every table's cached changes: the caches then hold the records of at most
    /// `maxPending` contacts whatever the batch names (every contact the part touched waited in `pending`). The same
    /// tables as a batch written once: what is written is read back by the rest of the batch, and the index work and
    /// counts are the same wherever they are written (`PendingContactIndex`). A live batch folded on the second core
    /// (`ViewStore.secondCoreViews`: 2,048 events or more) has no write transaction there and writes no part: its
    /// caches hold the batch's contacts (at most 2 MiB of payloads' addresses) until the writing thread flushes them.
    private func writePart() throws {
        try writePending()
        try writeCounts()
        pendingMarks = 0
        if context.writesInParts { try context.flush() }
    }

    package func prepareFlush() throws {
        try writePending()
        try writeCounts()
        pendingMarks = 0
    }

    package func discardPending() {
        pending.removeAll()
        pendingCounts.removeAll()
        pendingMarks = 0
    }

    /// Freezes `address` at `rank` (its rank before its name changed) in the lists that are not full of the tokens `old`
    /// had and `new` has not (`ContactTop.freeze`): it will not be offered to them again, and a list that fills later
    /// ranks its entry as a full one would have kept it, at the rank it was last offered at. The address's own lists
    /// (its prefixes, `deep`) are the same for both names.
    private func freeze(account: String, address: String, old: Set<String>, new: Set<String>, rank: ContactRank) throws {
        let kept = Set(ContactsProjector.shortPrefixKeys(account: account, tokens: new))
        for key in ContactsProjector.shortPrefixKeys(account: account, tokens: old) where !kept.contains(key) {
            try top.modifyIfChanged(key) { $0?.freeze(address: address, rank: rank, capacity: ContactsProjector.topSize) ?? false }
        }
        let newFirsts = ContactsProjector.initials(new), oldFirsts = ContactsProjector.initials(old)
        for (i, a) in oldFirsts.enumerated() {
            for b in oldFirsts[(i + 1)...] where !(newFirsts.contains(a) && newFirsts.contains(b)) {
                try pairs.modifyIfChanged(ContactsProjector.pairKey(account: account, a, b)) {
                    $0?.freeze(address: address, rank: rank, capacity: ContactsProjector.topSize) ?? false
                }
            }
        }
        for t in old.subtracting(new) where ContactsProjector.hasWordList(t) {
            try words.modifyIfChanged(Key(account, t).bytes) {
                $0?.freeze(address: address, rank: rank, capacity: ContactsProjector.topSize) ?? false
            }
        }
    }

    /// Counts an index entry of `token` gone (`delta` -1) or made (1) under each of its first `countedPrefixLength`
    /// prefixes.
    private func count(_ account: String, _ token: String, _ delta: Int) {
        var start = ""
        for character in token.prefix(ContactsProjector.countedPrefixLength) {
            start.append(character)
            pendingCounts[TableKey(Key(account, start).bytes), default: 0] += delta
        }
    }

    /// Adds the waiting changes of `counts` to it (a count of 0 is no key).
    private func writeCounts() throws {
        for (key, delta) in pendingCounts.sorted(by: { Key.precedes($0.key.bytes, $1.key.bytes) }) where delta != 0 {
            let n = (try counts.get(key.bytes) ?? 0) + delta
            counts.set(key.bytes, n > 0 ? n : nil)
        }
        pendingCounts.removeAll(keepingCapacity: true)
    }

    /// Writes the index work of every waiting contact, in key order.
    private func writePending() throws {
        for waiting in pending.sorted(by: { Key.precedes($0.key.bytes, $1.key.bytes) }) { try writeIndex(waiting.value) }
        pending.removeAll(keepingCapacity: true)
    }

    /// Writes one contact's index entries with its rank and offers it to its short prefixes' lists, then to the `deep`
    /// lists of its address's longer prefixes while the list above each is full. A list this contact does not enter
    /// (most contacts rank below full lists), or one not full that holds it already (unranked, schema 16), is only read:
    /// `offer` leaves it as it is and says so, and the table then does not write it. In place: `modify` hands over the
    /// only reference, so the list's array is not copied.
    private func writeIndex(_ c: PendingContactIndex) throws {
        // A list that fills ranks its entries with their contacts' ranks now (`ContactTop.offer`).
        let rankOf = { (address: String) throws -> ContactRank in try self.rank(account: c.account, address: address) }
        for t in c.tokens {
            prefix.set(ContactsProjector.prefixKey(account: c.account, token: t, address: c.address), c.rank)
        }
        let base = Key(c.account)
        let path = ContactsProjector.deepPath(c.address)
        let addressKey = path.isEmpty ? [] : ContactsProjector.listKey(base, path[0..<ContactsProjector.topPrefixLength])
        var addressListFull = false
        for key in ContactsProjector.shortPrefixKeys(account: c.account, tokens: c.tokens) {
            let (full, filled) = try offering(top, key) { try $0.offer(address: c.address, rank: c.rank, capacity: ContactsProjector.topSize, rankOf: rankOf) }
            if key == addressKey { addressListFull = full }
            // A 7-character list just filled: it held every contact it starts, so the lists of its next character are
            // made from it; from now on every address it starts is offered to them (below).
            if let filled, key.count == base.bytes.count + ContactsProjector.topPrefixLength + 1 {
                let part = Array(key[base.bytes.count..<(key.count - 1)])
                if part.allSatisfy(ContactsProjector.deepByte) { try fillDeep(base: base, parent: part, entries: filled, rankOf: rankOf) }
            }
        }
        // Each pair of the contact's initials: a token gives at most one, so at most 17 (the address and `maxNameWords`
        // name words, a word's form without diacritics starting as it does or giving the one it lacks): 136 lists.
        let firsts = ContactsProjector.initials(c.tokens)
        for (i, a) in firsts.enumerated() {
            for b in firsts[(i + 1)...] {
                _ = try offering(pairs, ContactsProjector.pairKey(account: c.account, a, b)) {
                    try $0.offer(address: c.address, rank: c.rank, capacity: ContactsProjector.topSize, rankOf: rankOf)
                }
            }
        }
        for t in c.tokens where ContactsProjector.hasWordList(t) {
            try words.modifyIfChanged(Key(c.account, t).bytes) { list in
                if list == nil { list = ContactTop() }
                return try list!.offer(address: c.address, rank: c.rank, capacity: ContactsProjector.topSize, rankOf: rankOf)
            }
        }
        // Down the address's prefixes while the list above is full: such a list is the top of many, so the prefix keeps
        // a list of its own (made when the one above filled, or made now for the first address it starts).
        var parentFull = addressListFull
        var length = ContactsProjector.topPrefixLength + 1
        while parentFull, length <= path.count {
            let filled: [ContactTop.Entry]?
            (parentFull, filled) = try offering(deep, ContactsProjector.listKey(base, path[0..<length])) {
                try $0.offer(address: c.address, rank: c.rank, capacity: ContactsProjector.topSize, rankOf: rankOf)
            }
            if let filled { try fillDeep(base: base, parent: Array(path[0..<length]), entries: filled, rankOf: rankOf) }
            length += 1
        }
    }

    /// Makes the `deep` lists of the prefixes one character longer than `parent` from `entries`, the list of `parent`
    /// as it just became full: a list is offered every contact it starts until it is full, so it held them all, and the
    /// lists made from it hold every address that starts theirs. A list made full here makes its own the same way
    /// (at most `deepPrefixLength` characters). The same lists wherever batches end: each is, from then on, offered
    /// every address it starts, so it ends as the top of the last ranks of all of them.
    private func fillDeep(base: Key, parent: [UInt8], entries: [ContactTop.Entry],
                          rankOf: (String) throws -> ContactRank) throws {
        guard parent.count < ContactsProjector.deepPrefixLength else { return }
        var children: [[UInt8]: [ContactTop.Entry]] = [:]
        for e in entries {
            var address = e.address
            let child: [UInt8]? = address.withUTF8 { b in
                guard b.count > parent.count, ContactsProjector.deepByte(b[parent.count]),
                      b.starts(with: parent) else { return nil }
                return Array(b[0...parent.count])
            }
            if let child { children[child, default: []].append(e) }
        }
        for (child, made) in children.sorted(by: { Key.precedes($0.key, $1.key) }) {
            let (_, filled) = try offering(deep, ContactsProjector.listKey(base, child[...])) { list in
                var changed = false
                for e in made where try list.offer(address: e.address, rank: e.rank, capacity: ContactsProjector.topSize, rankOf: rankOf) {
                    changed = true
                }
                return changed
            }
            if let filled { try fillDeep(base: base, parent: child, entries: filled, rankOf: rankOf) }
        }
    }

    /// Offers to the best list under `key` in `table` (an empty one when there is none) by `offer`, which says whether
    /// it changed the list: whether the list is full after, and its entries when it just became full (it then holds
    /// every contact it starts, and the `deep` lists below it are made from them). One lookup; written only if changed.
    private func offering(_ table: ViewTable<ContactTop>, _ key: [UInt8],
                          _ offer: (inout ContactTop) throws -> Bool) throws -> (full: Bool, filled: [ContactTop.Entry]?) {
        var full = false
        var filled: [ContactTop.Entry]?
        try table.modifyIfChanged(key) { list in
            if list == nil { list = ContactTop() }
            let before = list!.entries.count
            let changed = try offer(&list!)
            full = list!.entries.count >= ContactsProjector.topSize
            if full, before < ContactsProjector.topSize { filled = list!.entries }
            return changed
        }
        return (full, filled)
    }

    /// The rank `address`'s contact in `account` has now (`unranked` where there is none: every address a list holds is
    /// a contact's). Read through the people table's cache, so a contact changed in this batch ranks as it is now.
    private func rank(account: String, address: String) throws -> ContactRank {
        try people.get(Key(account, address).bytes).map(ContactRank.init) ?? ContactTop.unranked
    }

    /// The key of the best list (`top` or `deep`) of the prefix `bytes` in the account whose key is `base`.
    package static func listKey(_ base: Key, _ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var key = base
        bytes.withUnsafeBufferPointer { _ = key.string(utf8: $0) }
        return key.bytes
    }
}
