import EventModel
import LMDB

extension EventLog {
    /// Records visited backwards per read transaction by `startOfLast` (as `scan` bounds a filtered chunk).
    package static let tailVisitsPerChunk = 8_192

    /// Where the newest `count` events of `from...through` that `filter` lets through begin: the sequence of the
    /// oldest of them, or `from` when fewer pass (a scan from there to `through` shows exactly them). Walks back
    /// from `through` (a stream's through its index) in read transactions of at most `tailVisitsPerChunk` records,
    /// keeping nothing but a count, the log's mapped pages released past the budget after each: its memory does
    /// not grow with `count` or the log. A record whose header does not decode counts as passing (the scan after
    /// shows it, and its error).
    package func startOfLast(_ count: Int, from: UInt64, through: UInt64, filter: ScanFilter) throws -> UInt64 {
        let from = max(from, 1)
        guard count > 0 else { return through &+ 1 }
        guard from <= through else { return from }
        var found = 0
        func passes(_ raw: UnsafeRawBufferPointer, _ seq: UInt64) -> Bool {
            if let types = filter.types, let t = RecordCodec.peekType(raw), !types.contains(t) { return false }
            if let account = filter.account, let h = try? RecordCodec.decodeHeader(raw, sequence: seq),
               h.envelope.account != account { return false }
            found += 1
            return true
        }
        // The next sequence to look at going back; nil once `from` is passed or nothing is left.
        var next: UInt64? = through
        var key = [UInt8](repeating: 0, count: 8)
        let streamKey = filter.stream.map { EventLog.streamKey($0.rawValue) }
        while let upper = next {
            var start: UInt64?
            var visited = 0
            next = nil
            // Looks at `seq` going back; false where the walk stops (before `from`, the count found, or this
            // transaction's visits spent: `next` says where the next one goes on).
            var below = upper &+ 1
            func look(_ seq: UInt64, _ raw: UnsafeRawBufferPointer?) throws -> Bool {
                // Going back, each sequence is below the one before: one that is not comes from a damaged page,
                // and would walk the same records forever.
                guard seq < below else { throw EventLog.outOfOrder(seq, after: below, backwards: true) }
                below = seq
                if seq < from { return false }
                if visited == EventLog.tailVisitsPerChunk { next = seq; return false }
                visited += 1
                if let raw, passes(raw, seq), found == count { start = seq; return false }
                return true
            }
            try environment.read { txn in
                if let streamKey {
                    try txn.withCursor(streamEvents) { c in
                        // The stream's newest entry at or before `upper`: the one before the first past it.
                        var entry: Cursor.Entry?
                        EventLog.encodeSequence(upper &+ 1, into: &key)
                        let past = try streamKey.withUTF8Buffer { k in try key.withUnsafeBytes { try c.seek(key: k, valueAtLeast: $0) } }
                        if past != nil {
                            entry = try c.previousDuplicate()
                        } else if try streamKey.withUTF8Buffer({ try c.seek(exactly: $0) }) != nil {
                            entry = try c.lastDuplicate()
                        }
                        while let e = entry, e.value.count == 8 {
                            let seq = EventLog.decodeSequence(e.value)
                            EventLog.encodeSequence(seq, into: &key)
                            guard try look(seq, try key.withUnsafeBytes { try txn.get(events, key: $0) }) else { return }
                            entry = try c.previousDuplicate()
                        }
                    }
                } else {
                    try txn.withCursor(events) { c in
                        EventLog.encodeSequence(upper, into: &key)
                        var entry = try key.withUnsafeBytes { try c.seek(atLeast: $0) }
                        if let e = entry, EventLog.decodeSequence(e.key) > upper { entry = try c.previous() } else if entry == nil { entry = try c.last() }
                        while let e = entry, e.key.count == 8 {
                            guard try look(EventLog.decodeSequence(e.key), e.value) else { return }
                            entry = try c.previous()
                        }
                    }
                }
            }
            environment.releaseResidentPages(over: Environment.residentFileBudget)
            if let start { return start }
        }
        return from
    }

    /// The type of the newest event of each of `streams` at or before sequence `through` (nil: at the head), in their
    /// order: nil for a stream with none then, or whose record's header does not decode. One read transaction, one
    /// index lookup and one record's type read per stream (`MailStore.removedAccounts()` asks it of the `account/`
    /// streams: the log's word on each, whatever point the views have folded to).
    package func newestTypes(of streams: [String], through: UInt64? = nil) throws -> [EventType?] {
        var key = [UInt8](repeating: 0, count: 8)
        return try environment.read { txn in
            try txn.withCursor(streamEvents) { c in
                try streams.map { stream -> EventType? in
                    let streamKey = EventLog.streamKey(stream)
                    var entry: Cursor.Entry?
                    // The stream's newest entry at or before `through`: the one before the first past it, else its last.
                    if let through, through < UInt64.max {
                        EventLog.encodeSequence(through + 1, into: &key)
                        if try streamKey.withUTF8Buffer({ k in try key.withUnsafeBytes { try c.seek(key: k, valueAtLeast: $0) } }) != nil {
                            entry = try c.previousDuplicate()
                        } else if try streamKey.withUTF8Buffer({ try c.seek(exactly: $0) }) != nil {
                            entry = try c.lastDuplicate()
                        }
                    } else if try streamKey.withUTF8Buffer({ try c.seek(exactly: $0) }) != nil {
                        entry = try c.lastDuplicate()
                    }
                    guard let e = entry, e.value.count == 8 else { return nil }
                    let seq = EventLog.decodeSequence(e.value)
                    if let through, seq > through { return nil }
                    EventLog.encodeSequence(seq, into: &key)
                    return try key.withUnsafeBytes { try txn.get(events, key: $0) }.flatMap(RecordCodec.peekType)
                }
            }
        }
    }

    /// The first sequence recorded at or after `time`, or the head's + 1 when none is: a binary search, recorded
    /// times never going back along the log (`appendIn`). In a log written before they were kept so, a time the
    /// clock went back over names one of the points it could.
    package func firstSequence(recordedAtOrAfter time: Timestamp) throws -> UInt64 {
        let head = try head().sequence
        var lo: UInt64 = 1, hi = head &+ 1
        var key = [UInt8](repeating: 0, count: 8)
        try environment.read { txn in
            while lo < hi {
                let mid = lo + (hi - lo) / 2
                EventLog.encodeSequence(mid, into: &key)
                let at = try key.withUnsafeBytes { try txn.get(events, key: $0) }.flatMap(RecordCodec.recordedAt)
                // A record missing or cut short is taken as early (verify names it).
                if let at, at >= time { hi = mid } else { lo = mid + 1 }
            }
        }
        return lo
    }
}
