import Foundation

/// Encoded chunks whose appends are done, emptied and kept for the next chunks to write into.
///
/// A chunk's record buffer is ~0.5 MB (1,024 events): allocated fresh for every chunk, each of its pages was
/// faulted in and zeroed by the kernel as the encoder first wrote it, a quarter of the encoding thread's time in
/// the log bench's profile. Kept ones are written again where they are.
///
/// Bound: at most `budget` bytes of buffers are kept (8 MiB: a 16,000-event batch's chunks); a chunk given
/// back beyond it is freed. Both encoding threads of an append take from it, so it locks.
final class SpareBatches: @unchecked Sendable {
    private let lock = NSLock()
    private var spare: [PreparedBatch] = []
    private var held = 0
    /// The most buffer bytes kept.
    static let budget = 8 << 20

    /// The buffer bytes kept now.
    var heldBytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return held
    }

    /// An emptied chunk with the capacity it had, if one is kept.
    func take() -> PreparedBatch? {
        lock.lock()
        defer { lock.unlock() }
        guard let batch = spare.popLast() else { return nil }
        held -= batch.capacityBytes
        return batch
    }

    /// Empties `batch` (keeping its buffers) and keeps it while the budget allows.
    func give(_ batch: consuming PreparedBatch) {
        var batch = batch
        batch.removeAll()
        let size = batch.capacityBytes
        lock.lock()
        defer { lock.unlock() }
        guard held + size <= SpareBatches.budget else { return }
        held += size
        spare.append(batch)
    }
}
