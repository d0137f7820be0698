import EventModel

/// What an action needs of an email copy (its account, folder and flags), read from the threads view's
/// `EmailRecord` bytes without making the record's other strings: resolving a 1,000-thread action reads ~3,000
/// records, and their subjects, snippets and senders are not used.
package struct EmailCopyState: Equatable, Sendable {
    package var account: String
    package var folder: String
    package var flags: [String]

    /// True when the copy has `\Seen`.
    package var isSeen: Bool { flags.contains("\\Seen") }
    /// True when the copy has `\Flagged`.
    package var isFlagged: Bool { flags.contains("\\Flagged") }

    /// The state of `record`.
    package init(_ record: EmailRecord) {
        account = record.account
        folder = record.folder
        flags = record.flags
    }

    /// Reads the fields of an encoded `EmailRecord` (its layout: `EmailRecord.write(to:)`), skipping the others,
    /// checked as a full decode checks them.
    package init(from r: inout ByteReader) throws(DecodeError) {
        account = try r.read(); folder = try r.read()
        try r.skipString()  // messageKey
        try r.skipString()  // threadID
        _ = try r.readSignedVarint()  // date
        switch try r.readByte() {  // sender: an optional address (an optional name, then the address)
        case 0: break
        case 1:
            switch try r.readByte() {
            case 0: break
            case 1: try r.skipString()
            case let b: throw DecodeError.malformed("optional tag \(b)", at: r.offset - 1)
            }
            try r.skipString()
        case let b: throw DecodeError.malformed("optional tag \(b)", at: r.offset - 1)
        }
        try r.skipString()  // subject
        try r.skipString()  // snippet
        flags = try r.read()
    }
}
