import EventModel

/// What the unread view keeps of one email copy.
package struct UnreadEmail: BinaryField, Equatable, Sendable {
    package var account: String
    package var folder: String
    package var messageKey: String
    package var seen: Bool

    package init(account: String, folder: String, messageKey: String, seen: Bool) {
        self.account = account
        self.folder = folder
        self.messageKey = messageKey
        self.seen = seen
    }

    package func write(to w: inout ByteWriter) { w.write(account); w.write(folder); w.write(messageKey); w.write(seen) }
    package init(from r: inout ByteReader) throws(DecodeError) {
        account = try r.read(); folder = try r.read(); messageKey = try r.read(); seen = try r.read()
    }
}
