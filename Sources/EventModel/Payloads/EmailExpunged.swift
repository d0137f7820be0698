/// A copy left its folder at the source (expunged, moved away, or its UIDs retired).
public struct EmailExpunged: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The email.
    public var emailID: String
    /// The folder it left.
    public var folder: String
    /// Its UID there.
    public var uid: UInt32?

    /// Creates the payload.
    public init(emailID: String, folder: String, uid: UInt32? = nil) {
        self.emailID = emailID
        self.folder = folder
        self.uid = uid
    }

    package func encode(to w: inout ByteWriter) {
        w.write(emailID)
        w.write(folder)
        w.write(uid)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        emailID = try r.read()
        folder = try r.read()
        uid = try r.read()
    }
}
