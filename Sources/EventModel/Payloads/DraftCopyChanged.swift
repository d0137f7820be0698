/// What happened to a draft's copy in the server's Drafts folder (each saved version is APPENDed there with
/// `\Draft` and `\Seen`, and the copy before it deleted; the last copy is deleted once the draft is sent or
/// discarded).
public struct DraftCopyChanged: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The step.
    public enum Change: UInt8, Sendable, Equatable, CaseIterable, BinaryField, Encodable, CustomStringConvertible {
        /// About to APPEND `draftVersion` as `messageID` to `folder` (recorded first, so a restart can look the
        /// copy up by Message-ID and a sync that fetches it knows it is one of ours).
        case appending = 1
        /// The copy is in `folder` with `uid` (0 when the server gave no APPENDUID and a SEARCH found nothing).
        case stored = 2
        /// The copy `messageID` (`uid`) was deleted from `folder` (or was gone already).
        case removed = 3
        /// The APPEND or the deletion failed (`reason`); tried again at `retryAt`.
        case failed = 4
        /// The server has no Drafts folder: the draft stays on this device only (`reason` is the warning).
        case localOnly = 5

        public var description: String {
            switch self {
            case .appending: "appending"
            case .stored: "stored"
            case .removed: "removed"
            case .failed: "failed"
            case .localOnly: "local-only"
            }
        }

        @usableFromInline package func write(to w: inout ByteWriter) { w.writeByte(rawValue) }

        @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
            let b = try r.readByte()
            guard let c = Change(rawValue: b) else { throw DecodeError.malformed("unknown draft copy change \(b)", at: r.offset) }
            self = c
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            try c.encode(description)
        }
    }

    /// The draft.
    public var draftID: String
    /// The step.
    public var change: Change
    /// The draft version the copy holds (0 when not about one version).
    public var draftVersion: UInt32
    /// The server folder (the Drafts-role folder's path), empty when none.
    public var folder: String
    /// The copy's Message-ID (without angle brackets), empty when none.
    public var messageID: String
    /// The copy's UID in `folder`, 0 when not known.
    public var uid: UInt32
    /// The folder's UIDVALIDITY with that UID, 0 when not known.
    public var uidValidity: UInt32
    /// Why it failed, or the local-only warning; empty otherwise.
    public var reason: String
    /// The failure's number (1-based), 0 otherwise.
    public var attempt: UInt32
    /// When a failure is tried again.
    public var retryAt: Timestamp?

    /// Creates the payload.
    public init(draftID: String, change: Change, draftVersion: UInt32 = 0, folder: String = "", messageID: String = "",
                uid: UInt32 = 0, uidValidity: UInt32 = 0, reason: String = "", attempt: UInt32 = 0, retryAt: Timestamp? = nil) {
        self.draftID = draftID
        self.change = change
        self.draftVersion = draftVersion
        self.folder = folder
        self.messageID = messageID
        self.uid = uid
        self.uidValidity = uidValidity
        self.reason = reason
        self.attempt = attempt
        self.retryAt = retryAt
    }

    package func encode(to w: inout ByteWriter) {
        w.write(draftID)
        w.write(change)
        w.write(draftVersion)
        w.write(folder)
        w.write(messageID)
        w.write(uid)
        w.write(uidValidity)
        w.write(reason)
        w.write(attempt)
        w.write(retryAt)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        draftID = try r.read()
        change = try r.read()
        draftVersion = try r.read()
        folder = try r.read()
        messageID = try r.read()
        uid = try r.read()
        uidValidity = try r.read()
        reason = try r.read()
        attempt = try r.read()
        retryAt = try r.read()
    }
}
