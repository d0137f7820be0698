/// Everything about an event except its payload: where it sits in the log, what it is, who caused it
/// and what it answers.
public struct EventEnvelope: Sendable, Equatable {
    /// The global, gap-free sequence number (1-based), assigned at append.
    public var sequence: UInt64
    /// The event's id, also its idempotency key.
    public var id: EventID
    /// The event type.
    public var type: EventType
    /// The schema version the payload was written with.
    public var schemaVersion: UInt16
    /// When the log recorded the event.
    public var recordedAt: Timestamp
    /// When the fact happened (a message's arrival, the user's click), as well as it is known.
    public var occurredAt: Timestamp
    /// The account the event is about (`local` for imports, empty for store-wide events).
    public var account: String
    /// The stream: the entity the event is about, e.g. `email/<id>`, `folder/<account>/<name>`.
    public var stream: String
    /// The event or action this event answers or compensates.
    public var causationID: EventID?
    /// The correlation id shared by every event of one operation (a sync run, a batch action).
    public var correlationID: EventID?
    /// Who caused the event.
    public var actor: Actor

    /// Creates an envelope.
    package init(sequence: UInt64, id: EventID, type: EventType, schemaVersion: UInt16, recordedAt: Timestamp,
                occurredAt: Timestamp, account: String, stream: String, causationID: EventID?,
                correlationID: EventID?, actor: Actor) {
        self.sequence = sequence
        self.id = id
        self.type = type
        self.schemaVersion = schemaVersion
        self.recordedAt = recordedAt
        self.occurredAt = occurredAt
        self.account = account
        self.stream = stream
        self.causationID = causationID
        self.correlationID = correlationID
        self.actor = actor
    }
}
