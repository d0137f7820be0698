/// What a folder is for, from SPECIAL-USE, provider names or name heuristics.
public enum FolderRole: UInt8, Sendable, CaseIterable, BinaryField, CustomStringConvertible {
    /// A folder with no special role.
    case custom = 0
    case inbox = 1
    case sent = 2
    case drafts = 3
    case trash = 4
    case junk = 5
    case archive = 6
    /// Gmail's All Mail.
    case all = 7
    /// Starred / Flagged virtual folders.
    case flagged = 8
    case important = 9

    public var description: String {
        switch self {
        case .custom: "custom"
        case .inbox: "inbox"
        case .sent: "sent"
        case .drafts: "drafts"
        case .trash: "trash"
        case .junk: "junk"
        case .archive: "archive"
        case .all: "all"
        case .flagged: "flagged"
        case .important: "important"
        }
    }

    @usableFromInline package func write(to w: inout ByteWriter) { w.writeByte(rawValue) }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        let b = try r.readByte()
        // An unknown role written by a newer build reads as custom rather than failing.
        self = FolderRole(rawValue: b) ?? .custom
    }
}
