/// Delivered notifications of a thread were withdrawn (the thread was read, archived, deleted or muted,
/// here, on another device or by a sync).
public struct NotificationWithdrawn: PayloadCodable {
    /// The schema version this build writes.
    public static let schemaVersion: UInt16 = 1

    /// The emails whose notifications were withdrawn.
    public var emailIDs: [String]
    /// Their thread.
    public var threadID: String
    /// Why: `read`, `archived`, `deleted`, `muted`.
    public var reason: String

    /// Creates the payload.
    public init(emailIDs: [String], threadID: String, reason: String) {
        self.emailIDs = emailIDs
        self.threadID = threadID
        self.reason = reason
    }

    package func encode(to w: inout ByteWriter) {
        w.write(emailIDs)
        w.write(threadID)
        w.write(reason)
    }

    package init(from r: inout ByteReader, version: UInt16) throws(DecodeError) {
        emailIDs = try r.read()
        threadID = try r.read()
        reason = try r.read()
    }
}
