import EventModel

/// The result of `EventLog.verify()`.
public struct VerifyReport: Sendable, Equatable {
    /// One thing found wrong.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The sequence it concerns (nil for index- or blob-level problems).
        public var sequence: UInt64?
        /// What is wrong.
        public var message: String

        /// A problem at `sequence` (nil: not of one record).
        public init(sequence: UInt64?, message: String) {
            self.sequence = sequence
            self.message = message
        }

        public var description: String {
            if let s = sequence { return "seq \(s): \(message)" }
            return message
        }
    }

    /// Records walked.
    public var eventsChecked: UInt64 = 0
    /// Blobs checked.
    public var blobsChecked: UInt64 = 0
    /// Blob dictionaries checked.
    public var dictionariesChecked: UInt64 = 0
    /// The head sequence at the start of the walk.
    public var headSequence: UInt64 = 0
    /// Problems found, in log order (at most `maxProblems`).
    public var problems: [Problem] = []
    /// True when more problems were found than kept.
    public var truncated = false
    /// True when the indexes' digests differed from the records' and every record was looked up in them
    /// (`EventLog.verify`); false when the digests agreed.
    public var indexesLookedUp = false

    /// Records recorded earlier than the record before them: none in a log this build wrote (its appends never
    /// record a time before the last one), some where an older build's clock stepped back. Not a problem (the chain
    /// and the records are sound), but a time (`log --since`, `--as-of`) then names a point near each such step.
    public var recordedTimesBack: UInt64 = 0
    /// The first of those records.
    public var firstRecordedTimeBack: UInt64?

    /// Records recorded more than ``aheadSlackSeconds`` after this machine's clock as the verify began: appended while
    /// the clock stood ahead (a command run with the clock a year ahead). Not a problem either, but since appends never
    /// record a time before the last one, every record appended until the clock passes ``newestRecordedAt`` is recorded
    /// at that time: times given to `log --since` or `--as-of` cannot tell them apart.
    public var recordedTimesAhead: UInt64 = 0
    /// The first of those records.
    public var firstRecordedTimeAhead: UInt64?
    /// The latest time a record holds (nil for an empty log).
    public var newestRecordedAt: Timestamp?
    /// How far ahead of the clock a recorded time may be before it counts as ahead (60 s: clocks of one machine that
    /// an NTP slew or a second process's append set apart are not meant).
    public static let aheadSlackSeconds: Int64 = 60

    /// Records whose chain hash holds but whose payload is of a schema newer than this build reads: written by a newer
    /// mailstore (whose store format this build would refuse; a log copied under an older format, or a build that broke
    /// the format rule). Not a problem found, nor checked: `verify` says to upgrade instead of to restore.
    public var newerRecords: UInt64 = 0
    /// The first of those records, and what its decoding said.
    public var firstNewerRecord: Problem?

    /// An empty report.
    public init() {}

    /// The most problems kept.
    public static let maxProblems = 100

    /// True when nothing is wrong.
    public var isClean: Bool { problems.isEmpty }

    /// Counts the recorded time `at` of record `sequence`: ahead of `clock` (the machine's, as the verify began), and
    /// the newest.
    mutating func recorded(_ at: Timestamp, sequence: UInt64, clock: Timestamp) {
        // Overflow-checked: `at` is a record's raw bytes, damage included (one flipped top bit trapped the verify).
        let (ahead, overflow) = at.microseconds.subtractingReportingOverflow(clock.microseconds)
        if !overflow, ahead > VerifyReport.aheadSlackSeconds * 1_000_000 {
            recordedTimesAhead += 1
            if firstRecordedTimeAhead == nil { firstRecordedTimeAhead = sequence }
        }
        if newestRecordedAt.map({ $0 < at }) ?? true { newestRecordedAt = at }
    }

    /// The first sequence with a problem.
    public var firstBadSequence: UInt64? { problems.compactMap(\.sequence).min() }

    /// Adds what `other` (a part of the same verify, walked on another thread) counted and found, its problems
    /// after this one's, within the same bound.
    mutating func absorb(_ other: VerifyReport) {
        eventsChecked += other.eventsChecked
        blobsChecked += other.blobsChecked
        dictionariesChecked += other.dictionariesChecked
        for p in other.problems { add(p.sequence, p.message) }
        newerRecords += other.newerRecords
        if firstNewerRecord == nil { firstNewerRecord = other.firstNewerRecord }
        truncated = truncated || other.truncated
        indexesLookedUp = indexesLookedUp || other.indexesLookedUp
    }

    mutating func newer(_ sequence: UInt64, _ what: String) {
        newerRecords += 1
        if firstNewerRecord == nil { firstNewerRecord = Problem(sequence: sequence, message: what) }
    }

    mutating func add(_ sequence: UInt64?, _ message: String) {
        if problems.count < VerifyReport.maxProblems {
            problems.append(Problem(sequence: sequence, message: message))
        } else {
            truncated = true
        }
    }
}
