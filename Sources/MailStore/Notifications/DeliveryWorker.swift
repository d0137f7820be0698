import CProcess
import Foundation
import SecureTransport

/// The thread a watch's notifier runs its notify and withdraw commands on, so that a slow or hanging command (each
/// killed after its timeout) never holds up the sync: the watch thread asks (``ask()``, which never waits) and goes on
/// syncing and deciding; this thread runs one delivery pass at a time. What a pass does is the owner's (`pass`: the CLI's
/// runs `NotifyCommand`s), so the worker is tested with any.
///
/// Bounds: one pass at a time, so one command at a time per notifier; the backlog is one flag (asks made while a pass
/// runs coalesce into one more pass), and a pass takes the owed items from the notifications view (at most
/// `NotificationCoordinator.readLimit` of each kind). Nothing is held in memory that the log does not hold: a delivery is
/// recorded (`NotificationDelivered`) after its command succeeds, so one the process did not get to stays pending and
/// is delivered after a restart, exactly once as before.
///
/// The thread lives as long as its owner: ``finish(seconds:)`` (when the account's watch ends) lets what was asked run
/// for at most that long, starts nothing after it, and the thread ends once its pass (if one still runs) returns. It had
/// waited for asks for good, one idle thread for each watch that ended in a process that went on.
package final class DeliveryWorker: @unchecked Sendable {
    // Every field below is read and written under `condition`'s lock.
    private let condition = MonotonicCondition()
    /// A pass was asked for and has not started yet.
    private var asked = false
    /// A pass is running.
    private var running = false
    /// No pass starts after this time (set by ``finish(seconds:)``); the thread ends instead. On the monotonic clock, as
    /// every wait here, the condition's timed waits too (``MonotonicCondition``: a wall clock stepped back had stretched
    /// the turns of a second they took on `NSCondition`'s wall clock by the step).
    private var deadline: Deadline?
    /// The thread has ended (or is about to return: it takes the lock no more).
    private var ended = false
    private let pass: @Sendable () -> Void
    /// The thread's name, as the system shows it too (`top -H`; the first 15 bytes).
    private let name: String

    /// Starts the thread (named `name`); `pass` is one delivery pass, run on it whenever asked.
    package init(name: String, pass: @escaping @Sendable () -> Void) {
        self.pass = pass
        self.name = name
        let thread = Thread { [self] in loop() }
        thread.name = name
        thread.start()
    }

    /// Asks for a delivery pass: one starts now if the thread is idle, else one more after the running one. Never waits.
    /// After ``finish(seconds:)`` it asks nothing.
    package func ask() {
        condition.lock()
        defer { condition.unlock() }
        guard deadline == nil else { return }
        asked = true
        condition.signal()
    }

    /// Waits until no pass runs nor is asked for, at most `seconds`; true when idle.
    @discardableResult
    package func waitIdle(seconds: Double) -> Bool {
        let deadline = Deadline(secondsFromNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while asked || running {
            if deadline.hasPassed { return false }
            condition.wait(until: deadline)
        }
        return true
    }

    /// Ends the thread: the pass running and the one asked for still run if they start within `seconds`, none is
    /// asked after this call, and the thread ends when no pass runs. Waits for that at most `seconds`; true when the
    /// thread ended within them (false: a pass still runs, and the thread ends when it returns).
    @discardableResult
    package func finish(seconds: Double) -> Bool {
        let until = Deadline(secondsFromNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        if deadline == nil { deadline = until }
        condition.broadcast()
        while !ended {
            if until.hasPassed { return false }
            condition.wait(until: until)
        }
        return true
    }

    /// True once the thread ended (after ``finish(seconds:)``).
    package var hasEnded: Bool {
        condition.lock()
        defer { condition.unlock() }
        return ended
    }

    private func loop() {
        _ = mailstore_set_thread_name(name)  // Foundation keeps `Thread.name` to itself on Linux
        while true {
            condition.lock()
            while !asked && deadline == nil { condition.wait() }
            if let deadline, !asked || deadline.hasPassed {
                asked = false
                ended = true
                condition.broadcast()
                condition.unlock()
                return
            }
            asked = false
            running = true
            condition.unlock()
            pass()
            condition.lock()
            running = false
            condition.broadcast()
            condition.unlock()
        }
    }
}
