import Foundation

/// Work on another thread that a test waits for, with a bound.
final class BackgroundTask: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var failure: (any Error)?

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () throws -> Void) {
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
    func wait(seconds: Double) throws {
        guard done.wait(timeout: .now() + seconds) == .success else {
            throw BackgroundTaskTimeout(seconds: seconds)
        }
        if let failure = lock.withLock({ failure }) { throw failure }
    }
}

/// A background task that did not end in time.
struct BackgroundTaskTimeout: Error, CustomStringConvertible {
    let seconds: Double
    var description: String { "background work did not end within \(seconds) seconds" }
}
