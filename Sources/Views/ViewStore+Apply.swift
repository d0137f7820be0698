import EventModel
import Projections

extension ViewStore {
    /// Hands `projector` the events of a batch (parallel arrays: `events[i]` decoded as `decoded[i]`) that come
    /// after `checkpoint`, are not in `skipped` and have a type in `handles`, in order.
    ///
    /// The events are read through buffer pointers, which lend each one to the call: an array's subscript gives a
    /// copy, a retain of every string and array of the payload and a release after, per event and per projector
    /// (~14% of a `replay --view unread` at 100K, in the profile of 2026-11-29).
    static func apply(_ projector: any Projector, handles: EventTypeSet, events: [StoredEvent], decoded: [DomainEvent],
                      skipped: Set<Int> = [], after checkpoint: UInt64 = 0) throws {
        precondition(events.count == decoded.count, "a batch's events and their decoded payloads are parallel arrays")
        let checksSkipped = !skipped.isEmpty
        try events.withUnsafeBufferPointer { stored in
            try decoded.withUnsafeBufferPointer { payloads in
                for i in stored.indices where stored[i].envelope.sequence > checkpoint && handles.contains(stored[i].envelope.type)
                    && !(checksSkipped && skipped.contains(i)) {
                    try projector.apply(stored.baseAddress! + i, payloads[i])
                }
            }
        }
    }

    /// Hands `projector` the events of a batch at `indices` (parallel arrays, as `apply(_:handles:events:decoded:)`
    /// reads them, lent rather than copied), in the order given.
    static func apply(_ projector: any Projector, events: [StoredEvent], decoded: [DomainEvent], at indices: [Int]) throws {
        precondition(events.count == decoded.count, "a batch's events and their decoded payloads are parallel arrays")
        try events.withUnsafeBufferPointer { stored in
            try decoded.withUnsafeBufferPointer { payloads in
                for i in indices { try projector.apply(stored.baseAddress! + i, payloads[i]) }
            }
        }
    }

    /// The email copies the events of `decoded` change (`CopyChange.count(of:)` summed), each read in place: a
    /// `reduce` over the array is handed a copy of every event (2-3% of a `replay --view unread` at 100K).
    static func copyCount(_ decoded: [DomainEvent]) -> Int {
        decoded.withUnsafeBufferPointer { payloads in
            var copies = 0
            for i in payloads.indices { copies += CopyChange.count(of: payloads[i]) }
            return copies
        }
    }
}
