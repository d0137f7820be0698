import Foundation

/// Work on another thread that a test waits for, with a bound.
package final class BackgroundTask: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var failure: (any Error)?

    /// Starts `body` on a new thread.
    package init(_ body: @escaping @Sendable () throws -> Void) {
        let thread = Thread { [self] in
            do {
                try body()
            } catch {
                lock.withLock { failure = error }
            }
            done.signal()
        }
        thread.start()
    }

    /// Waits up to `seconds` for the work to end and rethrows its error; throws when it did not end.
    package func wait(seconds: Double) throws {
        guard done.wait(timeout: .now() + seconds) == .success else {
            throw BackgroundTaskTimeout(seconds: seconds)
        }
        if let failure = lock.withLock({ failure }) { throw failure }
    }
}

/// A background task that did not end in time.
package struct BackgroundTaskTimeout: Error, CustomStringConvertible {
    /// The seconds waited.
    package let seconds: Double

    /// A timeout after `seconds`.
    package init(seconds: Double) {
        self.seconds = seconds
    }

    /// What did not end in time.
    package var description: String { "background work did not end within \(seconds) seconds" }
}
