extension ByteReader {
    /// The flag lists most messages carry, each with its encoding, made once: a list read whose bytes are one of
    /// these encodings is that shared array (a retain), not a new array and new strings. `\Seen` alone is the flags
    /// of most mail in a mailbox.
    @usableFromInline static let commonFlagLists: [(encoding: [UInt8], list: [String])] = [
        ["\\Seen"], ["\\Flagged"], ["\\Seen", "\\Flagged"], ["\\Answered"], ["\\Seen", "\\Answered"],
        ["\\Seen", "\\Answered", "\\Flagged"],
    ].map { list in
        var w = ByteWriter(capacity: 64)
        w.write(list)
        return (w.bytes, list)
    }

    /// Reads a list of strings written as `[String]` (`BinaryField`), giving one of `commonFlagLists` where the bytes
    /// are its encoding. The encoding is self-delimiting (a count, then each string's length), so bytes that begin
    /// with a list's whole encoding decode as exactly that list: the result equals what `read()` gives.
    @inlinable package mutating func readFlagList() throws(DecodeError) -> [String] {
        let at = offset
        // An empty list, or a count byte no common list has, is read as any list.
        if at < base.count, base[at] != 0, base[at] <= 3 {
            for common in ByteReader.commonFlagLists where common.encoding.count <= base.count - at {
                var same = true
                for k in common.encoding.indices where base[at + k] != common.encoding[k] {
                    same = false
                    break
                }
                if same {
                    _offset = at + common.encoding.count
                    return common.list
                }
            }
        }
        return try read()
    }
}
