import EventModel
import Glibc

/// The best `limit` contacts met so far in a pass over the prefix index, in rank order (`ContactRank`, then
/// address bytes), one per address: what a completion of a long prefix keeps while it reads thousands of
/// index entries. An entry that would not enter costs one comparison and no allocation.
struct ContactCandidates {
    /// One kept contact: its rank and its address as stored in the key (bounded, lowercased).
    struct Entry {
        var rank: ContactRank
        var address: [UInt8]
    }

    let limit: Int
    private(set) var entries: [Entry] = []

    /// An empty list keeping at most `limit` (at least 1) contacts.
    init(limit: Int) {
        self.limit = max(1, limit)
        entries.reserveCapacity(self.limit + 1)
    }

    /// Offers the contact at `address` (borrowed bytes) with `rank`.
    mutating func offer(rank: ContactRank, address: UnsafeRawBufferPointer) {
        if entries.count >= limit, !ContactCandidates.before(rank, address, entries[entries.count - 1]) { return }
        // The same address under another token carries the same rank: kept once.
        if entries.contains(where: { $0.rank == rank && $0.address.elementsEqual(address) }) { return }
        let at = entries.firstIndex { ContactCandidates.before(rank, address, $0) } ?? entries.endIndex
        entries.insert(Entry(rank: rank, address: Array(address)), at: at)
        if entries.count > limit { entries.removeLast() }
    }

    /// Whether (`rank`, `address`) comes before `entry`.
    static func before(_ rank: ContactRank, _ address: UnsafeRawBufferPointer, _ entry: Entry) -> Bool {
        if rank < entry.rank { return true }
        if entry.rank < rank { return false }
        return entry.address.withUnsafeBytes { kept in
            let common = min(address.count, kept.count)
            let order = common == 0 ? 0 : memcmp(address.baseAddress!, kept.baseAddress!, common)
            return order < 0 || (order == 0 && address.count < kept.count)
        }
    }
}
