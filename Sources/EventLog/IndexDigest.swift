/// Order-independent digests of index entries, for `EventLog.verify`: each entry (its key's length and bytes, then its value's)
/// hashed with this process's random seed (`Hasher`, SipHash) and the hashes summed, per index. The records' expected
/// entries and an index's stored ones give the same sums, whatever their order, exactly when they are the same
/// multiset of entries, but for a chance of about 2^-64 a damage; the seed is drawn anew in every process, so no file
/// can be made to collide on purpose.
struct IndexDigest: Equatable {
    /// The sum of one index's entry hashes, and their count.
    struct Sum: Equatable {
        private(set) var total: UInt64 = 0
        private(set) var count: UInt64 = 0

        /// Adds the entry `key` -> `value`.
        mutating func add(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
            var h = Hasher()
            h.combine(key.count)
            h.combine(bytes: key)
            h.combine(bytes: value)
            total &+= UInt64(truncatingIfNeeded: h.finalize())
            count += 1
        }
    }

    /// The id index: event id -> sequence.
    var ids = Sum()
    /// The stream index: stream key -> sequence.
    var streams = Sum()
}
