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
    /// Where it is within the folder, as shown (`sourceLocation`): the Maildir unique name, or the mbox ordinal (`#3`).
    var location: String
    /// The SHA-256 of an mbox message's bytes, which its ids derive from (`identityKey`) and its blob is stored under
    /// (not computed again); nil for Maildir.
    var contentHash: BlobHash?
    /// Which copy of those bytes in its mbox this is (1: the first): identical copies are each a message.
    var copy = 1
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
    /// Maildir: another file of its folder with the same unique name was listed before it in this import (`m/new/1.a`
    /// and `m/cur/1.a:2,S`; `Sent/` and `.Sent/`; the root and `.INBOX/`). The importer then compares its bytes with
    /// the message the log holds under that name (`Importer.resolveCollisions`).
    var collided = false
    /// Maildir: the SHA-256 of a collided message's bytes when they differ from those of the message the log holds
    /// under its unique name: its ids then derive from the name and this hash (`identityKey`), so it is a message of
    /// its own, and the same one each import.
    var collisionHash: BlobHash?

    /// The natural key its event ids and email id derive from within its account and folder: the Maildir unique name
    /// (stable as flags change the file's name), or an mbox message's content (`sha256:` and its hex, then `#2`, `#3`…
    /// for a second and third identical copy in the file). Not the mbox ordinal: a second mbox imported into the same
    /// folder, or one whose earlier messages were deleted, has other messages at the same ordinals, which the log then
    /// took for mail it had (before 2026-12-04: see `Importer.presentByOrdinal`).
    /// A Maildir file whose unique name another file of its folder had first, with other bytes (`collisionHash`):
    /// the name, `/sha256:` (a `/` is in no file name) and the hex of its bytes' SHA-256.
    var identityKey: String {
        if let collisionHash { return location + "/sha256:" + collisionHash.hex }
        guard let contentHash else { return location }
        return "sha256:" + contentHash.hex + (copy > 1 ? "#\(copy)" : "")
    }
}
