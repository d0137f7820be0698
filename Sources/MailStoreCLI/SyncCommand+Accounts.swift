import Foundation
import MailStore

extension SyncCommand {
    /// How many accounts `sync` runs at once (each on its own thread, each with its own connection from the pool).
    static let parallelAccounts = 4

    /// The outcome of one account's sync.
    enum Outcome {
        case synced(SyncReport)
        case failed(any Error)
    }

    /// Syncs `accounts`, up to ``parallelAccounts`` at once; returns each one's outcome in the accounts' order.
    /// A failing account does not stop the others (FR-MPROV-14). `summaries`: each account's summary is printed
    /// as it finishes (never interleaved with another's).
    static func syncConcurrently(store: MailStore, accounts: [AccountAdded], options: SyncOptions, summaries: Bool) -> [Outcome] {
        let results = OutcomeList(count: accounts.count)
        let group = DispatchGroup()
        for worker in 0..<min(parallelAccounts, accounts.count) {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                while let i = results.next() {
                    let a = accounts[i]
                    do {
                        try OutboxCommand.reclaim(store: store, account: a.name)
                        let report = try SyncEngine(store: store, account: a, options: options).run()
                        results.set(i, .synced(report)) {
                            if summaries { SyncCommand.printSummary(report) }
                            SyncCommand.printFolderFailures(report)
                        }
                    } catch {
                        results.set(i, .failed(error)) { Terminal.error("\(a.name): \(SyncCommand.clause(error))") }
                    }
                }
            }
            thread.name = "sync \(worker)"
            thread.start()
        }
        group.wait()
        return results.items
    }
}

/// The accounts' outcomes, filled from several threads; hands out the next account to sync.
private final class OutcomeList: @unchecked Sendable {
    private let lock = NSLock()
    private var outcomes: [SyncCommand.Outcome?]
    private var nextIndex = 0

    init(count: Int) { outcomes = Array(repeating: nil, count: count) }

    /// The index of the next account nobody syncs yet, or nil.
    func next() -> Int? {
        lock.withLock {
            guard nextIndex < outcomes.count else { return nil }
            defer { nextIndex += 1 }
            return nextIndex
        }
    }

    /// Records account `i`'s outcome and runs `print` under the same lock (one account's lines together).
    func set(_ i: Int, _ outcome: SyncCommand.Outcome, print: () -> Void) {
        lock.withLock {
            outcomes[i] = outcome
            print()
        }
    }

    var items: [SyncCommand.Outcome] { lock.withLock { outcomes.map { $0 ?? .failed(SyncError.noAccounts) } } }
}
