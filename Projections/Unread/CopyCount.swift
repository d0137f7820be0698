import EventModel

/// A message's copies within a scope (a folder, or the whole account): how many, and how many are read. The
/// message is unread there when it has copies and none is read.
package struct CopyCount: BinaryField, Equatable, Sendable {
    package var copies = 0
    package var seenCopies = 0

    package init() {}

    package var exists: Bool { copies > 0 }
    package var isUnread: Bool { copies > 0 && seenCopies == 0 }

    package func write(to w: inout ByteWriter) { w.write(copies); w.write(seenCopies) }
    package init(from r: inout ByteReader) throws(DecodeError) { copies = try r.read(); seenCopies = try r.read() }
}
