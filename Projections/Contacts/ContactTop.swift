import EventModel

/// The best-ranked contacts whose tokens start with one short prefix (1 to `ContactsProjector.topPrefixLength`
/// characters): what a completion of a short prefix reads instead of scanning the thousands of index entries
/// such a prefix matches.
///
/// At most `ContactsProjector.topSize` entries, one per address. A list that is not full holds every address
/// offered to it, in address order and unranked (`unranked`: the reader ranks them by the contacts it reads), so it
/// changes only when an address joins it, not each time a contact's rank does (schema 16: most of the lists' writes,
/// and most of their history, had been those new ranks); an entry whose contact lost the token (a new name) is frozen
/// at the rank it had then (`freeze`). The offer that fills it ranks every unranked entry with its contact's rank then;
/// a full list is kept in rank order (`ContactRank`, then address) from then on. Ranks only ever
/// improve (counts and the last date grow), so an address outside a full list ranks below every entry in it. An entry
/// may be stale: a contact whose name changed no longer has the token that put it here. The reader checks each entry
/// against the contact's current tokens and scans the index when a full list has too few that still match.
package struct ContactTop: BinaryField, Equatable, Sendable {
    /// One contact in the list.
    package struct Entry: Equatable, Sendable {
        /// The lowercased address (the people table's key part).
        package var address: String
        package var rank: ContactRank
    }

    package var entries: [Entry] = []

    package init() {}

    /// The rank of an entry in a list that is not full: none (a contact's rank counts at least one message).
    package static let unranked = ContactRank(sent: 0, count: 0, lastSeen: Timestamp(microseconds: 0))

    /// Whether the list is full at `capacity`: ranked, in rank order.
    package func isFull(capacity: Int) -> Bool { entries.count >= capacity }

    /// Offers `address`, whose contact has `rank` now. A list that is not full takes it unranked in address order when
    /// it is not there (listed, nothing changes, but that a frozen entry is unranked again: its contact has the token
    /// again); the offer that fills the list ranks every unranked entry (`rankOf`: the rank of an address's contact
    /// now) and puts them in rank order. A full list moves the address when it is there (at its new rank), else inserts
    /// it when it outranks the last entry (which then drops out).
    /// Returns false when nothing changed.
    @discardableResult
    package mutating func offer(address: String, rank: ContactRank, capacity: Int,
                                rankOf: (String) throws -> ContactRank) rethrows -> Bool {
        guard !isFull(capacity: capacity) else { return offerRanked(address: address, rank: rank, capacity: capacity) }
        var at = entries.endIndex
        for (i, e) in entries.enumerated() {
            let order = ContactTop.bytesOrder(address, e.address)
            if order == 0 {
                // Listed: unchanged, unless frozen (`freeze`: its contact had lost the token; offered, it has it again).
                guard e.rank != ContactTop.unranked else { return false }
                entries[i].rank = ContactTop.unranked
                return true
            }
            if order < 0 {
                at = i
                break
            }
        }
        entries.insert(Entry(address: address, rank: ContactTop.unranked), at: at)
        if isFull(capacity: capacity) {
            // Frozen entries keep the rank they were frozen at.
            for i in entries.indices where entries[i].rank == ContactTop.unranked {
                entries[i].rank = i == at ? rank : try rankOf(entries[i].address)
            }
            entries.sort(by: ContactTop.before)
        }
        return true
    }

    /// Gives `address`, listed unranked in a list that is not full, `rank`: its contact no longer has a token this list
    /// is of (a new name), so it will not be offered here again, and when the list fills its entry ranks as it did when
    /// it left, as a full list keeps a stale entry at the rank it was last offered at. Returns false when nothing changed
    /// (a full list, the address not listed, or already frozen).
    @discardableResult
    package mutating func freeze(address: String, rank: ContactRank, capacity: Int) -> Bool {
        guard !isFull(capacity: capacity),
              let i = entries.firstIndex(where: { ContactTop.sameBytes($0.address, address) }),
              entries[i].rank == ContactTop.unranked else { return false }
        entries[i].rank = rank
        return true
    }

    /// `offer` into a full list, kept in rank order: moves `address` when it is there, else inserts it when it
    /// outranks the last entry (which then drops out). Returns false when nothing changed.
    private mutating func offerRanked(address: String, rank: ContactRank, capacity: Int) -> Bool {
        let entry = Entry(address: address, rank: rank)
        // Most offers are of contacts below a full list: decided by its last entry alone. The address cannot be in
        // the list then: its entry there would rank as well or worse (ranks only improve), so after the last one.
        if entries.count >= capacity, let last = entries.last, ContactTop.before(last, entry) { return false }
        if let i = entries.firstIndex(where: { ContactTop.sameBytes($0.address, address) }) {
            if entries[i].rank == rank { return false }
            entries.remove(at: i)
        } else if entries.count >= capacity {
            guard let last = entries.last, ContactTop.before(entry, last) else { return false }
            entries.removeLast()
        }
        let at = entries.firstIndex { ContactTop.before(entry, $0) } ?? entries.endIndex
        entries.insert(entry, at: at)
        return true
    }

    /// List order: rank, then address. A total order: ranks that order neither way (people who wrote, as many
    /// times seen and as recent, whose counts of mail from them differ) go by address, as the index scan orders
    /// them (`ContactCandidates`). Comparing them with `==` left such pairs unordered, in the order they were
    /// offered, so a list depended on how its offers were batched.
    ///
    /// Addresses compare as their UTF-8 bytes, as the index scan and the people table's keys compare them (schema 8;
    /// `String`'s `<` and `==` compare canonical equivalents, so an address and its decomposed twin, two contacts
    /// under two keys, were one entry here, and ties between such addresses were ordered otherwise than by the scan).
    static func before(_ a: Entry, _ b: Entry) -> Bool {
        if a.rank < b.rank { return true }
        if b.rank < a.rank { return false }
        return bytesOrder(a.address, b.address) < 0
    }

    /// Whether `a` and `b` have the same UTF-8 bytes.
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && bytesOrder(a, b) == 0
    }

    /// The order of `a` and `b` by their UTF-8 bytes (negative, zero or positive), the shorter first when one
    /// starts the other.
    static func bytesOrder(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { x in b.withUTF8 { y in Key.order(UnsafeRawBufferPointer(x), UnsafeRawBufferPointer(y)) } }
    }

    package func write(to w: inout ByteWriter) {
        w.writeVarint(UInt64(entries.count))
        for e in entries { w.write(e.address); e.rank.write(to: &w) }
    }

    package init(from r: inout ByteReader) throws(DecodeError) {
        let n = try r.readVarint()
        guard n <= 1_024 else { throw DecodeError.malformed("contact top list of \(n) entries", at: r.offset) }
        entries.reserveCapacity(Int(n))
        for _ in 0..<n {
            let address: String = try r.read()
            entries.append(Entry(address: address, rank: try ContactRank(from: &r)))
        }
    }
}
