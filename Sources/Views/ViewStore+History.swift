import Dispatch
import LMDB

// The views' history as folds keep it (`ViewHistory`): window cuts, closing windows, and the format marker.
extension ViewStore {
    /// Writes the history's format into a views environment no view has been folded into yet (a new generation or
    /// scratch folder): its history starts with the log. A file with views but no marker (written before histories
    /// were kept) gets none, and `staleViews` has it rebuilt.
    func markHistoryIfNew() throws {
        guard let windows else { return }
        let needed = try environment.read { txn -> Bool in
            guard try txn.getBytes(meta, key: ViewHistory.formatKey) == nil else { return false }
            let scope = TransactionScope(txn)
            defer { scope.end() }
            guard try ViewHistory.lastClosed(scope, windows) == nil else { return false }
            return try catalog.types.allSatisfy { try txn.getBytes(meta, key: Array($0.name.rawValue.utf8)) == nil }
        }
        guard needed else { return }
        try environment.write { txn in
            _ = try txn.put(meta, key: ViewHistory.formatKey, value: ViewHistory.formatBytes)
        }
    }

    /// Whether these views keep a history of this build's format, complete from the log's start.
    package func hasHistory() throws -> Bool {
        guard windows != nil else { return false }
        waitForPendingClose()
        return try guarded { try environment.read { txn in
            try txn.getBytes(meta, key: ViewHistory.formatKey) == ViewHistory.formatBytes && !historyBehind(txn)
        } }
    }

