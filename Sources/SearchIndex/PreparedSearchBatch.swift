import EventModel

/// A batch of events ready to write: decoded, and each `EmailReceived`'s document built from its raw
/// message (the raw bytes are not kept).
struct PreparedSearchBatch: Sendable {
    var events: [StoredEvent] = []
    /// The decoded events; nil for one that does not decode (skipped: the views' fold quarantines it and
    /// names it, and nothing here can index it).
    var decoded: [DomainEvent?] = []
    /// The document of each `EmailReceived`, by its index in `events`.
    var documents: [Int: SearchDocument] = [:]
    /// The `EmailReceived`s whose raw message could not be read (a damaged blob), in `events` order: their
    /// documents hold what the event carries alone (headers, snippet) (`SearchIndex.noteUnreadBody`).
    var unreadBodies: [UnreadBody] = []
    /// The checkpoint to write with the batch.
    var last: UInt64 = 0
    /// The log's chain hash at `last`, written with it (`SearchIndex.logMismatch` tells another log's index by it);
    /// nil when the log had none to give.
    var link: [UInt8]?
    /// What its events and documents hold, as `SearchBatchReader.heldBytes(payload:document:)` counts them (at most
    /// `SearchIndex.batchBytes` and its last event's).
    var heldBytes = 0
}

/// An email indexed without its body because its raw message could not be read: its blob is damaged.
struct UnreadBody: Sendable {
    var emailID: String
    /// The sequence of its `EmailReceived`.
    var sequence: UInt64
    /// Why the blob did not read (the blob store's error).
    var reason: String
}
