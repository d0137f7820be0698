import EventModel

/// A projector: a deterministic fold of events into its own tables.
///
/// The same log gives the same tables whether folded incrementally in any batch sizes or rebuilt
/// from scratch: `apply` may only depend on the event and the projector's own tables. A projector opens
/// its tables from its `FoldContext` in `init(context:)` (the one place they are declared); the engine
/// flushes and discards them through the context.
package protocol Projector: AnyObject {
    /// The view's name.
    static var name: ViewName { get }
    /// The schema version of its tables: a change makes stores rebuild the view.
    static var schemaVersion: UInt32 { get }
    /// Creates the projector, opening its tables on `context`.
    init(context: FoldContext)
    /// The event types `apply` folds: the engine hands it no other (each call copies the decoded payload a
    /// projector matches). Every other type must leave the projector's tables as they are; `all` when not declared.
    static var handledEvents: EventTypeSet { get }
    /// Folds one event. It must not throw because of what the event contains (every key and value it
    /// writes is bounded); an error is a bug, and the engine quarantines the event for this view.
    ///
    /// The stored event is lent where the batch holds it (valid for the call): passed as a value, each call copied
    /// it (its envelope's strings and its payload bytes retained and released), once per projector and event, ~2%
    /// of a replay's folding thread, for the few envelope fields a projector reads.
    func apply(_ event: UnsafePointer<StoredEvent>, _ decoded: DomainEvent) throws
    /// Work deferred to the end of a batch, before the tables are written (e.g. recomputing rows).
    func prepareFlush() throws
    /// Drops any state kept beside the tables (the batch was aborted).
    func discardPending()
}

extension Projector {
    /// Folds one event held as a value (tests, and folds of one event at a time).
    package func apply(_ event: StoredEvent, _ decoded: DomainEvent) throws {
        try withUnsafePointer(to: event) { try apply($0, decoded) }
    }

    package static var handledEvents: EventTypeSet { .all }
    package func prepareFlush() throws {}
    package func discardPending() {}
}
