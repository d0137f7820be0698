import Foundation

/// The `AbsentKeyFilter`s of one view's tables while the view is built from empty (a replay's new generation,
/// a verification's or time travel's fold from the log's start), and when to give one up.
///
/// Only sound while every key in these tables went through `put` here: the tables were empty when the fold
/// began and no one else writes them (a generation being built is under the build lock in a folder of its
/// own; a scratch folder is this process's). `ViewStore.buildsFromEmpty(_:)` says so; nothing else does.
///
/// A table's filter is dropped (its lookups then read the table, as without one) when it does not pay:
/// - it was put into `unreadPuts` times with no lookup (an index only scanned: `threads.index`);
/// - after `trialLookups` lookups, fewer than one in `minimumSkipShare` was answered by it (keys mostly there:
///   contact records, thread records);
/// - growing it would take the filters of the whole store over `AbsentKeyBudget.limit`.
///
/// Used by one thread at a time (the fold's, or the second core's for views folded there; the hand-over
/// between them orders their accesses). So its stored properties skip Swift's run-time exclusivity checks
/// (`@exclusivity(unchecked)`, docs/architecture.md "Exclusivity checks").
final class AbsentKeyFilters: @unchecked Sendable {
    private final class Entry {
        @exclusivity(unchecked) var filter = AbsentKeyFilter()
        @exclusivity(unchecked) var lookups = 0
        @exclusivity(unchecked) var skipped = 0
        @exclusivity(unchecked) var putsWithoutLookup = 0
    }

    static let unreadPuts = 65_536
    static let trialLookups = 4_096
    static let minimumSkipShare = 8

    @exclusivity(unchecked) private var tables: [String: Entry]
    private let budget: AbsentKeyBudget
    /// Lookups answered without reading the table (for tests and the bench's notes).
    @exclusivity(unchecked) private(set) var skippedLookups = 0

    /// Filters for `tables` (all empty now), their growth counted against `budget`.
    init(tables: [String], budget: AbsentKeyBudget) {
        self.tables = Dictionary(uniqueKeysWithValues: tables.map { ($0, Entry()) })
        self.budget = budget
    }

    /// The table looked up last and its entry (nil: not filtered): lookups and puts come in runs per table, and
    /// comparing the same string is cheaper than hashing it (as `LMDBKeyValueStore` does for its databases).
    @exclusivity(unchecked) private var last: (table: String, entry: Entry?)?

    private func entry(_ table: String) -> Entry? {
        if let last, last.table == table { return last.entry }
        let e = tables[table]
        last = (table, e)
        return e
    }

    /// True when `key` is surely not in `table` (the lookup can be skipped).
    func surelyAbsent(_ table: String, _ key: [UInt8]) -> Bool {
        guard let e = entry(table) else { return false }
        e.lookups += 1
        let absent = !e.filter.mightContain(key)
        if absent {
            e.skipped += 1
            skippedLookups += 1
        }
        if e.lookups == AbsentKeyFilters.trialLookups && e.skipped * AbsentKeyFilters.minimumSkipShare < e.lookups {
            drop(table, e)
        }
        return absent
    }

    /// Records that `key` was put into `table`.
    func put(_ table: String, _ key: [UInt8]) {
        key.withUnsafeBytes { put(table, $0) }
    }

    /// Records that `key` was put into `table`.
    func put(_ table: String, _ key: UnsafeRawBufferPointer) {
        guard let e = entry(table) else { return }
        if e.lookups == 0 {
            e.putsWithoutLookup += 1
            if e.putsWithoutLookup >= AbsentKeyFilters.unreadPuts { drop(table, e); return }
        }
        if e.filter.full && !budget.take(e.filter.nextLayerBytes) { drop(table, e); return }
        e.filter.insert(key)
    }

    /// The tables still filtered (for tests).
    var filteredTables: Set<String> { Set(tables.keys) }

    private func drop(_ table: String, _ e: Entry) {
        tables[table] = nil
        last = nil
        budget.give(e.filter.bytes)
    }
}

/// The memory all of a store's `AbsentKeyFilters` may take together: 32 MiB (~13M keys at the most a layer
/// can waste, ~2.5 bytes a key; a 1M-message replay filters ~8M keys). A table whose filter would grow past it
/// loses its filter instead.
final class AbsentKeyBudget: @unchecked Sendable {
    static let limit = 32 << 20
    private let lock = NSLock()
    private var left: Int

    init(bytes: Int = AbsentKeyBudget.limit) { left = bytes }

    /// Takes `bytes` if that many are left.
    func take(_ bytes: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard bytes <= left else { return false }
        left -= bytes
        return true
    }

    /// Gives back `bytes` (a dropped filter's).
    func give(_ bytes: Int) {
        lock.lock()
        left += bytes
        lock.unlock()
    }
}
