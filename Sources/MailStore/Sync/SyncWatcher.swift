import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import SyncCore

/// `mailstore sync --watch`: a full sync, then IDLE on the Inbox (re-issued every refresh interval, the
/// provider's unless given, and at least every minute to write back actions taken meanwhile) with the other
/// folders polled; the outbox's due retries are delivered on the way; lost connections are re-opened with
/// exponential backoff (1 s doubling to 5 min). Authentication, certificate and configuration errors end
/// the watch: retrying cannot fix them.
public final class SyncWatcher {
    let engine: SyncEngine
    let idleRefresh: Double
    let pollInterval: Double
    /// Told about every sync that changed something.
    public var onReport: ((SyncReport) -> Void)?
    /// Told about a transient failure and the seconds until the next attempt.
    public var onRetry: ((Error, Double) -> Void)?
    /// Checked between steps: true ends the watch.
    public var shouldStop: () -> Bool = { false }

    /// A watcher over `engine`. `idleRefresh` nil: the provider's interval.
    public init(engine: SyncEngine, idleRefresh: Double? = nil, pollInterval: Double = 300) {
        self.engine = engine
        self.idleRefresh = idleRefresh ?? engine.provider.idleRefreshSeconds
        self.pollInterval = pollInterval
    }

    /// Runs until `shouldStop` says so (or a permanent error is thrown).
    public func run() throws {
        var backoff = 1.0
        while !shouldStop() {
            do {
                try watchOnce()
                return
            } catch let error as SyncError {
                guard SyncWatcher.isTransient(error) else { throw error }
                engine.disconnect()
                onRetry?(error, backoff)
                let until = Date().addingTimeInterval(backoff)
                while Date() < until && !shouldStop() { usleep(100_000) }
                backoff = min(backoff * 2, 300)
            }
        }
    }

    /// One connected session: a full sync, then IDLE and polls until stopped or the connection fails.
    /// The Inbox is synced again after every IDLE (an event or the refresh interval), and IDLE starts only
    /// when the selected Inbox matches what the log holds, so a change made between the sync and IDLE is
    /// never missed.
    func watchOnce() throws {
        report(try engine.syncAll())
        var lastPoll = Date()
        guard let inbox = engine.mapped.first(where: { $0.role == .inbox }) else { return }
        var resynced = false
        while !shouldStop() {
            if Date().timeIntervalSince(lastPoll) >= pollInterval {
                report(try engine.syncAll())
                lastPoll = Date()
            }
            let actions = try engine.writeBack()
            // The outbox: failed messages whose retry time has come; abandoned queued ones back to drafts.
            _ = try OutboxUseCase(store: engine.store).deliverDue(account: engine.account.name)
            var inboxReport = try engine.sync(role: .inbox)
            inboxReport.actions = actions
            report(inboxReport)
            let conn = try engine.connect()
            let sel: SelectedMailbox
            do { sel = try conn.select(inbox.mailbox, readOnly: true, condstore: conn.has("CONDSTORE")) } catch { throw SyncError.server(error) }
            let state = try engine.views.syncState(account: engine.account.name, folder: inbox.path)
            let count = try engine.views.syncedCount(account: engine.account.name, folder: inbox.path)
            let matches = state?.uidNext == sel.uidNext && state?.highestModSeq == sel.highestModSeq && count == Int(sel.exists)
            // Changed since the sync: sync again first (once; a message the server cannot deliver must not spin the loop).
            if !matches && !resynced {
                resynced = true
                continue
            }
            resynced = false
            let untilPoll = pollInterval - Date().timeIntervalSince(lastPoll)
            do {
                // At most a minute per IDLE, so actions taken meanwhile (in another process) are written back soon.
                try conn.idle(timeoutSeconds: max(1, min(idleRefresh, untilPoll, SyncWatcher.actionCheckInterval))) { response in
                    switch response {
                    case .exists, .expunge, .vanished, .fetch: false
                    default: true
                    }
                }
            } catch {
                throw SyncError.server(error)
            }
        }
    }

    private func report(_ r: SyncReport) {
        if r.changed { onReport?(r) }
    }

    /// The longest an IDLE lasts before pending actions are looked for again.
    static let actionCheckInterval = 60.0

    /// Whether retrying later may help: lost or refused connections and timeouts.
    static func isTransient(_ error: SyncError) -> Bool {
        guard case .server(let e) = error else { return false }
        return e.isRetryable
    }
}
