/// A new-mail notification was shown for an email.
public struct NotificationDelivered: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The email.
    public var emailID: String

    /// Creates the payload.
    public init(emailID: String) {
        self.emailID = emailID
    }

    package func encode(to w: inout ByteWriter) {
        w.write(emailID)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        emailID = try r.read()
    }
}
