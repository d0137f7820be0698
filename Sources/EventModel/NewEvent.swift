/// An event to append: the typed event plus the envelope fields the caller decides.
///
/// The log assigns the sequence number and the recorded-at time.
package struct NewEvent: Sendable, Equatable {
    /// The id; also the idempotency key: an id already in the log is not appended again.
    package var id: EventID
    /// The typed event.
    package var event: DomainEvent
    /// The account it is about.
    package var account: String
    /// The stream (entity) it is about.
    package var stream: StreamName
    /// When the fact happened.
    package var occurredAt: Timestamp
    /// The event or action this one answers or compensates.
    package var causationID: EventID?
    /// The operation it belongs to.
    package var correlationID: EventID?
    /// Who caused it.
    package var actor: Actor
    /// Optimistic concurrency: the stream's version this append expects.
    package var expectedVersion: ExpectedVersion

    /// The byte offset of `event` in a `NewEvent`, for reading it where it lies in a batch
    /// (`DomainEvent.encodePayload(at:to:)`).
    package static let eventOffset = MemoryLayout<NewEvent>.offset(of: \NewEvent.event)!

    /// Creates an event to append.
    package init(id: EventID = .generate(), event: DomainEvent, account: String, stream: StreamName,
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
