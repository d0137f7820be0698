import EventModel

// A store's log opened for writing keeps `stats`' tally (`LogTally`) current as it appends, so the first `stats`
// after an import does not walk what the import wrote (9 s at a million messages): each append counts the records
// and blobs it puts (`TallyDelta`), and the tally is written to the stats cache every `tallySaveInterval` events and
// blobs, by `stats`, and when the log is closed.
extension EventLog {
    /// The most events, and the most blobs, a log walks to start keeping the tally at its first append (those after
    /// the cache file's tally, or all of a log without one); with more, the tally is not kept by this process and
    /// `stats` walks them as before. 65,536 records and blobs: ~0.1-0.3 s once.
    package static let tallyWalkLimit: UInt64 = 65_536
    /// Events and blobs appended between two writes of the kept tally (each a ~2 KB file written and renamed).
    static let tallySaveInterval: UInt64 = 65_536

    /// Whether this process keeps the tally now (tests).
    package var keepsTally: Bool {
        writerLock.lock()
        defer { writerLock.unlock() }
        return keptTally != nil
    }

    /// Starts keeping the tally, at the first append (under `writerLock`): from the cache file's tally when it holds
    /// for this log, else from nothing; the events and blobs after it walked when they are at most `tallyWalkMost`
    /// each. Any failure leaves the tally not kept: it is a cache.
    func startKeepingTally() {
        triedKeepingTally = true
        guard let path = tallyCache, let found = try? cachedTally(path) else { return }
        var tally = found.0
        let cached = found.cached
        guard let head = try? head().sequence, head >= tally.sequence, head - tally.sequence <= tallyWalkMost,
              let blobsAfter = try? blobsAfter(tally, legacyCounted: cached), blobsAfter <= tallyWalkMost else { return }
        let before = tally
        guard (try? advance(&tally, legacyCounted: cached)) != nil, tally.isPlausible else { return }
        keptTally = tally
        unsavedTally = tally == before ? 0 : 1
    }

    /// The blobs `advance` would walk after `tally`: the numbered ones after its last, and the hash-keyed ones unless
    /// counted.
    private func blobsAfter(_ tally: LogTally, legacyCounted: Bool) throws -> UInt64 {
        try environment.read { txn in
            var n: UInt64 = legacyCounted ? 0 : UInt64(try txn.stat(blobs).entries)
            if let blobData {
                let last: UInt64 = try txn.withCursor(blobData) { c in
                    guard let e = try c.last(), e.key.count == 8 else { return 0 }
                    return EventLog.decodeSequence(e.key)
                }
                n += last > tally.lastBlobNumber ? last - tally.lastBlobNumber : 0
            }
            return n
        }
    }

    /// Adds what a committed append put to the kept tally (under `writerLock`); where the tally no longer ends where
    /// that transaction began (another process appended meanwhile), it is written as it was and no longer kept.
    func keep(_ delta: TallyDelta) {
        guard let tally = keptTally else { return }
        guard let next = delta.added(to: tally) else {
            saveKeptTallyUnlocked()
            keptTally = nil
            return
        }
        keptTally = next
        unsavedTally += delta.events + delta.blobs
        if unsavedTally >= EventLog.tallySaveInterval { saveKeptTallyUnlocked() }
    }

    /// Writes the kept tally to the stats cache when it has changed since it was last written.
    package func saveKeptTally() {
        writerLock.lock()
        defer { writerLock.unlock() }
        saveKeptTallyUnlocked()
    }

    /// `saveKeptTally` under `writerLock` (or in `deinit`).
    func saveKeptTallyUnlocked() {
        guard let tally = keptTally, let path = tallyCache, unsavedTally > 0 else { return }
        tally.save(path, synced: false)
        unsavedTally = 0
    }
}
