import EventModel

/// Where an email's server copy is: its folder and UID (the account is the event's).
package struct CopyLocation: BinaryField, Equatable, Sendable {
    package var folder: String
    package var uid: UInt32

    package init(folder: String, uid: UInt32) {
        self.folder = folder
        self.uid = uid
    }

    package func write(to w: inout ByteWriter) { w.write(folder); w.write(uid) }
    package init(from r: inout ByteReader) throws(DecodeError) { folder = try r.read(); uid = try r.read() }
}
