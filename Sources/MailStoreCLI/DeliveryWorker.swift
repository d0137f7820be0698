import Foundation

/// The thread a watch's notifier runs its notify and withdraw commands on, so that a slow or hanging command (each
/// killed after `WatchNotifier.commandTimeout`) never holds up the sync: the watch thread asks (``ask()``, which never
/// waits) and goes on syncing and deciding; this thread runs one delivery pass at a time.
///
/// Bounds: one pass at a time, so one command at a time per notifier; the backlog is one flag (asks made while a pass
/// runs coalesce into one more pass), and a pass takes the owed items from the notifications view (at most
/// `NotificationCoordinator.readLimit` of each kind). Nothing is held in memory that the log does not hold: a delivery is
/// recorded (`NotificationDelivered`) after its command succeeds, so one the process did not get to stays pending and
/// is delivered after a restart, exactly once as before.
final class DeliveryWorker: @unchecked Sendable {
    private let condition = NSCondition()
    /// A pass was asked for and has not started yet.
    private var asked = false
    /// A pass is running.
    private var running = false
    private let pass: @Sendable () -> Void

    /// Starts the thread (named `name`); `pass` is one delivery pass, run on it whenever asked.
    init(name: String, pass: @escaping @Sendable () -> Void) {
        self.pass = pass
        let thread = Thread { [self] in loop() }
        thread.name = name
        thread.start()
    }

    /// Asks for a delivery pass: one starts now if the thread is idle, else one more after the running one. Never waits.
    func ask() {
        condition.lock()
        asked = true
        condition.signal()
        condition.unlock()
    }

    /// Waits until no pass runs nor is asked for, at most `seconds`; true when idle.
    @discardableResult
    func waitIdle(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while asked || running {
            if !condition.wait(until: deadline) { return !(asked || running) }
        }
        return true
    }

    private func loop() {
        while true {
            condition.lock()
            while !asked { condition.wait() }
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
