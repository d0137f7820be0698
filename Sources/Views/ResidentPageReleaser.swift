import Foundation
import LMDB

/// Unmaps an environment's resident pages (`Environment.releaseResidentPages`) every `interval` on a thread of
/// its own, until `stop()`: for the write transactions of big batches, where LMDB touches every page the batch
/// copied on write (when it copies them, and again when its commit clears their dirty marks), so the resident
/// size would otherwise grow by the whole batch's pages (~150 MiB of a 100K-message store's views) however
/// often the writing thread releases between its steps. The pages are page cache of a shared map: unmapping
/// them loses nothing, and a page touched again is mapped again.
package final class ResidentPageReleaser: @unchecked Sendable {
    private let stopped = DispatchSemaphore(value: 0)
    private var work: BackgroundWork<Void>?

    /// Starts releasing `environment`'s pages every `interval`.
    init(_ environment: Environment, every interval: DispatchTimeInterval) {
        let stopped = stopped
        work = BackgroundWork {
            while stopped.wait(timeout: .now() + interval) == .timedOut { environment.releaseResidentPages(over: Environment.residentFileBudget) }
        }
    }

    /// Runs `body` with `environment`'s pages released every `interval` meanwhile, and once more at the end
    /// (what `body` mapped since the last release would otherwise stay mapped while the caller goes on: after a
    /// copy, ~35 MiB of the source views all through `replay --view`'s fold at 100K messages).
    package static func during<T>(_ environment: Environment, every interval: DispatchTimeInterval = ViewStore.releaseEvery,
                          _ body: () throws -> T) rethrows -> T {
        let releaser = ResidentPageReleaser(environment, every: interval)
        defer {
            releaser.stop()
            environment.releaseResidentPages()
        }
        return try body()
    }

    /// Stops releasing; returns once the thread has ended. Call once.
    func stop() {
        stopped.signal()
        _ = work?.wait()
        work = nil
    }

    deinit { if work != nil { stop() } }
}
