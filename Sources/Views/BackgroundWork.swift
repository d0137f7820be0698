import Foundation

/// Work run on a thread of its own, waited for by its starter (`wait()` returns its result or error).
/// Used where two independent jobs (the views fold and the search index) can share the two cores.
package final class BackgroundWork<T>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<T, Error>?
    private var waited = false

    /// Starts `body` on a new thread (8 MiB stack, like the main thread's).
    package init(_ body: @escaping @Sendable () throws -> T) {
        let thread = Thread { [self] in
            result = Result { try body() }
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

    /// True when the work has ended (then `wait()` returns at once). Never blocks.
    package var isFinished: Bool {
        if !waited && done.wait(timeout: .now()) == .success { waited = true }
        return waited
    }
}
