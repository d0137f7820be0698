/// A mailbox name as it travels on the wire and as people read it.
///
/// Names are sent in modified UTF-7 (RFC 3501 §5.1.3), or in UTF-8 once UTF8=ACCEPT is
/// enabled. ``raw`` keeps the exact bytes so a name can be sent back unchanged even when it
/// does not decode; ``name`` is the readable form. Equality and hashing use ``raw``.
package struct MailboxName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The bytes of the name on the wire.
    package let raw: [UInt8]
    /// The decoded name: modified UTF-7 decoded, else the bytes as UTF-8 (invalid sequences replaced).
    package let name: String

    /// The mailbox `INBOX`.
    package static let inbox = MailboxName("INBOX")

    /// The mailbox called `name`, encoded in modified UTF-7 for the wire.
    package init(_ name: String) {
        self.raw = ModifiedUTF7.encode(name)
        self.name = name
    }

    /// The mailbox whose wire bytes are `raw`.
    package init(raw: some Collection<UInt8>) {
        let bytes = Array(raw)
        self.raw = bytes
        if let decoded = try? ModifiedUTF7.decode(bytes) {
            self.name = decoded
        } else {
            self.name = String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The mailbox called `value` (see ``init(_:)``).
    package init(stringLiteral value: String) { self.init(value) }

    /// Whether this is the INBOX (its name is case-insensitive).
    package var isInbox: Bool { IMAPByte.equalsIgnoringCase(raw, "INBOX") }

    /// The decoded name.
    package var description: String { name }

    /// Whether both names have the same wire bytes.
    package static func == (lhs: MailboxName, rhs: MailboxName) -> Bool { lhs.raw == rhs.raw }

    /// Hashes the wire bytes.
    package func hash(into hasher: inout Hasher) { hasher.combine(raw) }
}
