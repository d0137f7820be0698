import EventModel

/// Raw bytes to store in the content-addressed blob store, hashed and compressed ahead of the write
/// transaction (see `EventLog.prepareBlob`).
package struct PendingBlob: Sendable {
    /// SHA-256 of the raw bytes.
    package let hash: BlobHash
    /// The raw size.
    package let rawSize: Int
    /// The stored record (`BlobCodec`).
    package let stored: [UInt8]
    /// The stored record's size.
    package var storedSize: Int { stored.count }
}
