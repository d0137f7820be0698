/// The keys `ContactsProjector.shortPrefixKeys` collects: `Key(account, prefix)` for each distinct prefix, in the
/// order first met. A prefix met before (a first name and the address that starts with it) is found by its bytes:
/// up to 7 packed into an integer with their count, so finding one compares integers; a longer one (characters of
/// several bytes) compared as bytes. A struct with a mutating `add`, where a nested function had captured these
/// variables in boxes (each change an exclusivity check at run time).
struct ShortPrefixKeys {
    /// The keys collected.
    private(set) var keys: [[UInt8]] = []
    private let base: Key
    private var seen: [UInt64] = []
    private var seenLong = Set<[UInt8]>()

    /// Collects keys under `base` (the account's part), with room for `capacity`.
    init(base: Key, capacity: Int) {
        self.base = base
        keys.reserveCapacity(capacity)
        seen.reserveCapacity(capacity)
    }

    /// Adds `Key(account, prefix)` unless a key with the same part is there already.
    mutating func add(_ prefix: UnsafeBufferPointer<UInt8>) {
        var key = base
        key.string(utf8: prefix)
        let partStart = base.bytes.count, partEnd = key.bytes.count - 1
        let count = partEnd - partStart
        if count < 8 {
            var id = UInt64(count)
            for i in 0..<count { id |= UInt64(key.bytes[partStart + i]) << (8 * (7 - UInt64(i))) }
            if seen.contains(id) { return }
            seen.append(id)
        } else if !seenLong.insert(Array(key.bytes[partStart..<partEnd])).inserted {
            return
        }
        keys.append(key.bytes)
    }
}
