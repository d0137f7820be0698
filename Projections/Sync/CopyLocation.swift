import EventModel

/// Where an email's server copy is: its folder and UID (the account is the event's).
public struct CopyLocation: BinaryField, Equatable, Sendable {
    public var folder: String
    public var uid: UInt32

    public init(folder: String, uid: UInt32) {
        self.folder = folder
        self.uid = uid
    }

    public func write(to w: inout ByteWriter) { w.write(folder); w.write(uid) }
    public init(from r: inout ByteReader) throws(DecodeError) { folder = try r.read(); uid = try r.read() }
}
