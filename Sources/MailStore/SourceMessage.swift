import Foundation

/// One message found in an import source, before it is read and parsed.
struct SourceMessage: Sendable {
    /// Where its bytes are.
    enum Content: Sendable {
        /// A file (Maildir).
        case file(String)
        /// A file (Maildir) its listing opened already: read through the descriptor; the path names it in errors.
        case opened(OpenedFile, path: String)
        /// Bytes already read (mbox).
        case bytes([UInt8])
    }

    /// The folder it belongs to.
    var folder: String
    /// Its stable location within the folder: the Maildir unique name, or the mbox ordinal.
    var location: String
    /// Its bytes.
    var content: Content
    /// Flags from the source (Maildir info letters, mbox Status/X-Status).
    var flags: [String]
    /// A date to use when the message has none: the file time or the mbox From_ line.
    var fallbackDate: Date?
    /// The byte size, when known before reading (for batching).
    var size: Int
    /// True for mbox messages: flags come from their Status and X-Status headers.
    var mboxStatus = false
}