    /// Whether a view stands past what the history recorded (`ViewHistory.throughKey`): a build that keeps no history
    /// (an older one, sharing the store) folded events since, so the history misses their changes.
    func historyBehind(_ txn: borrowing Transaction) throws -> Bool {
        let through = try txn.getBytes(meta, key: ViewHistory.throughKey).map { $0.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } } ?? 0
        for type in catalog.types {
            let cp = try txn.getBytes(meta, key: Array(type.name.rawValue.utf8)).flatMap(ViewMeta.decode)?.checkpoint ?? 0
            if cp > through { return true }
        }
        return false
    }

    /// Records, in a fold's transaction, that the history has recorded its folds through `last` (at least).
    func recordHistoryThrough(_ last: UInt64, scope: TransactionScope) throws {
        guard windows != nil else { return }
        let through = try scope.get(meta, ViewHistory.throughKey).map { $0.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } } ?? 0
        if last > through { try scope.put(meta, ViewHistory.throughKey, ViewHistory.endKey(last)) }
    }

    /// Where a fold's batch after `sequence` must end so that it spans no window's end (read in a transaction of
    /// its own: a fold's start); nil when these views keep no history. `closing`: the end of the window a close left
    /// running closes (`runningCloseEnd`), taken as closed.
    func nextWindowCut(after sequence: UInt64, closing: UInt64? = nil) throws -> UInt64? {
        guard windows != nil else { return nil }
        return try guarded { try environment.read { txn in
            let scope = TransactionScope(txn)
            defer { scope.end() }
            return try windowCut(after: sequence, closed: lastClosed(scope, closing: closing), scope: scope)
        } }
    }

    /// The bytes of versions the open window holds (`ViewHistory.openBytesKey`; while a close left running runs, its
    /// window's too), read in a transaction of its own.
    func openWindowBytes() throws -> UInt64 {
        try guarded { try environment.read { txn in
            let scope = TransactionScope(txn)
            defer { scope.end() }
            return try openWindowBytes(scope)
        } }
    }

    /// The open window's bytes of versions as `scope` has them.
    func openWindowBytes(_ scope: TransactionScope) throws -> UInt64 {
        try scope.get(meta, ViewHistory.openBytesKey).map { $0.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } } ?? 0
    }

    /// Whether the open window after `end` is due to close at `last` with `bytes` of versions: past half its events or
    /// `historyWindowBytes`, and every view standing at `last`. Past half the events, a window closes at the next batch's
    /// end: a rebuild's batches (~7,000 generated events, 2 MiB of payloads) then each close one, and write their
    /// versions once, where closing only at the full count would cut a small batch after every big one and write out
    /// twice as often.
    func windowDue(at last: UInt64, after end: UInt64, bytes: UInt64, scope: TransactionScope) throws -> Bool {
        guard last - end >= max(1, historyWindowEvents / 2) || bytes >= UInt64(historyWindowBytes) else { return false }
        for type in catalog.types {
            let cp = try scope.get(meta, Array(type.name.rawValue.utf8)).flatMap(ViewMeta.decode)?.checkpoint ?? 0
            if cp != last { return false }
        }
        return true
    }

    /// The last window closed, or the one a close left running closes (ending at `closing`, after the last closed) while
    /// it runs: what a fold folds after.
    func lastClosed(_ scope: TransactionScope, closing: UInt64?) throws -> ViewHistory.Window? {
        guard let windows else { return nil }
        let closed = try ViewHistory.lastClosed(scope, windows)
        guard let closing, closing > closed?.end ?? 0 else { return closed }
        return ViewHistory.Window(number: (closed?.number ?? 0) + 1, end: closing)
    }

    /// Where a fold's batch after `sequence` must end so that it spans no window's end, `closed` being the last window
    /// closed: the next closed window's end after it (a view folded again from empty), else where the open window
    /// reaches `historyWindowEvents` (from `sequence` when the open window is already past that: it closes at the next
    /// batch that allows it). Nil when these views keep no history.
    func windowCut(after sequence: UInt64, closed: ViewHistory.Window?, scope: TransactionScope) throws -> UInt64? {
        guard let windows else { return nil }
        let end = closed?.end ?? 0
        if sequence < end, let next = try ViewHistory.ends(after: sequence, limit: 1, scope, windows).first { return next }
        let (cut, overflow) = end.addingReportingOverflow(historyWindowEvents)
        if overflow { return nil }
        return cut > sequence ? cut : sequence.addingReportingOverflow(historyWindowEvents).partialValue
    }

    /// Closes the open window at `last` when it is due, inside the write transaction of the batch that ended there,
    /// after every view's checkpoint was written (`closed`: the last window closed before): only when the window
    /// holds half of `historyWindowEvents` events or more (a batch never takes it past all of them: `windowCut`) or
    /// `historyWindowBytes` of versions (`written`: this batch's), and every view stands at `last`. Its changes are
    /// then written as its versions (`writeChanges`). A batch inside a closed window (a view folded again) opens and
    /// closes nothing. Returns the last window closed after it, and whether a due close was left for later:
    /// `deferring`, the batch's bytes are counted and the window stays open, for `closeWindowAfterFold` to close it at
    /// `last` in transactions of its own. A close releases the pages it maps past the budget as it goes, unless
    /// its caller does (`releasing` false).
    ///
    /// `closing`: a close left running by an earlier fold has not ended (`closed` is then the window it closes, at its
    /// end): this batch's bytes are counted and nothing closes (windows close in order; the fold waits for that close
    /// before a batch that takes the open window to half its events, or the count to twice `historyWindowBytes`).
    func closeWindowIfDue(at last: UInt64, after closed: ViewHistory.Window?, scope: TransactionScope, written: Int,
                          deferring: Bool = false, closing: Bool = false,
                          releasing: Bool = true) throws -> (closed: ViewHistory.Window?, deferred: Bool) {
        guard let windows else { return (closed, false) }
        let end = closed?.end ?? 0
        guard last > end else { return (closed, false) }
        let bytes = try openWindowBytes(scope) &+ UInt64(written)
        if closing {
            if written > 0 { try scope.put(meta, ViewHistory.openBytesKey, ViewHistory.endKey(bytes)) }
            return (closed, false)
        }
        let due = try windowDue(at: last, after: end, bytes: bytes, scope: scope)
        if due && !deferring {
            try beforeWindowCloses?()
            let window = ViewHistory.Window(number: (closed?.number ?? 0) + 1, end: last)
            // A close reads every key the window changed and writes its versions: the views' and history's pages
            // it touches had taken a batch of 14 1,000-thread archives at 100K messages to 290 MiB of mapped pages.
            // They are released as it goes, as in a big batch's write (the commit touches the pages it wrote again:
            // a close left to run after the fold releases through it, `closeWindowAfterFold`, and passes `releasing`
            // false).
            let releaser = releasing ? ResidentPageReleaser(environment, every: ViewStore.releaseEvery) : nil
            defer { releaser?.stop() }
            try writeChanges(as: window.number, scope: scope)
            try ViewHistory.close(window.number, at: last, scope, windows)
            try scope.put(meta, ViewHistory.openBytesKey, ViewHistory.endKey(0))
            return (window, false)
        }
        if written > 0 { try scope.put(meta, ViewHistory.openBytesKey, ViewHistory.endKey(bytes)) }
        return (closed, due)
    }

    /// Closes the open window at `last` on a thread of its own, after the fold whose last batch ended there and found it
    /// due has returned: the caller (an action, a sync's batch) does not wait for the window's versions to be written,
    /// and the next fold waits only for the close's first read (`waitForCloseRead`), not for its writes. The close
    /// reads, in one read transaction, whether it is due and every key the window changed with its value there
    /// (`WindowClose`), then writes them as the window's versions in chunks of `closeChunkKeys`, a write transaction
    /// each, and closes the window in the last; folds of this store meanwhile fold into the next window (their changes
    /// stay in the change log) and close none until it ends (`runningCloseEnd`). The close happens only as it would have
    /// in that batch: the window still open, due, and every view standing at `last`; when another fold came first
    /// (another process), the window stays open and a later batch closes it; when another process closes the window
    /// between two chunks, the close stops there (that close wrote every key's version). A close killed between chunks
    /// leaves versions of a window that is not closed: no look at the past reads them (it reads closed windows), and
    /// the window's close, whenever it comes, writes every key of the change log again. A look into the past, the
    /// history's verification and the store's end wait for the whole close (`waitForPendingClose`); a close that fails
    /// (the disk full) leaves the window open, and the next fold closes it inside its first batch, where a failure
    /// reaches its caller (`lastCloseFailure`).
    package func closeWindowAfterFold(at last: UInt64) {
        guard windows != nil else { return }
        // The store waits for this work before it goes (deinit), so the work may use it without holding it.
        unowned(unsafe) let store = self
        let read = DispatchSemaphore(value: 0)
        let work = BackgroundWork<Void> {
            var signalled = false
            defer { if !signalled { read.signal() } }
            try store.guarded {
                // The views' pages the close touches are released after its read and after each chunk, past the
                // budget only: pages within it stay mapped for the next action, which would otherwise fault them in
                // again (+10 ms on a 1,000-thread archive after an unconditional release at the close's end), and a
                // fold running meanwhile is not unmapped every few milliseconds (as a releasing thread would).
                let plan = try store.environment.read { txn -> WindowClose? in
                    let scope = TransactionScope(txn)
                    defer { scope.end() }
                    read.signal()
                    signalled = true
                    return try store.planClose(at: last, scope: scope)
                }
                store.environment.releaseResidentPages(over: Environment.residentFileBudget)
                if let plan { try store.writeClose(plan) }
            }
        }
        pendingCloseLock.lock()
        let before = pendingClose
        pendingClose = work
        pendingCloseEnd = last
        pendingCloseRead = read
        pendingCloseLock.unlock()
        _ = before?.wait()
    }

    /// The close a fold left running at `last` (`closeWindowAfterFold`), read in `scope` at the window's end: nil when
    /// it is not due there (the window closed already, not due, or a view no longer standing at `last`).
    func planClose(at last: UInt64, scope: TransactionScope) throws -> WindowClose? {
        guard let windows, let changeLog else { return nil }
        let closed = try ViewHistory.lastClosed(scope, windows)
        let end = closed?.end ?? 0
        guard last > end else { return nil }
        let bytes = try openWindowBytes(scope)
        guard try windowDue(at: last, after: end, bytes: bytes, scope: scope) else { return nil }
        try beforeWindowCloses?()
        var plan = WindowClose(window: ViewHistory.Window(number: (closed?.number ?? 0) + 1, end: last), before: closed,
                               lastSerial: try changeLog.lastSerial(scope), bytes: bytes)
        try changeLog.forEachTable(scope) { table, keys in
            guard historyTables[table] != nil, let live = databases[table] else { throw ViewError.unknownTable(ViewHistory.table(table)) }
            try scope.withCursor(live) { views in
                try plan.add(table: table, keys: keys) { try views.seek(exactly: $0)?.value }
            }
        }
        return plan
    }

    /// Writes `plan`'s versions, `closeChunkKeys` a write transaction, and closes its window in the last: each finds the
    /// window still open and the last closed window the one the plan was read after, or stops there (another process
    /// closed the window). The close's change-log entries go with the window's close, the next window's stay, and the
    /// window's bytes leave the open window's count.
    func writeClose(_ plan: WindowClose) throws {
        guard let windows, let changeLog else { return }
        func stillOpen(_ scope: TransactionScope) throws -> Bool { try ViewHistory.lastClosed(scope, windows) == plan.before }
        var key: [UInt8] = []
        for t in plan.tables.indices {
            let name = plan.tables[t].name
            guard let history = historyTables[name] else { throw ViewError.unknownTable(ViewHistory.table(name)) }
            var at = (entry: 0, offset: 0)
            while at.entry < plan.tables[t].count {
                try beforeCloseChunk?()
                let open = try environment.write { txn -> Bool in
                    let scope = TransactionScope(txn)
                    defer { scope.end() }
                    guard try stillOpen(scope) else { return false }
                    at = try scope.withCursor(history) { versions in
                        try plan.forEach(table: t, from: at, limit: max(1, closeChunkKeys)) { k, value in
                            try ViewStore.writeVersion(of: k, value, window: plan.window.number, through: versions, key: &key)
                        }
                    }
                    return true
                }
                if !open { return }
                environment.releaseResidentPages(over: Environment.residentFileBudget)
            }
        }
        try beforeCloseChunk?()
        try environment.write { txn in
            let scope = TransactionScope(txn)
            defer { scope.end() }
            guard try stillOpen(scope) else { return }
            try ViewHistory.close(plan.window.number, at: plan.window.end, scope, windows)
            try changeLog.remove(through: plan.lastSerial, scope)
            let now = try openWindowBytes(scope)
            try scope.put(meta, ViewHistory.openBytesKey, ViewHistory.endKey(now > plan.bytes ? now - plan.bytes : 0))
        }
    }

    /// Waits until a close a fold left running (`closeWindowAfterFold`) has read the window's end, so that the views may
    /// move on (one that has ended is waited for, as `waitForPendingClose` does, for its failure). What a fold calls
    /// first: it folds into the next window meanwhile (`runningCloseEnd`).
    func waitForCloseRead() {
        pendingCloseLock.lock()
        let work = pendingClose, read = pendingCloseRead
        pendingCloseLock.unlock()
        guard let work else { return }
        read?.wait()
        // (Signalled once: a later wait for the same read returns at once.)
        read?.signal()
        if work.hasEnded { waitForPendingClose() }
    }

    /// The end of the window a close left running is closing, while it runs (nil once it has ended: then the history
    /// says what it did). A fold's batch reads it inside its write transaction: a close that had not ended before it
    /// began cannot end while it runs (the close's last write waits for it).
    func runningCloseEnd() -> UInt64? {
        pendingCloseLock.lock()
        defer { pendingCloseLock.unlock() }
        guard let work = pendingClose, !work.hasEnded else { return nil }
        return pendingCloseEnd
    }

    /// Whether a window's close a fold left running (`closeWindowAfterFold`) was not waited for yet (it may have ended).
    package var closeLeftRunning: Bool {
        pendingCloseLock.lock()
        defer { pendingCloseLock.unlock() }
        return pendingClose != nil
    }

    /// Waits for a window's close a fold left running (`closeWindowAfterFold`), if any. Its error, if it failed, is
    /// not this caller's: the window stays open, and the next fold closes it in its batch (`takeCloseFailure`).
    package func waitForPendingClose() {
        pendingCloseLock.lock()
        let work = pendingClose
        // Called by the close itself (this store's last reference let go inside it: its deinit runs there), it is
        // ending: waiting for it there would wait for ever.
        if work?.isCurrentThread == true {
            pendingCloseLock.unlock()
            return
        }
        pendingClose = nil
        pendingCloseEnd = nil
        pendingCloseRead = nil
        pendingCloseLock.unlock()
        guard case .failure(let error) = work?.wait() else { return }
        pendingCloseLock.lock()
        pendingCloseFailure = error
        pendingCloseLock.unlock()
    }

    /// What the last close left running failed with, if it failed and no fold has closed in its batch since.
    package var lastCloseFailure: Error? {
        pendingCloseLock.lock()
        defer { pendingCloseLock.unlock() }
        return pendingCloseFailure
    }

    /// The failure of the last close left running, cleared: the fold that takes it closes a due window in its batch.
    func takeCloseFailure() -> Error? {
        pendingCloseLock.lock()
        defer { pendingCloseLock.unlock() }
        defer { pendingCloseFailure = nil }
        return pendingCloseFailure
    }

    /// Keeps `failure` for the next fold (the fold that took it did not end well), unless a newer one came.
    func keepCloseFailure(_ failure: Error) {
        pendingCloseLock.lock()
        defer { pendingCloseLock.unlock() }
        if pendingCloseFailure == nil { pendingCloseFailure = failure }
    }

    /// The windows closed so far: how many, the last one's end, and the one that holds the most events (its end
    /// and how many; of windows as long, the latest: the views are biggest there, and a look folds most into them).
    /// For `stats`: one pass over the windows (one entry each: 300 at a million messages).
    package func historyWindows() throws -> (count: Int, last: UInt64?, longest: (end: UInt64, events: UInt64)?) {
        guard let windows else { return (0, nil, nil) }
        waitForPendingClose()
        return try guarded { try environment.read { txn in
            var count = 0
            var previous: UInt64 = 0
            var longest: (end: UInt64, events: UInt64)?
            try txn.withCursor(windows) { c in
                var e = try c.first()
                while let entry = e {
                    guard let w = ViewHistory.decode(entry.key, entry.value), w.end > previous else {
                        throw ViewError.damaged("\(windows.name): the windows are not in order")
                    }
                    count += 1
                    if w.end - previous >= longest?.events ?? 0 { longest = (w.end, w.end - previous) }
                    previous = w.end
                    e = try c.next()
                }
            }
            return (count, count > 0 ? previous : nil, longest)
        } }
    }

    /// The bytes of the pages the history's tables and windows take in the views file.
    package func historyBytes() throws -> Int {
        guard let windows else { return 0 }
        return try guarded { try environment.read { txn in
            var pages: UInt64 = 0
            var size = 0
            for d in Array(historyTables.values) + [windows] {
                let st = try txn.stat(d)
                pages += UInt64(st.branchPages) + UInt64(st.leafPages) + UInt64(st.overflowPages)
                size = st.pageSize
            }
            return Int(pages) * size
        } }
    }

    /// Writes the value each key of the change log holds now (the window's end: this is the transaction of the batch
    /// that ends it) as its version in `window`, table by table in key order, and empties the log: the window is
    /// closing.
    func writeChanges(as window: UInt32, scope: TransactionScope) throws {
        guard let changeLog else { return }
        var key: [UInt8] = []
        try changeLog.forEachTable(scope) { table, keys in
            guard let history = historyTables[table], let live = databases[table] else { throw ViewError.unknownTable(ViewHistory.table(table)) }
            // Keys in order through a cursor on each table: LMDB looks first in the leaf the cursor is on, so most
            // lookups and inserts skip the descent from the root.
            try scope.withCursor(live) { views in
                try scope.withCursor(history) { versions in
                    for k in keys {
                        try ViewStore.writeVersion(of: k, try views.seek(exactly: k)?.value, window: window, through: versions, key: &key)
                    }
                }
            }
        }
        try scope.clear(changeLog.database)
    }

    /// Writes `value` (nil: deleted) as `k`'s version in `window` through `versions`, a cursor on its history table (`key`:
    /// the history key's buffer, reused).
    static func writeVersion(of k: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer?, window: UInt32,
                             through versions: borrowing Cursor, key: inout [UInt8]) throws {
        let cut = HistoryKey.encode(k, window: window, into: &key)
        let out = try key.withUnsafeBytes { try versions.reserve(key: $0, size: HistoryValue.size(key: k, cut: cut, value: value)) }
        HistoryValue.write(key: k, cut: cut, value: value, into: out)
    }

    /// Starts a staged run of `table`'s held changes (`StagedRuns`), in the window they were held for.
    func stagedRun(for table: String) throws -> StagedRuns.Run {
        guard staging != nil, historyTables[table] != nil else { throw ViewError.unknownTable(ViewHistory.table(table)) }
        return staged.start(table: table, window: heldWindow)
    }

    /// As `stage(_:_:run:scope:)`, appending through `cursor`, a cursor on the staging table (each append then starts
    /// from the leaf the last one filled).
    func stage(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer?, run: StagedRuns.Run, scope: TransactionScope,
               through cursor: borrowing Cursor) throws {
        guard StagedRuns.key(key, run: run.number, into: &stagingKey) else { return try stage(key, value, run: run, scope: scope) }
        let out = try stagingKey.withUnsafeBytes {
            try cursor.reserve(key: $0, size: HistoryValue.size(key: key, cut: false, value: value), flags: .append)
        }
        HistoryValue.write(key: key, cut: false, value: value, into: out)
    }

    /// Stages `key`'s change (`value`; nil: deleted) in `run`, appended; a key too long for a staged key is written as
    /// a version into the history table at once.
    func stage(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer?, run: StagedRuns.Run, scope: TransactionScope) throws {
        guard let staging, let history = historyTables[run.table] else { throw ViewError.unknownTable(ViewHistory.table(run.table)) }
        if StagedRuns.key(key, run: run.number, into: &stagingKey) {
            let out = try stagingKey.withUnsafeBytes { try scope.reserveAppending(staging, $0, size: HistoryValue.size(key: key, cut: false, value: value)) }
            HistoryValue.write(key: key, cut: false, value: value, into: out)
        } else {
            let cut = HistoryKey.encode(key, window: run.window, into: &stagingKey)
            let out = try stagingKey.withUnsafeBytes { try scope.reserve(history, $0, size: HistoryValue.size(key: key, cut: cut, value: value)) }
            HistoryValue.write(key: key, cut: cut, value: value, into: out)
        }
    }
}
