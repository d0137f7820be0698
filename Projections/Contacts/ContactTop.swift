import EventModel

/// The best-ranked contacts whose tokens start with one short prefix (1 to `ContactsProjector.topPrefixLength`
/// characters): what a completion of a short prefix reads instead of scanning the thousands of index entries
/// such a prefix matches.
///
/// Kept in rank order (`ContactRank`, then address), at most `ContactsProjector.topSize` entries, one per
/// address. Ranks only ever improve (counts and the last date grow), so an address outside a full list ranks
/// below every entry in it. An entry may be stale: a contact whose name changed no longer has the token that
/// put it here. The reader checks each entry against the contact's current tokens and scans the index when a
/// full list has too few that still match.
package struct ContactTop: BinaryField, Equatable, Sendable {
    /// One contact in the list.
    package struct Entry: Equatable, Sendable {
        /// The lowercased address (the people table's key part).
        package var address: String
        package var rank: ContactRank
    }

    package var entries: [Entry] = []

    package init() {}

    /// Puts `address` at `rank` into the list: moves it when it is there, else inserts it when the list has
    /// room or it outranks the last entry (which then drops out).
    /// Returns false when nothing changed.
    @discardableResult
    package mutating func offer(address: String, rank: ContactRank, capacity: Int) -> Bool {
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
