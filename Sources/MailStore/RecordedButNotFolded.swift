import LMDB

/// Events were appended to the log, but the views could not be brought up to date after them (a full disk, a
/// damaged views file): what the events say happened, and shows once the views catch up, which any later command does
/// once the cause is mended. Said so, it is not taken for a failure to be tried again (an action taken twice, an
/// import run again, by a user told "failed" though the log had it).
public struct RecordedButNotFolded: Error, CustomStringConvertible {
    /// The last sequence appended.
    public let sequence: UInt64
    /// Why the views could not fold it.
    public let underlying: any Error

    public var description: String {
        // LMDB's own advice ("run the command again", "nothing of the failed write was stored") is about the views' write,
        // not the events': left out.
        let why = (underlying as? LMDBError).map { "\($0.operation) failed: \($0.message) (\($0.code))" } ?? "\(underlying)"
        return "recorded in the log (through event \(sequence)), but the views could not be brought up to date: \(why). "
            + "It is done and shows once the views catch up, which the next command does when the cause is mended "
            + "(free disk space, or `mailstore replay` for a damaged views file): do not do it again"
    }
}
