/// A copy's flags changed at the source.
public struct FlagsChanged: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The email.
    public var emailID: String
    /// Its folder.
    public var folder: String
    /// The full flag set now.
    public var flags: [String]
    /// Flags added.
    public var added: [String]
    /// Flags removed.
    public var removed: [String]
    /// MODSEQ of the change (CONDSTORE).
    public var modSeq: UInt64?

    /// Creates the payload.
    public init(emailID: String, folder: String, flags: [String], added: [String] = [], removed: [String] = [], modSeq: UInt64? = nil) {
        self.emailID = emailID
        self.folder = folder
        self.flags = flags
        self.added = added
        self.removed = removed
        self.modSeq = modSeq
    }

    package func encode(to w: inout ByteWriter) {
        w.write(emailID)
        w.write(folder)
        w.write(flags)
        w.write(added)
        w.write(removed)
        w.write(modSeq)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        emailID = try r.read()
        folder = try r.read()
        flags = try r.readFlagList()
        added = try r.readFlagList()
        removed = try r.readFlagList()
        modSeq = try r.read()
    }
}
