/// One table's changes in the spilled runs (`SpilledRuns`), merged in key order and read one at a time: where several
/// runs hold a key, the newest run's change is given (a nil `value`: deleted) and the others' are passed over. The key
/// and value point into the runs' read buffers (`SpillSectionReader`): valid until `advance()`. No allocation per entry.
final class MergedRuns {
    /// The runs' readers, newest first.
    private let readers: [SpillSectionReader]
    /// The reader whose entry is current (the smallest key; on a tie the newest run's), nil past the last.
    private var winner: SpillSectionReader?

    /// Merges the readers of one table's sections, `newestFirst`, each at its first entry.
    init(newestFirst readers: [SpillSectionReader]) {
        self.readers = readers
        pick()
    }

    /// The current entry's key, nil past the last.
    var key: UnsafeRawBufferPointer? { winner?.key }
    /// The current entry's value (nil: deleted); only while `key` is not nil.
    var value: UnsafeRawBufferPointer? { winner?.value }

    private func pick() {
        var best: SpillSectionReader?
        for r in readers {
            guard let k = r.key else { continue }
            // Strictly smaller only: on a tie the earlier (newer) run stays.
            if let b = best, !SpilledRuns.precedes(k, b.key!) { continue }
            best = r
        }
        winner = best
    }

    /// Moves past the current key in every run that holds it.
    func advance() throws {
        guard let w = winner, let key = w.key else { return }
        // The winner moves last: its key is the one compared.
        for r in readers where r !== w {
            if let k = r.key, SpilledRuns.equal(k, key) { try r.advance() }
        }
        try w.advance()
        pick()
    }
}
