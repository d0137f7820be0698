import EventModel
import Projections

/// Writing to the servers now: thread actions pushed, abandoned sends reclaimed.
extension MailStore {
    /// Writes the pending actions of `actionID`'s account back to the server now (that action even if it
    /// waits for a retry). Returns nil when the action's account has no server (it is complete locally).
    public func pushActions(for actionID: String) throws -> WriteBackReport? {
        guard let record = try latestViews().action(id: actionID), let account = try account(named: record.account) else {
            return nil
        }
        let engine = try SyncEngine(store: self, account: account)
        defer { engine.disconnect() }
        return try engine.writeBack(force: [actionID])
    }

    /// Puts `account`'s drafts into its server's Drafts folder now (each latest version APPENDed, older copies
    /// and those of sent or discarded drafts deleted), failures waiting for a retry included. Returns nil when
    /// the account has no server (its drafts are local).
    public func pushDrafts(account name: String) throws -> DraftSyncReport? {
        guard let account = try account(named: name) else { return nil }
        let engine = try SyncEngine(store: self, account: account)
        defer { engine.disconnect() }
        return try engine.syncDrafts(force: true)
    }

    /// Puts queued messages whose sending process ended before the send started (their claim's holder ended, see
    /// `OutboxUseCase.reclaimAbandoned`) back among the drafts (`SendUndone`, actor system), in `account` or (nil)
    /// every configured account. Returns their draft ids. Write paths run it (send, sync, `outbox send|retry`); reads never do.
    @discardableResult
    public func reclaimAbandonedSends(account: String? = nil) throws -> [String] {
        let names = try account.map { [$0] } ?? accounts().map(\.name)
        let outbox = OutboxUseCase(store: self)
        return try names.flatMap { try outbox.reclaimAbandoned(account: $0) }
    }
}
