/// Prefix index entries (each a contact's rank and address) held to be taken best first: what a completion of several
/// words keeps of its first word's entries while it checks them against the others.
///
/// The addresses lie in one buffer (no array per entry). Entries are taken in the order `ContactTop` keeps (the better
/// rank first, then the address bytes) through a binary heap of their numbers, made at the first `next()`: taking `k`
/// of `n` entries costs O(n + k log n), not a sort of all `n`. The same contact under two tokens of a word (a name word
/// and its address) comes out twice in a row.
package struct RankedContactEntries {
    private struct Entry {
        var rank: ContactRank
        var start: Int
        var end: Int
    }

    private var entries: [Entry] = []
    private var arena: [UInt8] = []
    /// The heap of entry numbers still to take (made at the first `next()` or `keep(where:)`).
    private var heap: [Int] = []
    private var heaped = false

    package init() {}

    /// How many entries were added.
    package var count: Int { entries.count }

    /// How many are still to take.
    package var remaining: Int { heaped ? heap.count : entries.count }

    /// Adds an entry.
    package mutating func append(rank: ContactRank, address: UnsafeRawBufferPointer) {
        precondition(!heaped, "entries are added before any is taken")
        entries.append(Entry(rank: rank, start: arena.count, end: arena.count + address.count))
        arena.append(contentsOf: address)
    }

    /// Keeps, of the entries still to take, those whose address (borrowed) `keep` accepts.
    package mutating func keep(where keep: (UnsafeRawBufferPointer) -> Bool) {
        let left = heaped ? heap : Array(entries.indices)
        heap = arena.withUnsafeBytes { a in left.filter { keep(UnsafeRawBufferPointer(rebasing: a[entries[$0].start..<entries[$0].end])) } }
        heaped = true
        withParts { entries, arena, heap in
            for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { RankedContactEntries.siftDown(i, heap, entries, arena) }
        }
    }

    /// The best entry still to take, its rank and address bytes, or nil when none is left.
    package mutating func next() -> (rank: ContactRank, address: ArraySlice<UInt8>)? {
        if !heaped { keep { _ in true } }
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            withParts { entries, arena, heap in RankedContactEntries.siftDown(0, heap, entries, arena) }
        }
        return (entries[top].rank, arena[entries[top].start..<entries[top].end])
    }

    /// The heap, entries and addresses as buffers (no bounds or uniqueness checks in the sift's loop).
    private mutating func withParts(_ body: (UnsafeBufferPointer<Entry>, UnsafeRawBufferPointer, UnsafeMutableBufferPointer<Int>) -> Void) {
        entries.withUnsafeBufferPointer { e in
            arena.withUnsafeBytes { a in
                heap.withUnsafeMutableBufferPointer { h in body(e, a, h) }
            }
        }
    }

    /// Whether entry `a` comes before entry `b`: the better rank, then the address bytes.
    @inline(__always)
    private static func before(_ a: Entry, _ b: Entry, _ arena: UnsafeRawBufferPointer) -> Bool {
        if a.rank < b.rank { return true }
        if b.rank < a.rank { return false }
        return Key.order(UnsafeRawBufferPointer(rebasing: arena[a.start..<a.end]), UnsafeRawBufferPointer(rebasing: arena[b.start..<b.end])) < 0
    }

    private static func siftDown(_ start: Int, _ heap: UnsafeMutableBufferPointer<Int>, _ entries: UnsafeBufferPointer<Entry>,
                                 _ arena: UnsafeRawBufferPointer) {
        var i = start
        while true {
            let l = 2 * i + 1, r = l + 1
            var best = i
            if l < heap.count && before(entries[heap[l]], entries[heap[best]], arena) { best = l }
            if r < heap.count && before(entries[heap[r]], entries[heap[best]], arena) { best = r }
            if best == i { return }
            heap.swapAt(i, best)
            i = best
        }
    }
}
