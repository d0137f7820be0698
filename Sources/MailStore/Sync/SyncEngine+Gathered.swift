import EventModel

extension SyncEngine {
    /// At most this many checkpoints are gathered (``gathered``) before they are committed: a first sync of 10,000
    /// empty folders made 10,000 commits, each an fdatasync (160 s of a 187 s sync), and makes 40 now.
    static let gatheredMost = 256

    /// Gathers `checkpoint`, the only event of a folder's pass (nothing fetched, changed or expunged), for one commit
    /// with others; commits them once ``gatheredMost`` are waiting.
    func gather(_ checkpoint: NewEvent) throws {
        gathered.append(checkpoint)
        if gathered.count >= SyncEngine.gatheredMost { try commitGathered() }
    }

    /// Commits the gathered checkpoints (nothing when none waits). Called before anything reads another folder's sync
    /// state (``destinationsAhead(of:gone:)``) and at the end of a run (``committingGathered(_:)``).
    func commitGathered() throws {
        guard !gathered.isEmpty else { return }
        let events = gathered
        gathered = []
        try store.commit(events)
    }

    /// Runs a run's folder loop `body`, then commits the checkpoints it gathered, also when `body` throws (a later
    /// folder's lost connection keeps the earlier folders' checkpoints); that error is thrown then, even when the
    /// commit fails too (the gathered folders are examined again by the next run).
    func committingGathered(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            // (A failed commit of them too leaves those folders to the next run's EXAMINE: this error is the one told.)
            do { try commitGathered() } catch {}
            throw error
        }
        try commitGathered()
    }
}
