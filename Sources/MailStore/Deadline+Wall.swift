import Foundation
import SecureTransport

/// Wall-clock times turned into monotonic deadlines: an API that takes a `Date` (a caller's time limit) converts it once,
/// at its start, and waits on the monotonic clock from there, so a wall clock stepped meanwhile neither stretches the
/// wait nor ends it early.
extension Deadline {
    /// The deadline that `date` names now (one already past: passed).
    init(wall date: Date) {
        self.init(secondsFromNow: date.timeIntervalSinceNow)
    }

    /// The earlier of `a` and `b`.
    static func earlier(_ a: Deadline, _ b: Deadline) -> Deadline {
        a.instant <= b.instant ? a : b
    }

    /// The seconds left, negative once passed (`remainingSeconds` stops at 0).
    var secondsLeft: Double { instant - Deadline.now() }
}
