/// An event to append: the typed event plus the envelope fields the caller decides.
///
/// The log assigns the sequence number and the recorded-at time.
public struct NewEvent: Sendable, Equatable {
    /// The id; also the idempotency key: an id already in the log is not appended again.
    public var id: EventID
    /// The typed event.
    public var event: DomainEvent
    /// The account it is about.
    public var account: String
    /// The stream (entity) it is about.
    public var stream: StreamName
    /// When the fact happened.
    public var occurredAt: Timestamp
    /// The event or action this one answers or compensates.
    public var causationID: EventID?
    /// The operation it belongs to.
    public var correlationID: EventID?
    /// Who caused it.
    public var actor: Actor
    /// Optimistic concurrency: the stream's version this append expects.
    public var expectedVersion: ExpectedVersion

    /// Creates an event to append.
    public init(id: EventID = .generate(), event: DomainEvent, account: String, stream: StreamName,
                occurredAt: Timestamp = .now, causationID: EventID? = nil, correlationID: EventID? = nil,
                actor: Actor, expectedVersion: ExpectedVersion = .any) {
        self.id = id
        self.event = event
        self.account = account
        self.stream = stream
        self.occurredAt = occurredAt
        self.causationID = causationID
        self.correlationID = correlationID
        self.actor = actor
        self.expectedVersion = expectedVersion
    }
}
