import EventModel

/// The best `limit` contacts met so far in a pass over the prefix index, in rank order (`ContactRank`, then
/// address bytes), one per address: what a completion of a long prefix keeps while it reads thousands of
/// index entries. An entry that would not enter costs one comparison and no allocation. Each kept contact has a
/// slot (its rank and address bytes) that stays where it is; the order is a list of slot numbers, so an entry
/// that enters moves integers, and one that enters a full list takes over the slot of the one it pushes out
/// (where entries come in rising rank, every one enters).
package struct ContactCandidates {
    /// One kept contact: its rank and its address as stored in the key (bounded, lowercased).
    package struct Entry {
        package var rank: ContactRank
        package var address: [UInt8]
    }

    package let limit: Int
    private var ranks: [ContactRank] = []
    private var addresses: [[UInt8]] = []
    /// Slot numbers, best first.
    private var order: [Int] = []

    /// An empty list keeping at most `limit` (at least 1) contacts.
    package init(limit: Int) {
        self.limit = max(1, limit)
        ranks.reserveCapacity(self.limit)
        addresses.reserveCapacity(self.limit)
        order.reserveCapacity(self.limit + 1)
    }

    /// The contacts kept, best first.
    package var entries: [Entry] { order.map { Entry(rank: ranks[$0], address: addresses[$0]) } }

    /// Offers the contact at `address` (borrowed bytes) with `rank`.
    package mutating func offer(rank: ContactRank, address: UnsafeRawBufferPointer) {
        let full = order.count >= limit
        if full, !precedes(rank, address, slot: order[order.count - 1]) { return }
        // The same address under another token carries the same rank: kept once.
        if order.contains(where: { ranks[$0] == rank && addresses[$0].elementsEqual(address) }) { return }
        // Before the last entry when the list is full, so still a place in it once that one is out.
        let at = order.firstIndex { precedes(rank, address, slot: $0) } ?? order.endIndex
        let slot: Int
        if full {
            slot = order.removeLast()
            ranks[slot] = rank
            addresses[slot].removeAll(keepingCapacity: true)
            addresses[slot].append(contentsOf: address)
        } else {
            slot = ranks.count
            ranks.append(rank)
            addresses.append(Array(address))
        }
        order.insert(slot, at: at)
    }

    /// Whether (`rank`, `address`) comes before the contact in `slot`.
    private func precedes(_ rank: ContactRank, _ address: UnsafeRawBufferPointer, slot: Int) -> Bool {
        ContactCandidates.before(rank, address, ranks[slot], addresses[slot])
    }

    /// Whether (`rank`, `address`) comes before (`other`, `otherAddress`): the better rank first, then the
    /// address bytes.
    private static func before(_ rank: ContactRank, _ address: UnsafeRawBufferPointer, _ other: ContactRank,
                               _ otherAddress: [UInt8]) -> Bool {
        if rank < other { return true }
        if other < rank { return false }
        return otherAddress.withUnsafeBytes { kept in Key.order(address, kept) < 0 }
    }
}
