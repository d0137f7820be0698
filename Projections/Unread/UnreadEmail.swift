import EventModel

/// What the unread view keeps of one email copy.
public struct UnreadEmail: BinaryField, Equatable, Sendable {
    public var account: String
    public var folder: String
    public var messageKey: String
    public var seen: Bool

    public init(account: String, folder: String, messageKey: String, seen: Bool) {
        self.account = account
        self.folder = folder
        self.messageKey = messageKey
        self.seen = seen
    }

    public func write(to w: inout ByteWriter) { w.write(account); w.write(folder); w.write(messageKey); w.write(seen) }
    public init(from r: inout ByteReader) throws(DecodeError) {
        account = try r.read(); folder = try r.read(); messageKey = try r.read(); seen = try r.read()
    }
}
