import EventModel

/// A message's copies within a scope (a folder, or the whole account): how many, how many read, and
/// its category. It is unread when it has copies and none is read.
package struct MessageState: BinaryField, Equatable, Sendable {
    package var copies: Int = 0
    package var seenCopies: Int = 0
    package var category: AICategory = .uncategorized

    package init() {}

    package var exists: Bool { copies > 0 }
    package var isUnread: Bool { copies > 0 && seenCopies == 0 }

    package func write(to w: inout ByteWriter) { w.write(copies); w.write(seenCopies); w.write(category) }
    package init(from r: inout ByteReader) throws(DecodeError) {
        copies = try r.read(); seenCopies = try r.read(); category = try r.read()
    }
}
