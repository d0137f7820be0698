import EventModel

/// Counts and sizes of a log (`mailstore stats`).
public struct LogStats: Sendable {
    /// Per event type: how many and their record bytes.
    public struct TypeStats: Sendable {
        /// The type.
        public var type: EventType
        /// Events of the type.
        public var count: UInt64
        /// Bytes of their records as stored.
        public var storedBytes: UInt64
        /// Bytes of their payloads uncompressed.
        public var payloadBytes: UInt64
    }

    /// Events in the log.
    public var events: UInt64 = 0
    /// Per type, by count descending.
    public var types: [TypeStats] = []
    /// Bytes of all records as stored.
    public var recordBytes: UInt64 = 0
    /// Bytes of all payloads uncompressed.
    public var payloadBytes: UInt64 = 0
    /// Bytes of all payloads as stored.
    public var storedPayloadBytes: UInt64 = 0
    /// Blobs in the blob store.
    public var blobs: UInt64 = 0
    /// Raw bytes of the blobs.
    public var blobRawBytes: UInt64 = 0
    /// Stored bytes of the blobs.
    public var blobStoredBytes: UInt64 = 0
    /// Bytes of the data file in use.
    public var fileBytes: UInt64 = 0
    /// Blob dictionaries stored, and their bytes.
    public var dictionaries: UInt64 = 0
    public var dictionaryBytes: UInt64 = 0
    /// The map size.
    public var mapBytes: UInt64 = 0

    /// Raw / stored for payloads and blobs together (1 when nothing is stored).
    public var compressionRatio: Double {
        let stored = storedPayloadBytes + blobStoredBytes
        return stored == 0 ? 1 : Double(payloadBytes + blobRawBytes) / Double(stored)
    }
}
