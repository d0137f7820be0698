import Foundation

/// The accounts whose work failed, appended to from several threads (`sync --watch` over many accounts).
final class FailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [(String, any Error)] = []

    func append(_ account: String, _ error: any Error) {
        lock.withLock { list.append((account, error)) }
    }

    var items: [(String, any Error)] { lock.withLock { list } }
}
