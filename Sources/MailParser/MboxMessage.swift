import Foundation

/// One message cut out of an mbox file by `MboxSplitter`.
package struct MboxMessage: Sendable, Hashable {
    /// The message bytes (From_ line removed, `>From ` quoting undone,
    /// separating blank line removed, line endings as in the file).
    package var bytes: [UInt8]
    /// The envelope sender from the From_ line, if any.
    package var envelopeSender: String?
    /// The date from the From_ line (asctime form, UTC unless a zone is
    /// given), if parseable.
    package var envelopeDate: Date?
    /// Set when the message was longer than the splitter's limit: its size in bytes (its `bytes` are
    /// then empty: it was dropped, not cut).
    package var oversizedBytes: Int?

    /// Whether it is an empty message (a From_ line followed by another, or by the file's end): nothing to import.
    package var isEmpty: Bool { bytes.isEmpty && oversizedBytes == nil }

    /// Creates a message.
    package init(bytes: [UInt8], envelopeSender: String? = nil, envelopeDate: Date? = nil, oversizedBytes: Int? = nil) {
        self.bytes = bytes
        self.oversizedBytes = oversizedBytes
        self.envelopeSender = envelopeSender
        self.envelopeDate = envelopeDate
    }
}
