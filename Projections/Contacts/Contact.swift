import EventModel

/// Someone seen in From, To or Cc of an account's mail.
public struct Contact: BinaryField, Equatable, Sendable, Encodable {
    public var name: String?
    public var address: String
    /// How many messages named them.
    public var count: UInt64
    /// How many of those they sent.
    public var sent: UInt64
    /// The latest message date that named them.
    public var lastSeen: Timestamp
    /// How many messages the user wrote to them (To or Cc of mail in a Sent-role folder).
    public var wroteTo: UInt64
    /// How many messages they sent that are in a Sent-role folder: the user's own addresses (an alias, another
    /// identity) have some (contacts schema 18); see `isUsersOwn`.
    public var wroteAs: UInt64

    /// Whether this is one of the user's own addresses by its mail: at least half of what it sent is in a Sent-role
    /// folder (an alias; a copy of its mail kept in Sent as well as received counts half). Someone whose mail also
    /// sits in a Sent folder (a delegate's copies, a shared mailbox) but who writes to the user is not.
    public var isUsersOwn: Bool { wroteAs > 0 && sent - Swift.min(sent, wroteAs) <= wroteAs }

    public init(name: String?, address: String, count: UInt64, sent: UInt64, lastSeen: Timestamp, wroteTo: UInt64 = 0,
                wroteAs: UInt64 = 0) {
        self.name = name
        self.address = address
        self.count = count
        self.sent = sent
        self.lastSeen = lastSeen
        self.wroteTo = wroteTo
        self.wroteAs = wroteAs
    }

    @usableFromInline package func write(to w: inout ByteWriter) {
        w.write(name); w.write(address); w.write(count); w.write(sent); w.write(lastSeen); w.write(wroteTo); w.write(wroteAs)
    }
    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        name = try r.read(); address = try r.read(); count = try r.read(); sent = try r.read(); lastSeen = try r.read()
        wroteTo = try r.read(); wroteAs = try r.read()
    }
}
