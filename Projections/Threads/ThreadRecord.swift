import EventModel

/// A thread's membership as the threads view stores it: its emails, every message key linked to it, and
/// the index keys its row is listed under. Read and written whole: bounded by `ThreadBound`.
package struct ThreadRecord: BinaryField, Equatable, Sendable {
    package var id: String
    package var account: String
    /// The email copies in the thread.
    package var emailIDs: [String]
    /// Every message key (seen or only referenced) that maps to this thread.
    package private(set) var memberKeys: [String]
    /// The UTF-8 bytes of `memberKeys` (counted as they are added or read, not stored).
    package private(set) var memberKeyBytes: Int
    /// The sequence of the event that created the thread (the older thread survives a merge).
    package var firstSequence: UInt64
    /// The index keys the row is listed under (so they can be removed when it changes).
    package var indexKeys: [[UInt8]]

    package init(id: String, account: String, firstSequence: UInt64) {
        self.id = id
        self.account = account
        emailIDs = []
        memberKeys = []
        memberKeyBytes = 0
        self.firstSequence = firstSequence
        indexKeys = []
    }

    /// True while the thread takes more mail: under both of `bound`'s limits.
    package func hasRoom(_ bound: ThreadBound) -> Bool { bound.hasRoom(emails: emailIDs.count, keyBytes: memberKeyBytes) }

    /// Adds a message key that now maps to this thread.
    package mutating func addMemberKey(_ key: String) {
        memberKeys.append(key)
        memberKeyBytes += key.utf8.count
    }

    package func write(to w: inout ByteWriter) {
        w.write(id); w.write(account); w.write(emailIDs); w.write(memberKeys); w.write(firstSequence)
        w.writeVarint(UInt64(indexKeys.count))
        for k in indexKeys { w.writeBytes(k) }
    }

    /// The email ids of an encoded record, its other fields not decoded (an action's resolve needs only them).
    package static func emailIDs(from r: inout ByteReader) throws(DecodeError) -> [String] {
        try r.skipString()  // id
        try r.skipString()  // account
        return try r.read()
    }

    package init(from r: inout ByteReader) throws(DecodeError) {
        id = try r.read(); account = try r.read(); emailIDs = try r.read()
        let keys: [String] = try r.read()
        memberKeys = keys
        memberKeyBytes = keys.reduce(0) { $0 + $1.utf8.count }
        firstSequence = try r.read()
        let n = try r.readLength()
        var index: [[UInt8]] = []
        for _ in 0..<n { index.append(try r.readBytes()) }
        indexKeys = index
    }
}
