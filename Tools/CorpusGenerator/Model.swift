// Public model of a generated corpus: folders, flags, features, messages.

/// Folders of the generated Maildir++ tree.
public enum Folder: Int, CaseIterable, Sendable {
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
    public var maildirName: String {
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
    public var displayName: String {
        switch self {
        case .inbox: return "INBOX"
        default: return String(maildirName.dropFirst()).split(separator: ".").joined(separator: "/")
        }
    }
}

/// Maildir flags (info "2," letters).
public struct MaildirFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let draft = MaildirFlags(rawValue: 1 << 0)    // D
    public static let flagged = MaildirFlags(rawValue: 1 << 1)  // F
    public static let replied = MaildirFlags(rawValue: 1 << 2)  // R
    public static let seen = MaildirFlags(rawValue: 1 << 3)     // S
    public static let trashed = MaildirFlags(rawValue: 1 << 4)  // T

    /// Letters in ASCII order, as Maildir requires.
    public var letters: String {
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
public struct MessageFeatures: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let reply = MessageFeatures(rawValue: 1 << 0)
    public static let fork = MessageFeatures(rawValue: 1 << 1)              // parent already had a reply
    public static let missingParent = MessageFeatures(rawValue: 1 << 2)     // References name absent messages
    public static let brokenReferences = MessageFeatures(rawValue: 1 << 3)  // garbage in References
    public static let crossPost = MessageFeatures(rawValue: 1 << 4)         // also stored in another folder
    public static let alternative = MessageFeatures(rawValue: 1 << 5)       // multipart/alternative
    public static let htmlOnly = MessageFeatures(rawValue: 1 << 6)
    public static let attachment = MessageFeatures(rawValue: 1 << 7)        // multipart/mixed + attachment
    public static let inlineImage = MessageFeatures(rawValue: 1 << 8)       // multipart/related + Content-ID
    public static let legacyCharset = MessageFeatures(rawValue: 1 << 9)     // non-UTF-8 8-bit charset body
    public static let encodedWords = MessageFeatures(rawValue: 1 << 10)     // RFC 2047 in headers
    public static let quotedPrintable = MessageFeatures(rawValue: 1 << 11)
    public static let base64Text = MessageFeatures(rawValue: 1 << 12)
    public static let mailingList = MessageFeatures(rawValue: 1 << 13)
    public static let quotedReply = MessageFeatures(rawValue: 1 << 14)      // "> " quoted text
    public static let signature = MessageFeatures(rawValue: 1 << 15)        // "-- " line
    public static let fromLine = MessageFeatures(rawValue: 1 << 16)         // body line starting "From "
    public static let rawUTF8Header = MessageFeatures(rawValue: 1 << 17)
    public static let forward = MessageFeatures(rawValue: 1 << 18)
    public static let notification = MessageFeatures(rawValue: 1 << 19)
    public static let junk = MessageFeatures(rawValue: 1 << 20)
    public static let eightBit = MessageFeatures(rawValue: 1 << 21)
}

/// One message file (or mbox entry) of the corpus.
public struct GeneratedMessage: Sendable {
    /// The RFC 5322 message, CRLF line ends.
    public var bytes: [UInt8]
    /// Length of the header block including the CRLF of its last line; the
    /// empty separator line follows at this offset.
    public var headerLength: Int
    public var folder: Folder
    public var flags: MaildirFlags
    /// Unseen mail delivered to `new/` (no ":2," info).
    public var isNew: Bool
    /// Delivery time (seconds since 1970, UTC).
    public var timestamp: Int
    /// Envelope sender (for the mbox From_ line).
    public var envelopeSender: [UInt8]
    /// Position in the corpus (0 ..< messages): unique per file.
    public var slot: Int
    /// Index of the distinct message (copies of a cross-post share it).
    public var uniqueIndex: Int
    public var threadID: Int
    /// This entry is the second copy of a cross-posted message.
    public var isCopy: Bool
    public var features: MessageFeatures
}

/// Base of all generated dates: 2024-01-01T00:00:00Z.
public let corpusBaseEpoch = 1_704_067_200
/// Dates are spread over two years (731 days).
public let corpusSpanSeconds = 731 * 86_400
