/// One email copy an action resolved to, as it was when the action was taken.
public struct ActionTarget: Hashable, Sendable, Encodable, BinaryField {
    /// The email.
    public var emailID: String
    /// The folder it was in.
    public var folder: String
    /// Its flags before the action.
    public var flags: [String]

    /// Creates a target.
    public init(emailID: String, folder: String, flags: [String]) {
        self.emailID = emailID
        self.folder = folder
        self.flags = flags
    }

    @usableFromInline package func write(to w: inout ByteWriter) {
        w.write(emailID)
        w.write(folder)
        w.write(flags)
    }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        emailID = try r.read()
        folder = try r.read()
        flags = try r.readFlagList()
    }
}
