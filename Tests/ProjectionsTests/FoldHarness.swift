import EventModel
import Projections
import XCTest

/// Every projector folding into one in-memory store, as the views engine does over LMDB (batches:
/// apply each event, then prepare and flush), without LMDB.
final class FoldHarness {
    static var types: [any Projector.Type] {
        [ThreadsProjector.self, UnreadProjector.self, FoldersProjector.self, OutboxProjector.self, DedupProjector.self,
         AccountsProjector.self, SyncStateProjector.self, ActionsProjector.self, DraftsProjector.self, ContactsProjector.self,
         NotificationsProjector.self]
    }

    let store = InMemoryKeyValueStore()
    private(set) var folds: [(context: FoldContext, projector: any Projector)] = []
    private var sequence: UInt64 = 0

    init(types: [any Projector.Type] = FoldHarness.types) {
        for t in types {
            let context = FoldContext(store: store)
            folds.append((context, t.init(context: context)))
        }
    }

    /// The next stored event for `event` in `account`.
    func stored(_ event: DomainEvent, account: String, stream: String = "s") -> StoredEvent {
        sequence += 1
        let at = Timestamp(microseconds: 1_700_000_000_000_000 + Int64(sequence))
        let envelope = EventEnvelope(sequence: sequence, id: EventID(high: 0x0190_0000_0000_0000 | sequence, low: 0x8000_0000_0000_0000 | sequence),
                                     type: event.type, schemaVersion: 1, recordedAt: at, occurredAt: at, account: account,
                                     stream: stream, causationID: nil, correlationID: nil, actor: .system)
        return StoredEvent(envelope: envelope, payload: [])
    }

    /// Folds `events` as one batch into every projector.
    func fold(_ events: [DomainEvent], account: String) throws {
        let batch = events.map { (stored($0, account: account), $0) }
        for f in folds {
            for (ev, decoded) in batch { try f.projector.apply(ev, decoded) }
            try f.projector.prepareFlush()
            try f.context.flush()
        }
    }

    /// A snapshot of the store for readers.
    var snapshot: Snapshot { Snapshot(store) }
}

extension Projector {
    /// Applies `events` of account `acct` at the sequences after `sequence` (which it advances), then prepares the
    /// flush: one batch of a fold, as the views engine makes it.
    func applyBatch(_ events: [DomainEvent], after sequence: inout UInt64) throws {
        try apply(events, after: &sequence)
        try prepareFlush()
    }

    /// Applies `events` of account `acct` at the sequences after `sequence` (which it advances), without ending the
    /// batch.
    func apply(_ events: some Sequence<DomainEvent>, after sequence: inout UInt64) throws {
        for e in events {
            sequence += 1
            let at = Timestamp(microseconds: 1_700_000_000_000_000 + Int64(sequence))
            let envelope = EventEnvelope(sequence: sequence, id: EventID(high: sequence, low: sequence), type: e.type, schemaVersion: 1,
                                         recordedAt: at, occurredAt: at, account: "acct", stream: "s", causationID: nil,
                                         correlationID: nil, actor: .sync)
            try apply(StoredEvent(envelope: envelope, payload: []), e)
        }
    }
}

/// An in-memory store that counts the puts and deletes made to each table.
final class CountingStore: KeyValueStore {
    let inner = InMemoryKeyValueStore()
    var puts: [String: Int] = [:]
    var deletes: [String: Int] = [:]
    /// Puts and deletes in every table.
    var writes: Int { puts.values.reduce(0, +) + deletes.values.reduce(0, +) }
    func get(_ table: String, _ key: [UInt8]) throws -> [UInt8]? { try inner.get(table, key) }
    func scan(_ table: String, from start: [UInt8], _ body: ([UInt8], [UInt8]) throws -> Bool) throws { try inner.scan(table, from: start, body) }
    func put(_ table: String, _ key: [UInt8], _ value: [UInt8]) throws { puts[table, default: 0] += 1; try inner.put(table, key, value) }
    func delete(_ table: String, _ key: [UInt8]) throws { deletes[table, default: 0] += 1; try inner.delete(table, key) }
    /// Forgets the counts.
    func reset() { puts = [:]; deletes = [:] }
}
