import EventModel

/// A message a folder's sync gave up as unfetchable (``FolderSyncState/givenUp``): the server failed to deliver it
/// whole, alone, twice in one sync. An ordinary sync tries it again once ``retryAt`` has come (``retryDelay(times:)``),
/// so a server that failed once and recovered delivers it with nothing for the user to do.
public struct UnfetchableMessage: BinaryField, Equatable, Sendable {
    /// Its UID, under the folder's UIDVALIDITY.
    public var uid: UInt32
    /// When it was last given up (for a checkpoint of a build before 2026-12-07 that did not say: when that checkpoint
    /// was recorded).
    public var givenUpAt: Timestamp
    /// How many times in a row it was given up: 1 the first time, one more each time a retry fails again.
    public var times: UInt32

    /// A message given up `times` times, the last at `givenUpAt`.
    public init(uid: UInt32, givenUpAt: Timestamp, times: UInt32 = 1) {
        self.uid = uid
        self.givenUpAt = givenUpAt
        self.times = max(1, times)
    }

    /// The wait before a message given up `times` times in a row is tried again: 24 hours, doubled each time it is given
    /// up again (48 h, 96 h), at most 7 days: a message that still stalls costs its folder's sync up to three read
    /// timeouts at most once a week.
    public static func retryDelay(times: UInt32) -> Int64 {
        let day: Int64 = 86_400_000_000
        let doublings = Int64(min(max(times, 1) - 1, 3))
        return min(day << doublings, 7 * day)
    }

    /// When an ordinary sync tries it again (saturated at the end of time).
    public var retryAt: Timestamp {
        let (sum, overflow) = givenUpAt.microseconds.addingReportingOverflow(UnfetchableMessage.retryDelay(times: times))
        return Timestamp(microseconds: overflow ? .max : sum)
    }

    /// The same message given up once more, at `now` (after a retry that failed again).
    public func givenUpAgain(at now: Timestamp) -> UnfetchableMessage {
        UnfetchableMessage(uid: uid, givenUpAt: now, times: times == .max ? .max : times + 1)
    }

    /// Whether an ordinary sync at `now` tries it again: its ``retryAt`` has come, or it was given up more than
    /// ``aheadAllowance`` ahead of `now`, which no message given up with the clock right is: given up while the clock
    /// stood ahead (then set right), or the clock stepped back since. Such a retry has waited already (given up while the
    /// clock stood a year ahead, it had waited a year and a day more; until the fourteenth round it did).
    public func isDue(at now: Timestamp) -> Bool {
        let (allowed, overflow) = now.microseconds.addingReportingOverflow(UnfetchableMessage.aheadAllowance)
        return retryAt <= now || (!overflow && givenUpAt.microseconds > allowed)
    }

    /// How far ahead of the clock a time given up may lie and still be waited for from it (an hour, in microseconds, as
    /// the outbox's and write-back's retries allow, `RetryBackoff.longest`): a clock stepped back a little (NTP) does
    /// not make a message due at once.
    public static let aheadAllowance: Int64 = 3_600_000_000

    @usableFromInline package func write(to w: inout ByteWriter) {
        w.write(uid); w.write(givenUpAt); w.write(times)
    }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        uid = try r.read(); givenUpAt = try r.read()
        let told: UInt32 = try r.read()
        times = max(1, told)
    }
}
