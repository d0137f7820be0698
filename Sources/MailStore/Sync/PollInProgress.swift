import SyncCore

/// A poll of every folder taken in slices (``SyncEngine/pollSlice(folders:seconds:)``): the folders its LIST selected,
/// in sync order, how far it got, and the report gathered so far (told once the last slice is done).
struct PollInProgress {
    /// The folders to sync, listed at the poll's start (a folder listed later waits for the next poll; one deleted
    /// meanwhile is found gone at its EXAMINE, as in a whole sync).
    let folders: [MappedFolder]
    /// The index in ``folders`` of the next folder to sync.
    var next = 0
    /// What the poll did so far: its listing, write-back and Sent filing, then each folder's sync.
    var report: SyncReport
    /// When the poll started, on the monotonic clock.
    let start: Double

    /// Whether every folder was taken.
    var isDone: Bool { next >= folders.count }
}
