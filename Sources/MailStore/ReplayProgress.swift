import Foundation

/// The progress of a replay whose views and search index are rebuilt at once: the two counts summed
/// and reported under a lock (the two builders call it from their own threads).
final class ReplayProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let report: ((UInt64, UInt64) -> Void)?
    private var views: (done: UInt64, total: UInt64) = (0, 0)
    private var search: (done: UInt64, total: UInt64) = (0, 0)

    init(_ report: ((UInt64, UInt64) -> Void)?) { self.report = report }

    func update(views done: UInt64, _ total: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        views = (done, total)
        report?(views.done + search.done, views.total + search.total)
    }

    func update(search done: UInt64, _ total: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        search = (done, total)
        report?(views.done + search.done, views.total + search.total)
    }
}
