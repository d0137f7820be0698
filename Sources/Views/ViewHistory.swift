import LMDB

/// The views' history: what time travel (`--as-of`) reads, kept in each generation beside the views.
///
/// Every write a fold makes to a view table is also written, in the same transaction, to the table's history
/// table (`history:` + its name) as a version tagged with the current window (`HistoryKey`, `HistoryValue`).
/// Windows cut the log into consecutive ranges of at most `windowEvents` events (closed at the first batch's end past
/// half of them) and about `windowBytes` of versions: window `w` ends at a sequence recorded in `views.windows`, once every view has folded through it.
/// The views as they stood at the end of window `w` are then, for each key, its latest version written in `w`
/// or before: no copy of the views, no fold from the log's start. A point `P` of the log is the end of the last
/// window at or before it, plus the events after that end (at most one window's), folded into memory
/// (`ViewStore.past`).
///
/// The rules that make a window's versions exactly the views at its end:
/// - a fold's batch never spans a window's end (`ViewStore.fold` ends its batches there);
/// - a batch's writes carry the window holding its events: the open one (after the last end) or, for a view
///   folded again from empty while the others are ahead (`replay --view V`), the closed window its events lie in;
/// - a window closes only at the end of a batch after which every view stands at the same sequence, so no view
///   writes a closed window's events later except when folded again from empty (above).
///
/// Disk: a version for each key a window changed, so the history is about as big as the views for mail that
/// arrives once and changes little, and grows with every change after (docs/operations.md).
package enum ViewHistory {
    /// The prefix of a view table's history table.
    static let tablePrefix = "history:"
    /// The windows closed so far: end sequence (8 bytes, big-endian) -> window number (4 bytes, big-endian).
    package static let windowsTable = "views.windows"
    /// The versions of a generation being built, staged as runs until it is published (`StagedRuns`).
    package static let stagingTable = "views.staging"
    /// The keys the live views changed in the open window, whose versions are written when it closes (`ChangeLog`).
    package static let changesTable = "views.changes"
    /// The key in `views.meta` saying the generation keeps a history, with its format (`format`).
    static let formatKey = Array("history".utf8)
    /// The key in `views.meta` holding the last sequence the history has recorded folds through: a view checkpoint past
    /// it means a build that keeps no history folded those events (its views are then rebuilt: `ViewStore.staleViews`).
    static let throughKey = Array("history.through".utf8)
    /// The key in `views.meta` holding the bytes of versions written in the open window so far.
    static let openBytesKey = Array("history.open".utf8)
    /// The format of the history (its keys, values and windows).
    static let format: UInt32 = 1
    /// `format` as stored under `formatKey`.
    static var formatBytes: [UInt8] { withUnsafeBytes(of: format.bigEndian) { Array($0) } }

    /// The most events a window holds: a look at a past point folds at most this many events after a window's
    /// end (at a million messages ~30,000 events a second for the threads view: ~0.3 s).
    /// `MAILSTORE_HISTORY_WINDOW` sets another (1 to `maxWindowEvents`) for the folds of a process: fewer events a
    /// window, faster looks and more versions kept.
    static let windowEvents: UInt64 = 8_192
    /// The most events `MAILSTORE_HISTORY_WINDOW` may set a window to hold (a look at a past point folds up to that).
    static let maxWindowEvents: UInt64 = 1 << 20
    /// A window also closes at the end of a batch once its versions (keys and values) take this many bytes, so the
    /// events after its end that a look at a past point folds into memory hold about that much at most (and one
    /// batch's more). A bulk action's changes are big (archiving 1,000 threads: ~6 MB), and closing a window costs the
    /// batch that closes it the writing of its versions (~60 ms for such an action's): 32 MiB makes that one big
    /// action in five.
    static let windowBytes = 32 << 20

    /// The history table of the view table `table`.
    package static func table(_ table: String) -> String { tablePrefix + table }

    /// A closed window: its number and the sequence it ends at (the views' state there is its versions).
    struct Window: Equatable {
        var number: UInt32
        var end: UInt64
    }

    static func endKey(_ sequence: UInt64) -> [UInt8] { withUnsafeBytes(of: sequence.bigEndian) { Array($0) } }

    static func decode(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> Window? {
        guard key.count == 8, value.count == 4 else { return nil }
        var end: UInt64 = 0, number: UInt32 = 0
        for b in key { end = end << 8 | UInt64(b) }
        for b in value { number = number << 8 | UInt32(b) }
        return Window(number: number, end: end)
    }

    private static func damaged(_ db: Database) -> ViewError { .damaged("\(db.name): an entry is not a window") }

    /// The last window closed, or nil when none is.
    static func lastClosed(_ scope: TransactionScope, _ windows: Database) throws -> Window? {
        try scope.withCursor(windows) { c in
            guard let e = try c.last() else { return nil }
            guard let w = decode(e.key, e.value) else { throw damaged(windows) }
            return w
        }
    }

    /// The last window ending at or before `sequence`, or nil when none does.
    static func closed(atOrBefore sequence: UInt64, _ scope: TransactionScope, _ windows: Database) throws -> Window? {
        guard sequence < UInt64.max else { return try lastClosed(scope, windows) }
        return try endKey(sequence + 1).withUnsafeBytes { k in
            try scope.withCursor(windows) { c -> Window? in
                let e = try c.seek(atLeast: k) == nil ? try c.last() : try c.previous()
                guard let e else { return nil }
                guard let w = decode(e.key, e.value) else { throw damaged(windows) }
                return w
            }
        }
    }

    /// The first window ending at or after `sequence`, or nil when none does (the sequence is in the open window).
    static func closed(atOrAfter sequence: UInt64, _ scope: TransactionScope, _ windows: Database) throws -> Window? {
        try endKey(sequence).withUnsafeBytes { k in
            try scope.withCursor(windows) { c -> Window? in
                guard let e = try c.seek(atLeast: k) else { return nil }
                guard let w = decode(e.key, e.value) else { throw damaged(windows) }
                return w
            }
        }
    }

    /// The ends of the windows closed after `sequence`, oldest first, at most `limit`.
    static func ends(after sequence: UInt64, limit: Int, _ scope: TransactionScope, _ windows: Database) throws -> [UInt64] {
        guard sequence < UInt64.max else { return [] }
        return try endKey(sequence + 1).withUnsafeBytes { k in
            try scope.withCursor(windows) { c -> [UInt64] in
                var out: [UInt64] = []
                var e = try c.seek(atLeast: k)
                while let entry = e, out.count < limit {
                    guard let w = decode(entry.key, entry.value) else { throw damaged(windows) }
                    out.append(w.end)
                    e = try c.next()
                }
                return out
            }
        }
    }

    /// The window a batch ending at `last` writes its versions in: the closed window holding it, else the open one.
    static func window(for last: UInt64, _ scope: TransactionScope, _ windows: Database) throws -> UInt32 {
        if let w = try closed(atOrAfter: last, scope, windows) { return w.number }
        return (try lastClosed(scope, windows)?.number ?? 0) + 1
    }

    /// Records `window` as closed at `end`.
    static func close(_ window: UInt32, at end: UInt64, _ scope: TransactionScope, _ windows: Database) throws {
        let number = withUnsafeBytes(of: window.bigEndian) { Array($0) }
        try scope.put(windows, endKey(end), number)
    }
}
