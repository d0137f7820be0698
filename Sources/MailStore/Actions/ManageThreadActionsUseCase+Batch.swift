import EventModel
import Projections

extension ManageThreadActionsUseCase {
    /// Takes an action of `kind` on threads of any accounts (the unified inbox's batch): the threads are
    /// grouped by account and each group is one action (its own id, written back to its own server). A thread
    /// that cannot be acted on (an unknown id, no Archive folder in its account, nothing to do there) is a
    /// failure in the result, and the other threads are still applied. Ids given twice count once.
    public func batch(_ kind: ActionKind, ids: [String], destination: String? = nil) -> BatchActionResult {
        var result = BatchActionResult()
        var seen = Set<String>()
        var byAccount: [String: [String]] = [:]
        for id in ids where seen.insert(id).inserted {
            do throws(ThreadListError) {
                let account = try wrap { try views.threadEmails(id: id).first?.email.account }
                guard let account else { throw ThreadListError.threadNotFound(id: id) }
                byAccount[account, default: []].append(id)
            } catch {
                result.failures.append(.init(thread: id, reason: error.description, error: error))
            }
        }
        for account in byAccount.keys.sorted() {
            let threads = byAccount[account]!
            do throws(ThreadListError) {
                let action = try act(kind, threads, destination: destination)
                result.actions.append(.init(account: account, action: action.description, threads: threads))
            } catch {
                result.failures += threads.map { .init(thread: $0, reason: error.description, error: error) }
            }
        }
        return result
    }
}
