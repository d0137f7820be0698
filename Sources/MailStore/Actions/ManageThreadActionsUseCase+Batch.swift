import EventModel
import LMDB
import Projections

extension ManageThreadActionsUseCase {
    /// Takes an action of `kind` on threads of any accounts (the unified inbox's batch): the threads are
    /// grouped by account, and each account's threads are one action (its own id, written back to its own
    /// server), or several when they are more than one action takes (`maxThreadsPerAction` threads,
    /// `maxCopiesPerAction` copies): consecutive runs of the given order, so memory stays bounded whatever the
    /// selection. A thread that cannot be acted on (an unknown id, no Archive folder in its account, nothing to
    /// do there, even beside threads of its account that have something to do) is a failure in the result, left
    /// out of the action, and the other threads are still applied. Ids given twice count once.
    public func batch(_ kind: ActionKind, ids: [String], destination: String? = nil) -> BatchActionResult {
        var result = BatchActionResult()
        var seen = Set<String>()
        var byAccount: [String: [(thread: String, copies: Int)]] = [:]
        for id in ids where seen.insert(id).inserted {
            if seen.count % 256 == 0 { releaseMappedPages() }
            do throws(ThreadListError) {
                let copies = try wrap { try views.threadEmails(id: id) }
                guard let account = copies.first?.email.account else { throw ThreadListError.threadNotFound(id: id) }
                byAccount[account, default: []].append((id, copies.count))
            } catch {
                result.failures.append(.init(thread: id, reason: error.description, error: error))
            }
        }
        for account in byAccount.keys.sorted() {
            for threads in ManageThreadActionsUseCase.actions(byAccount[account]!) {
                releaseMappedPages()
                do throws(ThreadListError) {
                    let (action, idle) = try actOn(kind, threads, destination: destination)
                    let left = Set(idle)
                    result.actions.append(.init(account: account, action: action.description, threads: threads.filter { !left.contains($0) }))
                    let nothing = ThreadListError.actionFailed(underlying: ActionError.nothingToDo(ManageThreadActionsUseCase.nothing(kind)))
                    result.failures += idle.map { .init(thread: $0, reason: nothing.description, error: nothing) }
                } catch {
                    result.failures += threads.map { .init(thread: $0, reason: error.description, error: error) }
                }
            }
        }
        return result
    }

    /// Unmaps the views' and the log's pages once the process holds more than the mapped budget of them
    /// (`Environment.residentFileBudget`): each action's fold maps the pages of its threads, and a selection of
    /// thousands of threads would otherwise keep every one mapped (626 MiB of file pages for 14,423 threads).
    func releaseMappedPages() {
        guard let views = try? views else { return }
        views.environment.releaseResidentPages(over: Environment.residentFileBudget)
        store.log.environment.releaseResidentPages(over: Environment.residentFileBudget)
    }

    /// `threads` (with their copies counted) cut into consecutive runs that one action each takes.
    package static func actions(_ threads: [(thread: String, copies: Int)]) -> [[String]] {
        var runs: [[String]] = []
        var run: [String] = []
        var copies = 0
        for t in threads {
            if !run.isEmpty && (run.count == maxThreadsPerAction || copies + t.copies > maxCopiesPerAction) {
                runs.append(run)
                run = []
                copies = 0
            }
            run.append(t.thread)
            copies += t.copies
        }
        if !run.isEmpty { runs.append(run) }
        return runs
    }
}
