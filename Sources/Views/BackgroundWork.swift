import Foundation
import Glibc

/// Work run on a thread of its own, waited for by its starter (`wait()` returns its result or error).
/// Used where two independent jobs (the views fold and the search index) can share the two cores.
package final class BackgroundWork<T>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<T, Error>?
    private var waited = false
    private let endedLock = NSLock()
    private var endedFlag = false
    /// The work, until its thread takes it (and lets it go as it ends).
    private var body: (@Sendable () throws -> T)?
    /// The thread running the work, once it runs (under `endedLock`).
    private var runner: pthread_t?

    /// Starts `body` on a new thread (8 MiB stack, like the main thread's).
    ///
    /// `niceness`: the thread's nice value is raised by this much before `body` runs (a lower priority for it and
    /// the threads it starts, not for its starter: on Linux a nice value is a thread's). Where two jobs share the
    /// two cores and one of them ends with a long stretch only one thread can do (the search index's merge, the
    /// views' fold does not), the other yields to it while both run and has the cores to itself afterwards (see
    /// `MailStore.replay`). A value the system refuses leaves the thread's priority as it was.
    package init(niceness: Int32 = 0, _ body: @escaping @Sendable () throws -> T) {
        self.body = body
        let thread = Thread { [self] in
            if niceness > 0 { Self.lowerPriority(by: niceness) }
            // What `body` holds is let go before the starter hears the work ended: the thread (and the closure it
            // runs) lives on for a moment after that, and a view store it held would outlive its holder's release,
            // with its pending work and its environment still open under the next store opened on its folder.
            endedLock.withLock { runner = pthread_self() }
            var work = self.body
            self.body = nil
            result = Result { try work!() }
            work = nil
            endedLock.withLock { endedFlag = true }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Waits for the work to end; its result or error. Called again, it returns the same at once (only the
    /// starter calls it).
    package func wait() -> Result<T, Error> {
        if !waited {
            done.wait()
            waited = true
        }
        return result!
    }

    /// True when called from the work's own thread (a wait there would never end: the work ends after its body
    /// returns). Never blocks.
    package var isCurrentThread: Bool {
        endedLock.withLock { runner.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// True once the work has ended; any thread may ask (another job sharing the cores, to take the second one
    /// when this work leaves it: `ViewStore.secondCoreFree`). Never blocks.
    package var hasEnded: Bool { endedLock.withLock { endedFlag } }

    /// Raises the calling thread's nice value by `niceness` (Linux: `setpriority(PRIO_PROCESS, 0, …)` changes the
    /// calling thread only), up to 19. Returns the nice value the thread has after it.
    @discardableResult
    private static func lowerPriority(by niceness: Int32) -> Int32 {
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        errno = 0
        let now = getpriority(which, 0)
        guard errno == 0 else { return now }
        _ = setpriority(which, 0, min(now + niceness, 19))
        return getpriority(which, 0)
    }

    /// True when the work has ended (then `wait()` returns at once). Never blocks.
    package var isFinished: Bool {
        if !waited && done.wait(timeout: .now()) == .success { waited = true }
        return waited
    }
}
