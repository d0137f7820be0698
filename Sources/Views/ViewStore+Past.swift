import EventModel
import LMDB
import Projections

// Time travel: the views at a past point, read from their history (`ViewHistory`) and the few events after it.
extension ViewStore {
    /// The views as they stood at `sequence` (`--as-of`): the history read at the last window ending at or before
    /// it, under the events after that end (at most one window's: `ViewHistory.windowEvents`) folded into memory.
    /// Nothing is written: the live views serve meanwhile, and the store returned reads them (same environment)
    /// until it is released. `only`: fold and read only these views (reading another throws
    /// `ViewError.unknownTable`); nil: every view. `startedFrom` on the store returned is the window's end.
    ///
    /// Memory: the writes of the events folded, at most about a window's versions (`ViewHistory.windowBytes`
    /// plus one batch's), and one batch of events. Throws `ViewError.noHistory` when these views keep none.
    /// `scouting`: when scouts read the tail's pages ahead of the fold (`PastPrefetch`; tests make them fold it all).
    package func past(at sequence: UInt64, only: [String]? = nil, scouting: PastPrefetch.Scouting = .whenCold,
                      progress: ((UInt64, UInt64) -> Void)? = nil) throws -> ViewStore {
        guard pastPoint == nil else { throw ViewError.pastPoint }
        guard let windows, try hasHistory() else { throw ViewError.noHistory(path) }
        let folded = try only.map { try catalog.restricted(to: $0) } ?? catalog
        let window = try guarded { try environment.read { txn in
            let scope = TransactionScope(txn)
            defer { scope.end() }
            return try ViewHistory.closed(atOrBefore: sequence, scope, windows) ?? ViewHistory.Window(number: 0, end: 0)
        } }
        let point = PastPoint(sequence: sequence, window: window)
        let views = ViewStore(pastOf: self, catalog: folded, point: point)
        views.startedFrom = window.end
        // The tail's records lie scattered among the blobs (an import's chunks reuse pages freed all over the file):
        // read one page per fault, not the read-ahead window around it.
        try log.environment.withoutReadAhead { try views.foldTail(scouting: scouting, progress: progress) }
        return views
    }

    /// For views at a past point: the events scouts folded ahead of the tail's fold (`PastPrefetch`); 0 otherwise.
    package var scoutedEvents: UInt64 { pastPoint?.scoutedEvents ?? 0 }

    /// The history tables of the views this store reads (at a past point: only those it folded).
    var pastHistoryTables: [String: Database] {
        var out: [String: Database] = [:]
        for t in catalog.tables { out[t] = historyTables[t] }
        return out
    }

    /// Folds the events after the window's end up to the point into `pastPoint.held`: each batch in a read
    /// transaction of its own, each view's writes held apart (a view failing on an event has its batch folded
    /// again one event at a time, and that event's writes dropped and the event listed as quarantined, as a
    /// live fold does).
    private func foldTail(scouting: PastPrefetch.Scouting, progress: ((UInt64, UInt64) -> Void)?) throws {
        guard let point = pastPoint else { return }
        let tables = pastHistoryTables
        let folds = catalog.types.map(PastFold.init)
        var heldByTable: [String: WriteBehind] = [:]
        for f in folds {
            for t in f.tables { heldByTable[t] = f.held }
        }
        point.held = heldByTable
        let start = point.window.end, end = point.sequence
        guard start < end else { return }
        var events: [StoredEvent] = []
        var decoded: [DomainEvent] = []
        var skipped = Set<Int>()
        var batchBytes = 0
        var done: UInt64 = 0
        /// Whether `error` is the storage's (rethrown) rather than a view's failure on an event (quarantined).
        func isStorage(_ error: Error) -> Bool {
            if error is LMDBError { return true }
            if let e = error as? ViewError, case .damaged = e { return true }
            return false
        }
        func commit() throws {
            guard !events.isEmpty else { return }
            // A big batch's lookups map pages of the history's B-trees at random: unmapped while it folds, as a live
            // fold's are (`ResidentPageReleaser`), the log's pages the scan mapped first.
            let releaser = events.count >= ViewStore.releaserMinimum ? ResidentPageReleaser(environment, every: ViewStore.releaseEvery) : nil
            defer { releaser?.stop() }
            if releaser != nil { log.environment.releaseResidentPages() }
            try guarded { try environment.read { txn in
                let scope = TransactionScope(txn)
                let history = HistoryReader(scope: scope, tables: tables, window: point.window.number)
                defer {
                    scope.end()
                    for f in folds { f.store.base = nil }
                }
                for f in folds {
                    f.store.base = history
                    /// Folds `indices` into `f` and writes them (held, kept): throws what the view threw.
                    func fold(_ indices: [Int]) throws {
                        try ViewStore.apply(f.projector, events: events, decoded: decoded, at: indices)
                        try f.projector.prepareFlush()
                        try f.context.flush()
                        f.held.commit()
                    }
                    /// Drops what `f` folded or held since its last write.
                    func drop() {
                        f.held.abort()
                        f.context.discard()
                        f.projector.discardPending()
                    }
                    drop()
                    let mine = events.indices.filter { !skipped.contains($0) && f.handles.contains(events[$0].envelope.type) }
                    do {
                        try fold(mine)
                    } catch where !isStorage(error) {
                        drop()
                        // Event by event, each written alone: a failing event's changes are dropped whole.
                        f.context.writesInParts = false
                        defer { f.context.writesInParts = true }
                        for i in mine {
                            do {
                                try fold([i])
                            } catch where !isStorage(error) {
                                drop()
                                point.quarantined.append(QuarantinedEvent(sequence: events[i].envelope.sequence, view: f.name, error: "\(error)"))
                            }
                        }
                    }
                }
            } }
            done += UInt64(events.count)
            progress?(done, end - start)
            events.removeAll(keepingCapacity: true)
            decoded.removeAll(keepingCapacity: true)
            skipped.removeAll()
            batchBytes = 0
            environment.releaseResidentPages(over: Environment.residentFileBudget)
        }
        // Scouts read the later parts of the tail ahead of the fold when they are not cached (`PastPrefetch`).
        let prefetch = PastPrefetch.start(self, tables: tables, window: point.window.number, from: start, through: end, scouting: scouting)
        defer { point.scoutedEvents = prefetch?.stop() ?? 0 }
        // The scan releases the log's pages it mapped after each chunk (`EventLog.scan`).
        try log.scan(from: start + 1) { ev in
            if ev.envelope.sequence > end { return false }
            if let q = ViewStore.append(ev, to: &events, &decoded, skipped: &skipped) { point.quarantined.append(q) }
            batchBytes += ev.payload.count
            if events.count >= batchEvents || batchBytes >= ViewStore.batchBytes { try commit() }
            return true
        }
        try commit()
    }
}
