import EventModel

/// What autocomplete ranks a contact by, stored with each of its prefix-index entries so a completion is
/// one cursor pass: whether they wrote (messages from them), how often they appeared, and when last.
package struct ContactRank: BinaryField, Equatable, Sendable, Comparable {
    package var sent: UInt64
    package var count: UInt64
    package var lastSeen: Timestamp

    package init(sent: UInt64, count: UInt64, lastSeen: Timestamp) {
        self.sent = sent
        self.count = count
        self.lastSeen = lastSeen
    }

    /// The rank of a contact.
    package init(_ c: Contact) { self.init(sent: c.sent, count: c.count, lastSeen: c.lastSeen) }

    /// Lower ranks first: people who wrote, then the most frequent, then the most recent.
    package static func < (a: ContactRank, b: ContactRank) -> Bool {
        if (a.sent > 0) != (b.sent > 0) { return a.sent > 0 }
        if a.count != b.count { return a.count > b.count }
        return a.lastSeen > b.lastSeen
    }

    package func write(to w: inout ByteWriter) { w.write(sent); w.write(count); w.write(lastSeen) }

    /// The rank encoded at the start of `bytes` (borrowed: a prefix index entry's value read in place), or nil
    /// where `init(from:)` throws: what a pass over thousands of entries decodes per entry, without a reader's
    /// checks per byte (each varint read from a pointer, its bounds checked once per byte as `ByteReader` does).
    @inline(__always)
    package init?(borrowing bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return nil }
        var at = 0
        guard let sent = ContactRank.varint(base, bytes.count, &at), let count = ContactRank.varint(base, bytes.count, &at),
              let seen = ContactRank.varint(base, bytes.count, &at) else { return nil }
        self.init(sent: sent, count: count, lastSeen: Timestamp(microseconds: Int64(bitPattern: (seen >> 1) ^ (0 &- (seen & 1)))))
    }

    /// The varint at `at` in the `end` bytes from `base` (`ByteReader.readVarint`'s rules), `at` moved past it.
    @inline(__always)
    private static func varint(_ base: UnsafeRawPointer, _ end: Int, _ at: inout Int) -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while at < end {
            let b = base.load(fromByteOffset: at, as: UInt8.self)
            at += 1
            if shift == 63 && b > 1 { return nil }
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { return nil }
        }
        return nil
    }

    package init(from r: inout ByteReader) throws(DecodeError) { sent = try r.read(); count = try r.read(); lastSeen = try r.read() }
}
