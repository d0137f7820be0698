import EventModel
import NativeCodecs

/// Stable ids derived from natural keys, so that observing the same fact twice (re-importing a
/// mailbox, re-syncing a folder) yields the same event id and the log appends it once.
public struct Identity {
    private let hasher: SHA256Hasher

    /// Creates a deriver (not thread-safe: one per thread).
    public init() throws { hasher = try SHA256Hasher() }

    private func digest(_ parts: [String]) -> [UInt8] {
        hasher.reset()
        for p in parts {
            var s = p
            s.withUTF8 { hasher.update(UnsafeRawBufferPointer($0)) }
            withUnsafeBytes(of: UInt8(0)) { hasher.update($0) }
        }
        return hasher.finish()
    }

    /// An event id for `kind` (the event type name) and the parts of its natural key.
    public func eventID(_ kind: String, _ parts: String...) -> EventID {
        EventID(digest: digest([kind] + parts))
    }

    /// A short, stable email id (16 hex digits) for a copy at `location` in `folder` of `account`.
    public func emailID(account: String, folder: String, location: String) -> String {
        Hex.lowercase(digest(["email", account, folder, location]).prefix(8))
    }
}
