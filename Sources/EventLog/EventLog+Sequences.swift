import EventModel
import LMDB

extension EventLog {
    /// Events read per read transaction by `events(at:)`.
    static let lookupChunk = 512

    /// Calls `body` with the event at each of `sequences`, in the order given (a sequence past the head is
    /// skipped), until it returns false. Reads `lookupChunk` of them per read transaction, those decoded events held
    /// until `body` has seen them, and releases the log's mapped pages past the budget after each: a history spread
    /// over a 1M-event log maps no more than a scan does.
    package func events(at sequences: [UInt64], _ body: (StoredEvent) throws -> Bool) throws {
        let decoder = try RecordDecoder()
        var key = [UInt8](repeating: 0, count: 8)
        var batch: [StoredEvent] = []
        batch.reserveCapacity(min(sequences.count, EventLog.lookupChunk))
        var start = 0
        while start < sequences.count {
            let end = min(start + EventLog.lookupChunk, sequences.count)
            batch.removeAll(keepingCapacity: true)
            try environment.read { txn in
                for seq in sequences[start..<end] {
                    EventLog.encodeSequence(seq, into: &key)
                    guard let raw = try key.withUnsafeBytes({ try txn.get(events, key: $0) }) else { continue }
                    batch.append(try decoder.decode(raw, sequence: seq))
                }
            }
            environment.releaseResidentPages(over: Environment.residentFileBudget)
            for ev in batch where try !body(ev) { return }
            start = end
        }
    }
}
