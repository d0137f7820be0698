// Public model of a generated corpus: folders, flags, features, messages.

/// Folders of the generated Maildir++ tree.
package enum Folder: Int, CaseIterable, Sendable {
    case inbox
    case sent
    case archive
    case drafts
    case trash
    case junk
    case listSwiftDev
    case listRustUsers
    case projectsAlpha

    /// Maildir++ directory name below the root ("" for INBOX).
    package var maildirName: String {
        switch self {
        case .inbox: return ""
        case .sent: return ".Sent"
        case .archive: return ".Archive"
        case .drafts: return ".Drafts"
        case .trash: return ".Trash"
        case .junk: return ".Junk"
        case .listSwiftDev: return ".Lists.swift-dev"
        case .listRustUsers: return ".Lists.rust-users"
        case .projectsAlpha: return ".Projects.Alpha"
        }
    }

    /// IMAP-style name ("INBOX", "Lists/swift-dev", ...).
    package var displayName: String {
        switch self {
        case .inbox: return "INBOX"
        default: return String(maildirName.dropFirst()).split(separator: ".").joined(separator: "/")
        }
    }
}

/// Maildir flags (info "2," letters).
package struct MaildirFlags: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let draft = MaildirFlags(rawValue: 1 << 0)    // D
    package static let flagged = MaildirFlags(rawValue: 1 << 1)  // F
    package static let replied = MaildirFlags(rawValue: 1 << 2)  // R
    package static let seen = MaildirFlags(rawValue: 1 << 3)     // S
    package static let trashed = MaildirFlags(rawValue: 1 << 4)  // T

    /// Letters in ASCII order, as Maildir requires.
    package var letters: String {
        var s = ""
        if contains(.draft) { s += "D" }
        if contains(.flagged) { s += "F" }
        if contains(.replied) { s += "R" }
        if contains(.seen) { s += "S" }
        if contains(.trashed) { s += "T" }
        return s
    }

    func appendLetters(to out: inout [UInt8]) {
        if contains(.draft) { out.append(UInt8(ascii: "D")) }
        if contains(.flagged) { out.append(UInt8(ascii: "F")) }
        if contains(.replied) { out.append(UInt8(ascii: "R")) }
        if contains(.seen) { out.append(UInt8(ascii: "S")) }
        if contains(.trashed) { out.append(UInt8(ascii: "T")) }
    }
}

/// What a message exercises (for tests and statistics).
package struct MessageFeatures: OptionSet, Sendable, Hashable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    package static let reply = MessageFeatures(rawValue: 1 << 0)
    package static let fork = MessageFeatures(rawValue: 1 << 1)              // parent already had a reply
    package static let missingParent = MessageFeatures(rawValue: 1 << 2)     // References name absent messages
    package static let brokenReferences = MessageFeatures(rawValue: 1 << 3)  // garbage in References
    package static let crossPost = MessageFeatures(rawValue: 1 << 4)         // also stored in another folder
    package static let alternative = MessageFeatures(rawValue: 1 << 5)       // multipart/alternative
    package static let htmlOnly = MessageFeatures(rawValue: 1 << 6)
    package static let attachment = MessageFeatures(rawValue: 1 << 7)        // multipart/mixed + attachment
    package static let inlineImage = MessageFeatures(rawValue: 1 << 8)       // multipart/related + Content-ID
    package static let legacyCharset = MessageFeatures(rawValue: 1 << 9)     // non-UTF-8 8-bit charset body
    package static let encodedWords = MessageFeatures(rawValue: 1 << 10)     // RFC 2047 in headers
    package static let quotedPrintable = MessageFeatures(rawValue: 1 << 11)
    package static let base64Text = MessageFeatures(rawValue: 1 << 12)
    package static let mailingList = MessageFeatures(rawValue: 1 << 13)
    package static let quotedReply = MessageFeatures(rawValue: 1 << 14)      // "> " quoted text
    package static let signature = MessageFeatures(rawValue: 1 << 15)        // "-- " line
    package static let fromLine = MessageFeatures(rawValue: 1 << 16)         // body line starting "From "
    package static let rawUTF8Header = MessageFeatures(rawValue: 1 << 17)
    package static let forward = MessageFeatures(rawValue: 1 << 18)
    package static let notification = MessageFeatures(rawValue: 1 << 19)
    package static let junk = MessageFeatures(rawValue: 1 << 20)
    package static let eightBit = MessageFeatures(rawValue: 1 << 21)
}

/// One message file (or mbox entry) of the corpus.
package struct GeneratedMessage: Sendable {
    /// The RFC 5322 message, CRLF line ends.
    package var bytes: [UInt8]
    /// Length of the header block including the CRLF of its last line; the
    /// empty separator line follows at this offset.
    package var headerLength: Int
    package var folder: Folder
    package var flags: MaildirFlags
    /// Unseen mail delivered to `new/` (no ":2," info).
    package var isNew: Bool
    /// Delivery time (seconds since 1970, UTC).
    package var timestamp: Int
    /// Envelope sender (for the mbox From_ line).
    package var envelopeSender: [UInt8]
    /// Position in the corpus (0 ..< messages): unique per file.
    package var slot: Int
    /// Index of the distinct message (copies of a cross-post share it).
    package var uniqueIndex: Int
    package var threadID: Int
    /// This entry is the second copy of a cross-posted message.
    package var isCopy: Bool
    package var features: MessageFeatures
}

/// Base of all generated dates: 2024-01-01T00:00:00Z.
package let corpusBaseEpoch = 1_704_067_200
/// Dates are spread over two years (731 days).
package let corpusSpanSeconds = 731 * 86_400
