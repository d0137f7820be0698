import EventModel

/// A draft's copies in the server's Drafts folder and how putting them there went, as the drafts view keeps
/// it: kept while the draft exists or while a copy of it is still to be deleted from the server.
public struct DraftServerState: BinaryField, Equatable, Sendable {
    /// One copy on the server (or being APPENDed).
    public struct Copy: BinaryField, Equatable, Sendable {
        /// The draft version it holds.
        public var version: UInt32
        public var folder: String
        /// Its Message-ID (without angle brackets): how it is found again when its UID is not known.
        public var messageID: String
        /// Its UID, 0 when not known.
        public var uid: UInt32
        public var uidValidity: UInt32
        /// False while only `appending` is recorded (the APPEND may or may not have happened).
        public var stored: Bool

        @usableFromInline package func write(to w: inout ByteWriter) {
            w.write(version); w.write(folder); w.write(messageID); w.write(uid); w.write(uidValidity); w.write(stored)
        }

        @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
            version = try r.read(); folder = try r.read(); messageID = try r.read(); uid = try r.read(); uidValidity = try r.read()
            stored = try r.read()
        }

        package init(version: UInt32, folder: String, messageID: String, uid: UInt32, uidValidity: UInt32, stored: Bool) {
            self.version = version
            self.folder = folder
            self.messageID = messageID
            self.uid = uid
            self.uidValidity = uidValidity
            self.stored = stored
        }
    }

    public var account: String
    public var draftID: String
    /// The copies not yet deleted from the server, oldest first (at most ``maxCopies``).
    public var copies: [Copy] = []
    /// Failures in a row (0 after a success).
    public var attempts: UInt32 = 0
    /// When the last failure is tried again.
    public var retryAt: Timestamp?
    /// The last failure's reason or the local-only warning; empty when the last step succeeded.
    public var problem: String = ""
    /// The version found to have no Drafts folder to go to (0: none): it stays local until the folders change.
    public var localOnlyVersion: UInt32 = 0

    /// The most copies kept per draft (a newer one replaces the older; more only pile up when deletions fail).
    package static let maxCopies = 64

    package init(account: String, draftID: String) {
        self.account = account
        self.draftID = draftID
    }

    /// The copy of `version` on the server, if it is stored there.
    public func stored(version: UInt32) -> Copy? {
        copies.last { $0.version == version && $0.stored }
    }

    @usableFromInline package func write(to w: inout ByteWriter) {
        w.write(account); w.write(draftID)
        w.write(UInt32(copies.count))
        for c in copies { w.write(c) }
        w.write(attempts); w.write(retryAt); w.write(problem); w.write(localOnlyVersion)
    }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        account = try r.read(); draftID = try r.read()
        let n: UInt32 = try r.read()
        guard n <= Self.maxCopies else { throw DecodeError.malformed("\(n) draft copies", at: r.offset) }
        for _ in 0..<Int(n) { copies.append(try r.read()) }
        attempts = try r.read(); retryAt = try r.read(); problem = try r.read(); localOnlyVersion = try r.read()
    }
}
