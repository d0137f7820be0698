import EventModel

/// The best `limit` contacts met so far in a pass over the prefix index, in rank order (`ContactRank`, then
/// address bytes), one per address: what a completion of a long prefix keeps while it reads thousands of
/// index entries. An entry that would not enter costs one comparison and no allocation.
///
/// Each kept contact has a slot that stays where it is: its rank in `ranks`, its address bytes in `arena` (slot `s`
/// at `s * slotBytes`, its length in `lengths`). The order is a list of slot numbers, so an entry that enters moves
/// integers, and one that enters a full list takes over the slot of the one it pushes out. Where entries come in
/// rising rank every one enters (a prefix's addresses in key order, each newer than the last): that path copies
/// the address into its slot and shifts at most `limit` integers, with no array made or resized. The slots grow
/// (all at once) only when an address longer than any before enters; index keys bound them (`Key.maxPartBytes`).
package struct ContactCandidates {
    /// One kept contact: its rank and its address as stored in the key (bounded, lowercased).
    package struct Entry {
        package var rank: ContactRank
        package var address: [UInt8]
    }

    package let limit: Int
    private var ranks: [ContactRank] = []
    private var lengths: [Int] = []
    /// The slots' address bytes, `slotBytes` each.
    private var arena: [UInt8]
    private var slotBytes: Int
    /// Slot numbers, best first: the first `kept` of `limit`.
    private var order: [Int]
    private var kept = 0

    /// An empty list keeping at most `limit` (at least 1) contacts.
    package init(limit: Int) {
        self.limit = max(1, limit)
        slotBytes = Key.maxPartBytes + 32
        arena = [UInt8](repeating: 0, count: self.limit * slotBytes)
        ranks.reserveCapacity(self.limit)
        lengths.reserveCapacity(self.limit)
        order = [Int](repeating: 0, count: self.limit)
    }

    /// The contacts kept, best first.
    package var entries: [Entry] {
        order[..<kept].map { s in Entry(rank: ranks[s], address: Array(arena[bytesRange(of: s)])) }
    }

    /// Offers the contact at `address` (borrowed bytes) with `rank`.
    package mutating func offer(rank: ContactRank, address: UnsafeRawBufferPointer) {
        let full = kept == limit
        if full, !precedes(rank, address, slot: order[kept - 1]) { return }
        // The place: before the first kept entry it precedes. Entries are in a total order (rank, then address), so
        // the same address under another token (the same rank) would be the entry just before that place: kept once.
        var at = 0
        while at < kept && !precedes(rank, address, slot: order[at]) { at += 1 }
        if at > 0 {
            let s = order[at - 1]
            if ranks[s] == rank && same(address, slot: s) { return }
        }
        let slot: Int
        if full {
            slot = order[kept - 1]
            ranks[slot] = rank
        } else {
            slot = ranks.count
            ranks.append(rank)
            lengths.append(0)
            kept += 1
        }
        store(address, in: slot)
        // The slots from `at` on move one place down (the last one's, when full, was taken over above).
        order.withUnsafeMutableBufferPointer { o in
            let base = o.baseAddress!
            if kept - 1 > at {
                UnsafeMutableRawPointer(base + at + 1).copyMemory(from: base + at, byteCount: (kept - 1 - at) * MemoryLayout<Int>.stride)
            }
            base[at] = slot
        }
    }

    /// Copies `address` into `slot`, growing every slot first when it is longer than they are.
    private mutating func store(_ address: UnsafeRawBufferPointer, in slot: Int) {
        if address.count > slotBytes { grow(to: address.count) }
        lengths[slot] = address.count
        guard let source = address.baseAddress, address.count > 0 else { return }
        let start = slot * slotBytes
        arena.withUnsafeMutableBytes { $0.baseAddress!.advanced(by: start).copyMemory(from: source, byteCount: address.count) }
    }

    /// Moves every slot's bytes into slots of `bytes` (rounded up to 64).
    private mutating func grow(to bytes: Int) {
        let wider = (bytes + 63) / 64 * 64
        var moved = [UInt8](repeating: 0, count: limit * wider)
        for s in 0..<lengths.count {
            moved[(s * wider)..<(s * wider + lengths[s])] = arena[bytesRange(of: s)]
        }
        arena = moved
        slotBytes = wider
    }

    /// Where the address in `slot` lies in `arena`.
    private func bytesRange(of slot: Int) -> Range<Int> { (slot * slotBytes)..<(slot * slotBytes + lengths[slot]) }

    /// `address` against the address in `slot`, as `Key.order` compares them.
    private func compare(_ address: UnsafeRawBufferPointer, slot: Int) -> Int {
        arena.withUnsafeBytes { Key.order(address, UnsafeRawBufferPointer(rebasing: $0[bytesRange(of: slot)])) }
    }

    /// Whether `address` has the bytes of the address in `slot`.
    private func same(_ address: UnsafeRawBufferPointer, slot: Int) -> Bool {
        lengths[slot] == address.count && compare(address, slot: slot) == 0
    }

    /// Whether (`rank`, `address`) comes before the contact in `slot`: the better rank first, then the address bytes.
    private func precedes(_ rank: ContactRank, _ address: UnsafeRawBufferPointer, slot: Int) -> Bool {
        let other = ranks[slot]
        if rank < other { return true }
        if other < rank { return false }
        return compare(address, slot: slot) < 0
    }
}
