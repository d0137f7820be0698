/// The threads a thread search skipped (its offset), by id only: a views thread id (16 hexadecimal digits) as
/// the 64-bit number it spells, any other id as its text.
struct SkippedThreads {
    /// How many threads were skipped (copies that are their own thread included, which are not kept).
    var count = 0
    private var packed = Set<UInt64>()
    private var other = Set<String>()

    /// Whether `thread` was skipped.
    func contains(_ thread: String) -> Bool {
        if let n = SkippedThreads.pack(thread) { return packed.contains(n) }
        return other.contains(thread)
    }

    /// Counts `thread` as skipped.
    mutating func insert(_ thread: String) {
        count += 1
        if let n = SkippedThreads.pack(thread) { packed.insert(n) } else { other.insert(thread) }
    }

    /// The number a 16-digit lowercase hexadecimal id spells; nil for any other id (so no two ids share a number).
    static func pack(_ id: String) -> UInt64? {
        let bytes = id.utf8
        guard bytes.count == 16 else { return nil }
        var n: UInt64 = 0
        for b in bytes {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): n = n << 4 | UInt64(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): n = n << 4 | UInt64(b - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        return n
    }
}
