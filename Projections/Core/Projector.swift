import EventModel

/// A projector: a deterministic fold of events into its own tables.
///
/// The same log gives the same tables whether folded incrementally in any batch sizes or rebuilt
/// from scratch: `apply` may only depend on the event and the projector's own tables.
public protocol Projector: AnyObject {
    /// The view's name (`threads`, `unread`, ...).
    static var name: String { get }
    /// The schema version of its tables: a change makes stores rebuild the view.
    static var schemaVersion: UInt32 { get }
    /// The tables it owns.
    static var tables: [String] { get }
    /// Creates the projector over `store`.
    init(store: KeyValueStore)
    /// Drops every cached change (the transaction they were meant for was aborted).
    func discard()
    /// Folds one event.
    func apply(_ event: StoredEvent, _ decoded: DomainEvent) throws
    /// Writes every cached change to the store.
    func flush() throws
}
