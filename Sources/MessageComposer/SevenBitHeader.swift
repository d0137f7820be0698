/// A composed message's header section with every byte ASCII: for an IMAP server that has not enabled UTF8=ACCEPT
/// (RFC 6855 section 3: such a server may refuse or alter 8-bit header bytes, and Cyrus replaces each with an `X`).
/// Addresses beyond ASCII are in it as RFC 6857 downgrades them (``MessageComposer``'s `mailboxTokens(_:sevenBit:)`).
package struct SevenBitHeader: Sendable, Hashable {
    /// The header fields, each with its CRLF, without the blank line that ends the section.
    package var bytes: [UInt8]
    /// How many bytes of the message (its header fields, without the blank line) these replace.
    package var replacing: Int
    /// The filed copy's `Bcc` field in seven bits; empty without Bcc recipients.
    package var bccField: [UInt8]
    /// Where ``bccField`` goes in ``bytes``.
    package var bccOffset: Int

    /// A header with the given parts.
    package init(bytes: [UInt8], replacing: Int, bccField: [UInt8], bccOffset: Int) {
        self.bytes = bytes
        self.replacing = replacing
        self.bccField = bccField
        self.bccOffset = min(max(0, bccOffset), bytes.count)
    }
}
