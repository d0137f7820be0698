/// A mailbox's UIDs in sequence order as EXPUNGEs renumber them (RFC 3501 7.4.1: each EXPUNGE moves every message
/// after it down by one) and arrivals add to them, for ``IdleChanges``: an EXPUNGE, a look-up of a sequence number,
/// an arrival cost O(log n) each, however the server orders a storm of EXPUNGEs (removing from an array had cost
/// O(n) an EXPUNGE: a storm at the 2^20-UID limit, minutes of the IDLE loop stalled).
///
/// The UIDs stay in the slots they arrived in; a Fenwick tree counts, for each range of slots, the messages not
/// expunged, so the k-th message is found by descending it. Expunged slots are dropped once they are more than a
/// quarter of those left (each slot then copied once: O(1) a removal, amortized). Memory: 8 bytes a slot (its UID and
/// its tree count) and a bit, at most 1.25 slots a message (plus 1).
struct SequenceNumbers {
    /// The UIDs by slot (0: not known), expunged ones included until the next compaction.
    private var slots: [UInt32]
    /// A bit a slot: set once expunged.
    private var expunged: [UInt64]
    /// The Fenwick tree (1-based, `tree[0]` unused): `tree[i]` counts the messages left in slots `(i - lowbit(i), i]`.
    private var tree: [UInt32]
    /// How many messages are left (the mailbox's count as the server told it).
    private(set) var count: Int
    /// The steps taken so far, each a tree node or a slot visited: what a storm costs, counted (tests read it).
    private(set) var steps = 0

    /// The UIDs of a mailbox, in sequence order (0 where not known).
    init(_ uids: [UInt32]) {
        slots = uids
        expunged = []
        tree = []
        count = uids.count
        rebuild()
    }

    /// The UIDs left, in sequence order.
    var uids: [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(count)
        for (i, uid) in slots.enumerated() where !isExpunged(i) { out.append(uid) }
        return out
    }

    /// The UID of message `seq` (1-based; 0: not known), nil past the count.
    mutating func uid(at seq: Int) -> UInt32? {
        guard seq >= 1, seq <= count else { return nil }
        let s = slot(of: seq)
        return slots[s]
    }

    /// `n` messages arrived after the last (UIDs not known).
    mutating func append(unknown n: Int) {
        guard n > 0 else { return }
        if n >= count {
            // Many at once: the slots are compacted and the tree built again, once (O(count + n)).
            slots.append(contentsOf: repeatElement(0, count: n))
            count += n
            rebuild()
            return
        }
        for _ in 0..<n {
            slots.append(0)
            let i = slots.count
            if (i - 1) >> 6 >= expunged.count { expunged.append(0) }
            // The new node counts slots (i - lowbit(i), i]: the new one and those its range takes from before it.
            let below = prefix(i - 1) - prefix(i - (i & -i))
            tree.append(UInt32(1 + below))
            count += 1
        }
    }

    /// Message `seq` (1-based, at most ``count``) was expunged: those after it move down by one.
    mutating func remove(_ seq: Int) {
        precondition(seq >= 1 && seq <= count, "sequence number \(seq) outside 1...\(count)")
        let s = slot(of: seq)
        expunged[s >> 6] |= 1 << UInt64(s & 63)
        var i = s + 1
        while i < tree.count {
            tree[i] -= 1
            i += i & -i
            steps += 1
        }
        count -= 1
        if (slots.count - count) * 4 > count { rebuild() }
    }

    /// Whether slot `s` was expunged (a slot past the bits, appended since the last rebuild, was not).
    private func isExpunged(_ s: Int) -> Bool { s >> 6 < expunged.count && expunged[s >> 6] & (1 << UInt64(s & 63)) != 0 }

    /// How many messages are left in slots 1...i (1-based).
    private mutating func prefix(_ i: Int) -> Int {
        var sum = 0, i = i
        while i > 0 {
            sum += Int(tree[i])
            i -= i & -i
            steps += 1
        }
        return sum
    }

    /// The slot (0-based) of message `seq` (1-based, within the count): the tree descended, highest range first.
    private mutating func slot(of seq: Int) -> Int {
        var pos = 0, left = seq
        var step = 1
        while step * 2 < tree.count { step *= 2 }
        while step > 0 {
            if pos + step < tree.count, Int(tree[pos + step]) < left {
                pos += step
                left -= Int(tree[pos])
            }
            step >>= 1
            steps += 1
        }
        return pos
    }

    /// Drops the expunged slots and builds the tree of those left (O(slots)).
    private mutating func rebuild() {
        steps += slots.count
        if !expunged.isEmpty {
            var kept = 0
            for s in slots.indices where !isExpunged(s) {
                slots[kept] = slots[s]
                kept += 1
            }
            slots.removeLast(slots.count - kept)
        }
        expunged = Array(repeating: 0, count: (slots.count + 63) >> 6)
        tree = Array(repeating: 1, count: slots.count + 1)
        tree[0] = 0
        for i in 1..<tree.count {
            let up = i + (i & -i)
            if up < tree.count { tree[up] += tree[i] }
        }
    }
}
