import Foundation

/// Work on another thread that a test waits for, with a bound.
public final class BackgroundTask: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var failure: (any Error)?

    /// Starts `body` on a new thread.
    public init(_ body: @escaping @Sendable () throws -> Void) {
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
    public func wait(seconds: Double) throws {
        guard done.wait(timeout: .now() + seconds) == .success else {
            throw BackgroundTaskTimeout(seconds: seconds)
        }
        if let failure = lock.withLock({ failure }) { throw failure }
    }
}

/// A background task that did not end in time.
public struct BackgroundTaskTimeout: Error, CustomStringConvertible {
    /// The seconds waited.
    public let seconds: Double

    /// A timeout after `seconds`.
    public init(seconds: Double) {
        self.seconds = seconds
    }

    /// What did not end in time.
    public var description: String { "background work did not end within \(seconds) seconds" }
}
