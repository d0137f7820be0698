import EventLog
import EventModel
import Foundation
import LMDB
import Projections
import Synchronization

/// Reads ahead for a past look's tail fold (`ViewStore.past`) when the store's files are not in the page cache.
///
/// The tail fold looks up keys of the views' history at random: with the views file on disk and not in memory,
/// each lookup waits for a read of its own, one after another (a 1M-message store's longest tail, 8,191
/// events, took 1.9-3.4 s cold against 0.3 s warm). Scouts fold the tail too, a part of `partEvents` at a time
/// taken in order from its start, each part into stores of its own that are thrown away: their lookups are
/// reads of the same pages, waited for side by side, so the fold finds most of its pages in the page cache.
/// (Parts from the start, not one long slice each: where the tail's first events join big old threads, their
/// recomputation reads thousands of pages, and a fold left alone on its first slice waited for them all.)
/// A scout whose first events faulted in (almost) no page from the disk stops: the files are cached and the
/// scouts would only take the fold's CPU. A scout's failure (a projector's error, a damaged record) is the
/// fold's to report: the scout stops at it and says nothing.
///
/// Memory: each scout holds the writes of one part and its events; the pages it maps are released against the
/// same budget as the fold's.
package final class PastPrefetch: @unchecked Sendable {  // fields set before its threads start (but `scouts`, the starter's alone)
    /// When scouts run and how they split the tail.
    package struct Scouting: Sendable {
        /// A tail shorter than this is folded without scouts (its reads take less than starting them saves).
        package let minimumEvents: UInt64
        /// Events of the tail per part a scout takes (at least 1).
        package let partEvents: UInt64
        /// A scout whose probe (its first batch) faulted in fewer pages than this from the disk stops: the files
        /// are cached. 0: scouts never stop at their probe.
        package let coldFaults: Int

        /// Scouts for tails of at least 1,024 events, stopping where the files are cached.
        package static let whenCold = Scouting()
        /// No scouts.
        package static let off = Scouting(minimumEvents: .max)

        package init(minimumEvents: UInt64 = 1_024, partEvents: UInt64 = 256, coldFaults: Int = 8) {
            self.minimumEvents = minimumEvents
            self.partEvents = max(1, partEvents)
            self.coldFaults = coldFaults
        }
    }

    /// The most scouts: they mostly wait on the disk, so more than the cores.
    static let maximumScouts = 7
    /// Events a scout folds per read transaction; its first batch is its probe.
    static let batchEvents = 64

    private let views: ViewStore
    private let tables: [String: Database]
    private let window: UInt32
    private let start: UInt64, end: UInt64
    private let scouting: Scouting
    private let nextPart = Atomic<UInt64>(0)
    private let folded = Atomic<UInt64>(0)
    private let stopped = Atomic<Bool>(false)
    private var scouts: [BackgroundWork<Void>] = []

    /// Starts scouts over the tail `(start, end]`; nil when it is too short to be worth it. `stop()` ends them.
    static func start(_ views: ViewStore, tables: [String: Database], window: UInt32, from start: UInt64,
                      through end: UInt64, scouting: Scouting) -> PastPrefetch? {
        guard end > start, end - start >= scouting.minimumEvents else { return nil }
        let prefetch = PastPrefetch(views: views, tables: tables, window: window, start: start, end: end, scouting: scouting)
        prefetch.scouts = (0..<maximumScouts).map { _ in BackgroundWork { prefetch.scout() } }
        return prefetch
    }

    private init(views: ViewStore, tables: [String: Database], window: UInt32, start: UInt64, end: UInt64, scouting: Scouting) {
        self.views = views
        self.tables = tables
        self.window = window
        self.start = start
        self.end = end
        self.scouting = scouting
    }

    /// Stops the scouts and waits for them (each ends at its next event); the events they folded. Call once.
    @discardableResult
    func stop() -> UInt64 {
        stopped.store(true, ordering: .relaxed)
        for s in scouts { _ = s.wait() }
        scouts = []
        return folded.load(ordering: .relaxed)
    }

    private var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// The tail's parts, the last one possibly shorter (no sum here can overflow, whatever `partEvents`).
    private var parts: UInt64 {
        let (whole, rest) = (end - start).quotientAndRemainder(dividingBy: scouting.partEvents)
        return whole + (rest == 0 ? 0 : 1)
    }

    /// Takes parts in order and folds each, until none is left, a failure, `stop()`, or a probe that read
    /// (almost) nothing from the disk.
    private func scout() {
        let faultsBefore = PastPrefetch.majorFaults()
        var probing = true
        while !isStopped {
            let part = nextPart.add(1, ordering: .relaxed).oldValue
            guard part < parts else { return }
            let lo = start + part * scouting.partEvents
            let hi = end - lo > scouting.partEvents ? lo + scouting.partEvents : end
            guard fold(after: lo, through: hi, probe: {
                guard probing else { return true }
                probing = false
                return PastPrefetch.majorFaults() - faultsBefore >= scouting.coldFaults
            }) else { return }
        }
    }

    /// Folds the events `(after, through]` into throwaway stores; false when the scout should stop. `probe` is
    /// asked after each batch whether to go on.
    private func fold(after lo: UInt64, through hi: UInt64, probe: () -> Bool) -> Bool {
        // Each part from nothing held, thrown away at its end.
        let folds = views.catalog.types.map(PastFold.init)
        var events: [StoredEvent] = []
        var decoded: [DomainEvent] = []
        /// Folds the batch; false when the scout should stop.
        func foldBatch() -> Bool {
            defer {
                events.removeAll(keepingCapacity: true)
                decoded.removeAll(keepingCapacity: true)
                views.environment.releaseResidentPages(over: Environment.residentFileBudget)
            }
            do {
                try views.environment.read { txn in
                    let scope = TransactionScope(txn)
                    let history = HistoryReader(scope: scope, tables: tables, window: window)
                    defer {
                        scope.end()
                        for f in folds { f.store.base = nil }
                    }
                    for f in folds {
                        f.store.base = history
                        for (e, d) in zip(events, decoded) where f.handles.contains(e.envelope.type) {
                            if isStopped { return }
                            try f.projector.apply(e, d)
                        }
                        try f.projector.prepareFlush()
                        try f.context.flush()
                    }
                }
            } catch {
                return false
            }
            folded.add(UInt64(events.count), ordering: .relaxed)
            return probe() && !isStopped
        }
        var going = true
        do {
            try views.log.scan(from: lo + 1, chunkSize: PastPrefetch.batchEvents) { ev in
                // Past the part: done (going on to the next part unless stopped); a record that does not decode: stop.
                guard ev.envelope.sequence <= hi, !isStopped else {
                    going = !isStopped
                    return false
                }
                guard let d = try? ev.decode() else {
                    going = false
                    return false
                }
                events.append(ev)
                decoded.append(d)
                if events.count >= PastPrefetch.batchEvents { going = foldBatch() }
                return going
            }
        } catch {
            return false
        }
        views.log.environment.releaseResidentPages(over: Environment.residentFileBudget)
        if going && !events.isEmpty { going = foldBatch() }
        return going
    }

    /// Pages this thread has faulted in from the disk so far.
    private static func majorFaults() -> Int {
        var usage = rusage()
        // RUSAGE_THREAD (1, a GNU extension Glibc does not export to Swift): this thread alone.
        guard getrusage(__rusage_who_t(1), &usage) == 0 else { return 0 }
        return usage.ru_majflt
    }
}
