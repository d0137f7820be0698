import EventModel

/// A message's copies within a scope (a folder, or the whole account): how many, how many read, and
/// its category. It is unread when it has copies and none is read.
public struct MessageState: BinaryField, Equatable, Sendable {
    public var copies: Int = 0
    public var seenCopies: Int = 0
    public var category: AICategory = .uncategorized

    public init() {}

    public var exists: Bool { copies > 0 }
    public var isUnread: Bool { copies > 0 && seenCopies == 0 }

    public func write(to w: inout ByteWriter) { w.write(copies); w.write(seenCopies); w.write(category) }
    public init(from r: inout ByteReader) throws(DecodeError) {
        copies = try r.read(); seenCopies = try r.read(); category = try r.read()
    }
}
