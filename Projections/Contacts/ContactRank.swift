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

    /// The rank encoded at the start of `bytes` (borrowed: a prefix index entry's value read in place, no copy made),
    /// or nil where `init(from:)` throws (a damaged view file's value, skipped by the pass that reads it).
    @inline(__always)
    package init?(borrowing bytes: UnsafeRawBufferPointer) {
        var r = ByteReader(bytes)
        guard let rank = try? ContactRank(from: &r) else { return nil }
        self = rank
    }

    package init(from r: inout ByteReader) throws(DecodeError) { sent = try r.read(); count = try r.read(); lastSeen = try r.read() }
}
