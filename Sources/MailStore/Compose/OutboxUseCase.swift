import EventLog
import EventModel
import Foundation
import IMAPProtocol
import MailParser
import MessageComposer
import Projections
import SecureTransport
import SMTPClient
import SyncCore
import Views

/// The send queue: `send` queues a draft with its due time (the undo delay), undo before then puts it back,
/// and delivery submits it over SMTP (never before the due time), records sent or failed (4xx and lost
/// connections retried with backoff, 5xx not), files it in Sent where the provider needs it and removes the
/// draft. A message whose queuing process ended before its send started goes back to the drafts (the spec's rule;
/// `reclaimAbandoned`, told by the message's `SendClaim`).
public struct OutboxUseCase {
    public let store: MailStore
    var views: ViewStore { get throws { try store.views() } }
    /// How long after its due time a queued message with no claim (`SendClaim`: queued by a build before claims, or by
    /// `queue` alone) is taken as abandoned by a process that ended (15 s; `MAILSTORE_OUTBOX_GRACE` seconds overrides
    /// it, for tests). A message with a claim is taken back when, and only when, its claim's holder has ended.
    public static var orphanGrace: Double {
        ProcessInfo.processInfo.environment["MAILSTORE_OUTBOX_GRACE"].flatMap(Double.init) ?? 15
    }

    /// For tests: run between an undo's or a send's read of the draft's stream and its append (after the send's
    /// connection is made), where another process's undo or send lands when they race.
    package var beforeCommitting: (() throws -> Void)?

    /// The outbox of `store`.
    public init(store: MailStore) {
        self.store = store
    }

    /// Queues a draft: `MessageQueued` with the Message-ID it will carry and its due time.
    /// Queued only if the draft's stream is as it was read (optimistic concurrency): of two `send`s at once, one
    /// queues it and the other finds it in the outbox (`DraftError.inOutbox`); an edit saved meanwhile is read again.
    public func queue(_ draftID: String, undoDelay: Double) throws -> MessageQueued {
        let queued = try store.retryingOnConflict(on: .draft(draftID), attempts: DraftsUseCase.maxSaveAttempts) { expected, views in
            guard let d = try views.draft(id: draftID) else { throw DraftError.notFound(draftID) }
            let problems = DraftsUseCase(store: store).problems(d.latest)
            guard problems.isEmpty else { throw DraftError.notSendable(problems) }
            if let state = try views.outboxItem(draftID: draftID)?.state, state.inOutbox { throw DraftError.inOutbox(draftID, "\(state)") }
            let due = Timestamp(Date().addingTimeInterval(max(0, undoDelay)))
            let composed = try compose(d, due: due)
            let queued = MessageQueued(draftID: draftID, draftVersion: d.latest.draftVersion, messageID: composed.messageID, dueAt: due)
            try store.commit([NewEvent(event: .messageQueued(queued), account: d.account, stream: .draft(draftID), actor: .user,
                                       expectedVersion: expected)])
            return queued
        }
        guard let queued else { throw DraftError.busy(draftID) }
        return queued
    }

    /// Takes a queued message back before its due time (`SendUndone`); the draft is as it was. The undo is appended
    /// only if the draft's stream is still as it was read (`expectedVersion`), and a send starts only on the stream as
    /// it read it too (`SendStarted` with its `expectedVersion`), so of an undo and a send at the due time exactly one
    /// wins: nothing is sent, or the undo is refused as too late. Once the undo window of the queuing is over (past
    /// its due time, being sent, failed or sent, its draft deleted by the send) the answer is always
    /// `DraftError.tooLateToUndo`; an id never queued is `notQueued`, an unknown one `notFound`. Whether the window is
    /// over is asked of the sending process's monotonic clock while it is alive (`SendClaim.holderDue`: the delay it
    /// measures), so a wall clock stepped forward or back in the delay neither ends nor stretches it; else of the
    /// recorded due time (`RetryBackoff.hasCome`).
    public func undo(_ draftID: String) throws {
        let undone = try store.retryingOnConflict(on: .draft(draftID), attempts: DraftsUseCase.maxSaveAttempts) { expected, views in
            guard let item = try views.outboxItem(draftID: draftID), item.state == .queued, let due = item.dueAt,
                  !(SendClaim.holderDue(store: store.directory, draftID: draftID).map(\.hasPassed) ?? RetryBackoff.hasCome(due)) else {
                throw try notUndoable(draftID, views)
            }
            try beforeCommitting?()
            try store.commit([NewEvent(event: .sendUndone(SendUndone(draftID: draftID)), account: item.account, stream: .draft(draftID),
                                       actor: .user, expectedVersion: expected)])
            return true
        }
        guard undone != nil else { throw DraftError.busy(draftID) }
    }

    /// Why `draftID` cannot be undone now: too late when its queuing's undo window is over (queued past its due time,
    /// sending, failed, sent, or sent and its draft deleted), else not queued, or no such draft.
    func notUndoable(_ draftID: String, _ views: ViewStore) throws -> DraftError {
        let item = try views.outboxItem(draftID: draftID)
        if let state = item?.state, state.inOutbox || state == .sent { return .tooLateToUndo(draftID) }
        if try sentSinceQueued(draftID) { return .tooLateToUndo(draftID) }
        if try views.draft(id: draftID) == nil, item == nil { return .notFound(draftID) }
        return .notQueued(draftID)
    }

    /// Whether the draft's last queuing by the user ended in `MessageSent` (not taken back before it).
    func sentSinceQueued(_ draftID: String) throws -> Bool {
        var sent = false
        try store.log.scan(filter: ScanFilter(stream: .draft(draftID))) { ev in
            switch ev.envelope.type {
            case .messageSent: sent = true
            case .messageQueued where ev.envelope.actor == .user: sent = false
            case .sendUndone, .sendCancelled: sent = false
            default: break
            }
            return true
        }
        return sent
    }

    /// Takes a queued or failed message out of the outbox (`SendCancelled`); it is a draft again. So is one left
    /// `sending` by a process that ended during the attempt (its interruption recorded first); one that another
    /// process is sending now cannot be (`AccountLockError.held` once `sendLockWaitSeconds` have passed).
    public func cancel(_ draftID: String) throws {
        try requireKnown(draftID)
        guard let account = try views.outboxItem(draftID: draftID)?.account else { throw DraftError.notQueued(draftID) }
        try withSendLock(account, wait: OutboxUseCase.sendLockWaitSeconds) {
            _ = try store.latestViews()
            guard var item = try views.outboxItem(draftID: draftID), item.state.inOutbox else { throw DraftError.notQueued(draftID) }
            if item.state == .sending { item = try reclaimInterrupted(item) }
            try append(.sendCancelled(SendCancelled(draftID: draftID)), item.account, draftID, actor: .user)
        }
    }

    /// Throws `DraftError.notFound` (exit 4) for an id that is neither a draft nor in the outbox: a mistyped id is not
    /// "not in the outbox" (exit 7, a draft that was not queued).
    func requireKnown(_ draftID: String) throws {
        if try views.draft(id: draftID) == nil, try views.outboxItem(draftID: draftID) == nil { throw DraftError.notFound(draftID) }
    }

    /// How long a send or a cancel waits for another process sending the same account's mail (the send lock).
    public static let sendLockWaitSeconds: Double = 30

    /// Runs `body` holding `account`'s send lock (`STORE/locks/send-ACCOUNT.lock`, an `AccountLock`): one process
    /// at a time submits an account's messages, so none is sent twice at once, and whoever holds the lock knows
    /// that a message still `sending` was left so by a process that ended during its attempt (the kernel drops a
    /// killed holder's lock).
    func withSendLock<T>(_ account: String, wait: Double, _ body: () throws -> T) throws -> T {
        let lock = try AccountLock(store: store.directory, kind: "send", account: account, waitSeconds: wait)
        defer { lock.release() }
        return try body()
    }

    /// A message left `sending` (`SendStarted` with no outcome) by a process that ended during the attempt: the
    /// caller holds the send lock, so no process is sending it. Recorded as a failure that may have reached the
    /// server (the process may have ended after the server took the message), retried as an unconfirmed delivery
    /// is. Returns the item as it is now.
    @discardableResult
    func reclaimInterrupted(_ item: OutboxItem) throws -> OutboxItem {
        let attempt = UInt32(max(1, item.attempts))
        let retry = RetryBackoff.next(after: attempt)
        let reason = "the process sending it ended during attempt \(attempt), before the server's answer was recorded: "
            + "the server may have accepted it, so sending it again may deliver it twice" + OutboxUseCase.sentAgainNote(item.draftID, at: retry)
        try append(.sendFailed(SendFailed(draftID: item.draftID, reason: reason, permanent: false, retryAt: retry)),
                   item.account, item.draftID, actor: .system)
        _ = try store.latestViews()
        return try views.outboxItem(draftID: item.draftID) ?? item
    }

    /// Waits until the message is due (so an undo can still stop it), then delivers it. The wait is on the monotonic
    /// clock: until `deadline` (the undo delay this process measures from its queuing), else for what is left until the
    /// recorded due time as the wall clock says now (at most an hour, `RetryBackoff.hasCome`). A wall clock stepped in
    /// the wait neither stretches it (stepped back an hour, the send had waited the hour holding its claim) nor ends it
    /// early (stepped forward, the message had gone out at once).
    public func deliverWhenDue(_ draftID: String) throws -> OutboxItem.State {
        try deliverWhenDue(draftID, deadline: nil)
    }

    /// ``deliverWhenDue(_:)``, waiting until `deadline` when given (the undo delay `send` measures from its queuing).
    package func deliverWhenDue(_ draftID: String, deadline: Deadline?) throws -> OutboxItem.State {
        guard let item = try views.outboxItem(draftID: draftID), item.state == .queued, let due = item.dueAt else { return try deliver(draftID) }
        let until = deadline ?? Deadline(secondsFromNow: RetryBackoff.secondsUntil(due))
        while !until.hasPassed, try views.outboxItem(draftID: draftID)?.state == .queued {
            usleep(UInt32(min(200_000, max(1_000, until.remainingSeconds * 1e6))))
            _ = try store.latestViews()
        }
        return try deliver(draftID, delayOver: true)
    }

    /// Submits a queued (due) or failed message now: `SendStarted`, then `MessageSent` or `SendFailed`. Holds the
    /// account's send lock meanwhile (waiting up to `lockWait`, `sendLockWaitSeconds` unless given, for another
    /// process's send); a message that a process ending mid-attempt left `sending` is recorded as interrupted first,
    /// then sent. When the lock stays held that long, a due message is recorded as failed for now (`SendFailed`, retried
    /// 30 s later by `outbox send` or a watch), so it is not left queued past its due time to be taken for abandoned.
    /// `delayOver`: the caller waited out the message's undo delay on the monotonic clock (`deliverWhenDue`), so a queued
    /// message is due whatever its recorded due time says of the wall clock now.
    @discardableResult
    public func deliver(_ draftID: String, lockWait: Double = OutboxUseCase.sendLockWaitSeconds, delayOver: Bool = false) throws -> OutboxItem.State {
        let expected = try store.expectedVersion(of: .draft(draftID))
        _ = try store.latestViews()
        guard let item = try views.outboxItem(draftID: draftID) else { return try sentSinceQueued(draftID) ? .sent : .draft }
        // A queued message this process sends is its own meanwhile (an `outbox retry` of one whose `send` ended), so no
        // reclaim takes it back while it waits for the lock or the server; one whose claim a live `send` holds is that
        // process's (this may be it) and is not taken back either.
        let claim = item.state == .queued ? try SendClaim.tryTake(store: store.directory, draftID: draftID) : nil
        defer { claim?.release() }
        let lock: AccountLock
        do {
            lock = try AccountLock(store: store.directory, kind: "send", account: item.account, waitSeconds: lockWait)
        } catch let held as AccountLockError {
            let due = item.state == .failed || (item.state == .queued && (delayOver || (item.dueAt.map { RetryBackoff.hasCome($0) } ?? true)))
            guard due else { throw held }
            let reason = "another process kept this account's send lock for \(Int(lockWait.rounded())) s (it is sending other mail): "
                + "nothing was sent; `mailstore outbox send` or `sync --watch` sends it from the retry time"
            let failed = SendFailed(draftID: draftID, reason: reason, permanent: false, retryAt: Timestamp(Date().addingTimeInterval(30)))
            do {
                try store.commit([NewEvent(event: .sendFailed(failed), account: item.account, stream: .draft(draftID), actor: .system,
                                           expectedVersion: expected)])
            } catch let e as EventLogError where e.isVersionConflict {
                // The lock's holder took it up meanwhile (sent it and deleted its draft, or it was taken back): as it is now.
                _ = try store.latestViews()
                return try views.outboxItem(draftID: draftID)?.state ?? (try sentSinceQueued(draftID) ? .sent : .draft)
            }
            return .failed
        }
        defer { lock.release() }
        return try deliverLocked(draftID, delayOver: delayOver)
    }

    /// `deliver`, the send lock held. Each try reads the draft's stream and appends only if it is still as read
    /// (`expectedVersion`): an undo, a cancel or a delete that got in first is seen, and nothing is sent.
    /// `round`, when given, hears whether the server failed to serve the message (see `DeliveryRound`).
    /// `delayOver` as `deliver` has it.
    func deliverLocked(_ draftID: String, round: DeliveryRound? = nil, delayOver: Bool = false) throws -> OutboxItem.State {
        for _ in 0..<DraftsUseCase.maxSaveAttempts {
            if let state = try attemptLocked(draftID, round: round, delayOver: delayOver) { return state }
        }
        throw DraftError.busy(draftID)
    }

    /// One try of `deliverLocked`: nil when another process appended to the draft's stream between this read and
    /// this append (read it again).
    private func attemptLocked(_ draftID: String, round: DeliveryRound?, delayOver: Bool) throws -> OutboxItem.State? {
        let expected = try store.expectedVersion(of: .draft(draftID))
        _ = try store.latestViews()
        guard let item = try views.outboxItem(draftID: draftID), item.state.inOutbox else {
            // Sent by another process meanwhile (its draft deleted after filing): said as sent, not as taken back.
            return try views.outboxItem(draftID: draftID)?.state ?? (sentSinceQueued(draftID) ? .sent : .draft)
        }
        func commit(_ events: [DomainEvent], account: String, actor: Actor) throws -> Bool {
            let new = events.enumerated().map { i, e in
                NewEvent(event: e, account: account, stream: .draft(draftID), actor: actor, expectedVersion: i == 0 ? expected : .any)
            }
            do {
                try store.commit(new)
                return true
            } catch let e as EventLogError where e.isVersionConflict {
                return false
            }
        }
        if item.state == .sending {
            _ = try reclaimInterrupted(item)
            return nil
        }
        guard item.state == .queued || item.state == .failed else { return item.state }
        if item.state == .queued, !delayOver, let due = item.dueAt, !RetryBackoff.hasCome(due) { return .queued }
        guard let d = try views.draft(id: draftID) else {
            // Its draft was deleted while it was in the outbox (a build that allowed that): nothing can be sent, so it is
            // taken out of the outbox, and the caller told.
            guard try commit([.sendCancelled(SendCancelled(draftID: draftID))], account: item.account, actor: .system) else { return nil }
            throw DraftError.deletedInOutbox(draftID)
        }
        guard let account = try views.account(named: d.account)?.settings else { throw DraftError.noAccount(d.account) }
        guard let queued = try queuings(draftID).first else { throw DraftError.notQueued(draftID) }
        // What goes out is the version the queuing announced, with its Message-ID (edits wait until it is taken back).
        guard d.latest.draftVersion == queued.draftVersion else { throw DraftError.changedSinceQueued(draftID) }
        let composed = try compose(d, due: queued.dueAt, messageID: queued.messageID)
        let attempt = UInt32(item.attempts + 1)
        let connection: SMTPConnection
        do {
            // The whole attempt (connecting to the final reply) has one deadline, however the server trickles its bytes.
            connection = try connect(account, deadline: Deadline(secondsFromNow: OutboxUseCase.attemptSeconds(messageBytes: composed.bytes.count)))
        } catch let e as SMTPClientError where OutboxUseCase.isOffline(e) {
            // No network: it stays queued (due again after a backoff) and is sent when the network is back.
            let retry = Timestamp(Date().addingTimeInterval(30))
            let again = MessageQueued(draftID: draftID, draftVersion: queued.draftVersion, messageID: queued.messageID, dueAt: retry)
            guard try commit([.messageQueued(again)], account: d.account, actor: .system) else { return nil }
            round?.serverFailed = true
            throw DraftError.offline(e.description)
        } catch {
            // Refused before the message was offered (the greeting, TLS, AUTH, the credential): a failed attempt with the
            // reason, retried with backoff when it is temporary (4xx, a lost connection), else left for the user to fix.
            guard let failure = OutboxUseCase.connectFailure(error, draftID: draftID, attempt: attempt) else { throw error }
            guard try commit([.sendStarted(SendStarted(draftID: draftID, attempt: attempt)), .sendFailed(failure)],
                             account: d.account, actor: .sync) else { return nil }
            if OutboxUseCase.isServerFailure(error) { round?.serverFailed = true }
            // The account's configuration (its SMTP settings, a credential or sign-in to renew) is recorded the same, and
            // also thrown as it is: the caller says what to fix (the CLI's exit 6). A round tells it as the failure it
            // recorded, and ends: the account's other messages would meet the same.
            if ErrorCategory(of: error) == .configuration {
                if let round {
                    round.serverFailed = true
                    return .failed
                }
                throw error
            }
            return .failed
        }
        defer { connection.quit() }
        try beforeCommitting?()
        // Started only on the stream as read: an undo (or a cancel) appended since wins, and nothing is sent.
        guard try commit([.sendStarted(SendStarted(draftID: draftID, attempt: attempt))], account: d.account, actor: .system) else {
            return nil
        }
        // A server that takes fewer recipients a transaction than the message has gets it in several; those it
        // accepted already in this queuing (a failure after them) do not get it again.
        let everyone = composed.envelopeRecipients
        var delivered = try partlySent(draftID, messageID: composed.messageID)
        let remaining = everyone.filter { !delivered.contains($0) }
        do {
            let response: String
            if remaining.isEmpty {
                response = "every recipient had it already"
            } else {
                let reply = try connection.send(from: composed.envelopeSender, recipients: remaining, message: composed.bytes) { delivery in
                    delivered.formUnion(delivery.recipients)
                    // The last transaction is recorded by MessageSent.
                    guard !remaining.allSatisfy(delivered.contains) else { return }
                    try append(.messagePartlySent(MessagePartlySent(draftID: draftID, messageID: composed.messageID, recipients: delivery.recipients,
                                                                    serverResponse: OutboxUseCase.line(delivery.reply))),
                               d.account, draftID, actor: .sync)
                }
                response = OutboxUseCase.line(reply)
            }
            try append(.messageSent(MessageSent(draftID: draftID, messageID: composed.messageID, serverResponse: response)),
                       d.account, draftID, actor: .sync)
        } catch let e as SMTPClientError {
            if OutboxUseCase.isServerFailure(e) { round?.serverFailed = true }
            let retry = e.isRetryable ? RetryBackoff.next(after: attempt) : nil
            let sentTo = everyone.filter(delivered.contains).count
            var reason = e.description + (sentTo == 0 ? "" : " (the server accepted it for \(sentTo) of the \(everyone.count) recipients "
                                                              + "already; a retry sends it to the others only)")
            if case .deliveryUnconfirmed = e, let retry { reason += OutboxUseCase.sentAgainNote(draftID, at: retry) }
            try append(.sendFailed(SendFailed(draftID: draftID, reason: RecordedText.bounded(reason), permanent: !e.isRetryable,
                                              retryAt: retry, serverFailure: OutboxUseCase.isServerFailure(e))),
                       d.account, draftID, actor: .sync)
            return .failed
        }
        // Sent: filed in Sent (with retries); when that cannot be done now, the draft stays (MessageSent without
        // DraftDeleted is the pending filing) and the next sync or `outbox send` completes it.
        if fileInSent(composed, account: account, retries: 3) == nil {
            try append(.draftDeleted(DraftDeleted(draftID: draftID)), d.account, draftID, actor: .system)
        }
        return .sent
    }

    /// Delivers what is due: failed messages whose retry time has come; and first returns abandoned queued
    /// messages to the drafts, and records as interrupted those a process that ended mid-attempt left `sending`
    /// (retried when their retry time comes). Returns (draft id, state) for each message it touched; nothing
    /// when another process is sending this account's mail now (it holds the send lock: the next round does it).
    /// One message's trouble stops neither the others nor the caller (a watch, `outbox send` of every account): a
    /// server's refusal is recorded on the message (`SendFailed`), and a message that cannot be sent for another reason
    /// (its draft gone, no SMTP settings) is told to `skipped` with the error and left.
    ///
    /// A round stops at the first message the server did not serve (not reachable, the connection stalled, lost or past the
    /// attempt's deadline, `DeliveryRound`): the messages after it stay as they are, for the next round, so a broken
    /// server costs a round one attempt (at most `attemptSeconds`), not one per message. `done` hears each message as
    /// its attempt ends; `stopped` hears such a stop, with how many due messages were left.
    ///
    /// And the account pauses (`OutboxPause`, read from the outbox view): while its most recent attempt's outcome is
    /// that the server did not serve the message and that message's retry time has not come, a round tries none of the
    /// account's messages (each later round had tried the next one, one attempt's wait a round, until every message
    /// had a backoff of its own); `paused` hears the pause and the due messages left waiting. Once the retry time has
    /// come, that message is tried first, so the account's backoff grows with its (30 s doubling to an hour) while the
    /// server still does not serve it. A message sent or a failure the server answered ends the pause; `deliver` (a
    /// `send`, an `outbox retry`) does not wait for it.
    public func deliverDue(account: String, skipped: ((String, any Error) -> Void)? = nil, done: ((String, OutboxItem.State) -> Void)? = nil,
                           stopped: ((_ after: String, _ left: Int) -> Void)? = nil,
                           paused: ((_ pause: OutboxPause, _ waiting: [String]) -> Void)? = nil) throws -> [(String, OutboxItem.State)] {
        do {
            return try withSendLock(account, wait: 0) {
                try deliverDueLocked(account: account, round: DeliveryRound(skipped: skipped, done: done, stopped: stopped, paused: paused))
            }
        } catch AccountLockError.held {
            return []
        }
    }

    private func deliverDueLocked(account: String, round: DeliveryRound) throws -> [(String, OutboxItem.State)] {
        _ = try store.latestViews()
        var out = try reclaimAbandoned(account: account).map { ($0, OutboxItem.State.draft) }
        var items = try views.outbox(account: account)
        if let pause = try views.outboxPause(account: account) {
            // A pause recorded past the longest backoff ahead (a clock stepped back since) has come, as any retry time.
            if !RetryBackoff.hasCome(pause.until) { return try waitForServer(pause, items: items, round: round, out: out) }
            // Its retry time has come: the message the server did not serve goes first.
            if let i = items.firstIndex(where: { $0.draftID == pause.draftID }) { items.insert(items.remove(at: i), at: 0) }
        }
        for (index, item) in items.enumerated() {
            do {
                switch item.state {
                case .sending:
                    out.append((item.draftID, try reclaimInterrupted(item).state))
                case .failed, .queued:
                    guard try isDue(item) else { continue }
                    let state = try deliverReporting(item.draftID, round: round)
                    out.append((item.draftID, state))
                    round.done?(item.draftID, state)
                default:
                    break
                }
            } catch where OutboxUseCase.isMessageProblem(error) {
                round.skipped?(item.draftID, error)
            }
            if round.serverFailed {
                let left = try items[(index + 1)...].filter { try isDue($0) }.count
                if left > 0 { round.stopped?(item.draftID, left) }
                break
            }
        }
        return out
    }

    /// A round of an account paused for its server: nothing is tried; messages left `sending` by a process that ended
    /// are recorded as interrupted (no attempt), and the due ones are told to `round.paused` as waiting.
    private func waitForServer(_ pause: OutboxPause, items: [OutboxItem], round: DeliveryRound,
                               out: [(String, OutboxItem.State)]) throws -> [(String, OutboxItem.State)] {
        var out = out
        var waiting: [String] = []
        for item in items {
            do {
                switch item.state {
                case .sending: out.append((item.draftID, try reclaimInterrupted(item).state))
                case .failed, .queued: if try isDue(item) { waiting.append(item.draftID) }
                default: break
                }
            } catch where OutboxUseCase.isMessageProblem(error) {
                round.skipped?(item.draftID, error)
            }
        }
        if !waiting.isEmpty { round.paused?(pause, waiting) }
        return out
    }

    /// Whether a round sends `item` now: a failed one whose retry time has come; a queued one past its due time that was
    /// queued again while there was no network, or queued by the user to go at once with no process claiming it (a reply
    /// from a notification).
    private func isDue(_ item: OutboxItem) throws -> Bool {
        switch item.state {
        case .failed:
            guard let f = try lastFailure(item.draftID) else { return false }
            return !f.permanent && (f.retryAt.map { RetryBackoff.hasCome($0) } ?? true)
        case .queued:
            guard let due = item.dueAt, RetryBackoff.hasCome(due) else { return false }
            let requeued = try queuingEvents(item.draftID).last?.1 == .system
            return try requeued || (queuedToSendAtOnce(item.draftID) && unclaimed(item.draftID))
        default: return false
        }
    }

    /// Whether `error` is about one message or its account's sending (a draft gone, no SMTP settings, a server's or the
    /// network's failure), not the store: the other messages are still delivered.
    static func isMessageProblem(_ error: any Error) -> Bool {
        switch ErrorCategory(of: error) {
        case .server, .configuration, .refused, .notFound: true
        default: false
        }
    }

    /// Queued messages whose sending process ended before a send started: they go back to the drafts (`SendUndone`,
    /// actor system). Returns their ids. Whether that process is alive is asked of the message's claim (`SendClaim`),
    /// not of the clock: one whose claim another process holds (a `send` in its undo delay, waiting for the send lock or
    /// for the server, an `outbox retry` sending it) is left alone however late; one whose claim was left by a process
    /// that ended (killed, even by SIGKILL) is taken back at once, before its due time too. A message queued without a
    /// claim (by a build before claims, or by the library's `queue` alone) is taken back `orphanGrace` past its due
    /// time, as before. Also removes claim files their ended holders left on messages no longer queued (`SendClaim.sweep`).
    @discardableResult
    public func reclaimAbandoned(account: String) throws -> [String] {
        var out: [String] = []
        for listed in try views.outbox(account: account) where listed.state == .queued {
            let expected = try store.expectedVersion(of: .draft(listed.draftID))
            _ = try store.latestViews()
            guard let item = try views.outboxItem(draftID: listed.draftID), item.state == .queued, let due = item.dueAt else { continue }
            let claim: SendClaim?
            switch try SendClaim.probe(store: store.directory, draftID: item.draftID) {
            case .held: continue
            case .abandoned(let left): claim = left
            case .none:
                guard RetryBackoff.hasCome(Timestamp(microseconds: due.microseconds + Int64(OutboxUseCase.orphanGrace * 1e6))) else { continue }
                // Queued to go at once with no process bound to send it (a reply from a notification): `deliverDue` sends it.
                if try queuedToSendAtOnce(item.draftID) { continue }
                claim = nil
            }
            // Its holder ended: the claim is gone with it, held here until the message is taken back (its file removed).
            defer { claim?.release() }
            // Queued again by the system (no network): `outbox send` and the watch send it, nobody takes it back.
            guard try queuingEvents(item.draftID).last?.1 == .user else { continue }
            // Only on the stream as read: a send that started meanwhile (an `outbox retry`, a process without a claim) wins.
            do {
                try store.commit([NewEvent(event: .sendUndone(SendUndone(draftID: item.draftID)), account: account, stream: .draft(item.draftID),
                                           actor: .system, expectedVersion: expected)])
            } catch let e as EventLogError where e.isVersionConflict {
                continue
            }
            out.append(item.draftID)
        }
        try SendClaim.sweep(store: store.directory) { draftID in
            _ = try store.latestViews()
            return try views.outboxItem(draftID: draftID)?.state == .queued
        }
        return out
    }

    /// `deliverLocked`, with no network reported as staying queued rather than thrown.
    func deliverReporting(_ draftID: String, round: DeliveryRound? = nil) throws -> OutboxItem.State {
        do { return try deliverLocked(draftID, round: round) } catch DraftError.offline { return .queued }
    }

    // MARK: - Parts

    func append(_ e: DomainEvent, _ account: String, _ draftID: String, actor: Actor) throws {
        try store.commit([NewEvent(event: e, account: account, stream: .draft(draftID), actor: actor)])
    }

    /// The message as it goes out (`forSubmission`: no 8-bit text, domains beyond ASCII as A-labels); the same bytes
    /// and Message-ID every time for one queuing, whatever the server offers. A `draftCopy` (for
    /// the server's Drafts folder) has a Message-ID of its own and keeps only the usable addresses (none at all
    /// gives `undisclosed-recipients`), so an unfinished draft can be stored too. Its `filedCopy` (what goes into
    /// the server's Sent or Drafts folder) has the Bcc field; its `bytes` (what is submitted) never.
    /// `messageID`, the one a queuing recorded, keeps its domain: what goes out (each retry, the Sent filing) has the
    /// queuing's Message-ID, which its partial sends and the filing refer to, whatever domain this build would choose.
    func compose(_ d: DraftRecord, due: Timestamp, draftCopy: Bool = false, messageID: String? = nil) throws -> ComposedMessage {
        guard let account = try views.account(named: d.account)?.settings else { throw DraftError.noAccount(d.account) }
        let p = d.latest
        func addresses(_ list: [EmailAddress]) -> [MailAddress] { list.map { MailAddress(name: $0.name, email: $0.email) } }
        var attachments: [ComposerAttachment] = []
        for a in p.attachments {
            guard let data = try store.log.blob(a.blob) else { throw DraftError.attachmentMissing(a.filename) }
            attachments.append(ComposerAttachment(filename: a.filename, mimeType: a.mimeType, data: data, charset: a.charset))
        }
        var draft = OutboxUseCase.forSubmission(MessageDraft(from: MailAddress(name: account.displayName, email: account.email),
                                                             to: addresses(p.to), cc: addresses(p.cc), bcc: addresses(p.bcc),
                                                             subject: p.subject, text: p.body, attachments: attachments,
                                                             inReplyTo: p.inReplyTo, references: p.references, date: due.date))
        if let messageID, let at = messageID.lastIndex(of: "@") {
            draft.messageIDDomain = String(messageID[messageID.index(after: at)...]).trimmingCharacters(in: CharacterSet(charactersIn: "<>"))
        }
        let senderOnly = draftCopy && OutboxUseCase.keepUsableAddresses(&draft)
        var generator = SeededGenerator(text: "\(p.draftID)/\(p.draftVersion)" + (draftCopy ? "/drafts-folder" : ""))
        var composed = try MessageComposer.compose(draft, using: &generator)
        if senderOnly { composed.bccField = [] }
        return composed
    }

    /// Opens and authenticates an SMTP connection with the account's SMTP settings and credential; no wait of the
    /// connection goes past `deadline` (the attempt's), when given.
    func connect(_ a: AccountAdded, deadline: Deadline? = nil) throws -> SMTPConnection {
        guard let host = a.smtpHost, let port = a.smtpPort.flatMap({ UInt16(exactly: $0) }),
              let security = ConnectionSecurity(rawValue: a.smtpSecurity ?? "starttls"), security != .plain else {
            throw DraftError.noSMTP(a.name)
        }
        guard let source = store.credentialSource(of: a, smtp: true) else {
            throw AccountError.invalid("the account's SMTP credential source is not understood")
        }
        let secret = try source.secret()
        var endpoint = ServerEndpoint(host: host, port: port, security: security, caFile: a.caFile)
        endpoint.sessionDeadline = deadline
        let conn = try SMTPConnection.connect(endpoint)
        let user = a.smtpUsername ?? a.username
        do {
            if source.isOAuth {
                try authenticateOAuth(conn, user: user, source: source, token: secret, caFile: a.caFile)
            } else {
                let mechanism = AuthMechanism(rawValue: a.auth.lowercased()) ?? .plain
                try conn.authenticate(username: user, credential: mechanism.isOAuth ? .oauth2Token(secret) : .password(secret),
                                      mechanism: mechanism)
            }
        } catch {
            conn.quit()
            throw error
        }
        return conn
    }

    /// Logs in with an OAuth access token: OAUTHBEARER when offered, else XOAUTH2; a refusal refreshes the
    /// token and tries once more.
    private func authenticateOAuth(_ conn: SMTPConnection, user: String, source: CredentialSource, token: String,
                                   caFile: String?) throws {
        let mechanism = AuthMechanism.oauth(offered: conn.extensions.authMechanisms) ?? .xoauth2
        var refused = false
        do throws(SMTPClientError) {
            try conn.authenticate(username: user, credential: .oauth2Token(token), mechanism: mechanism)
        } catch {
            guard case .authenticationFailed = error else { throw error }
            refused = true
        }
        guard refused else { return }
        let fresh = try source.oauthAccessToken(forceRefresh: true, refused: token, caFile: caFile,
                                                timeoutSeconds: CredentialSource.defaultRefreshSeconds)
        try conn.authenticate(username: user, credential: .oauth2Token(fresh), mechanism: mechanism)
    }

    /// The `SendFailed` for an error met before the message was offered: a server or network error (temporary when
    /// retrying may help: a 4xx, a lost connection; permanent for a 5xx, a certificate or TLS policy failure, a refused
    /// login), or the account's SMTP configuration (permanent: the user fixes it, then `outbox retry`). Nil for
    /// anything else (the store's own errors), which is thrown.
    static func connectFailure(_ error: any Error, draftID: String, attempt: UInt32) -> SendFailed? {
        let temporary: Bool
        switch ErrorCategory(of: error) {
        case .server: temporary = (error as? SMTPClientError)?.isRetryable ?? true
        case .configuration: temporary = false
        default: return nil
        }
        let reason = "\(error)" + (temporary ? "" : "; not retried: fix that, then `mailstore outbox retry \(draftID)`")
        return SendFailed(draftID: draftID, reason: RecordedText.bounded(reason), permanent: !temporary,
                          retryAt: temporary ? RetryBackoff.next(after: attempt) : nil,
                          serverFailure: temporary && OutboxUseCase.isServerFailure(error))
    }

    /// Whether the server could not be reached at all (no network, nothing listening, no TCP connection in time). A
    /// server that took the connection and then stalls is not "no network": that is a failed attempt, retried with
    /// backoff (it had been taken as offline and tried again every 30 s, each try without an attempt recorded).
    static func isOffline(_ e: SMTPClientError) -> Bool {
        switch e {
        case .transport(.connectFailed): true
        default: false
        }
    }

    /// The current queuing of a draft: the user's `MessageQueued` and any re-queues by the system (no network)
    /// after it, with the actor of each; empty when the draft is not queued.
    func queuings(_ draftID: String) throws -> [MessageQueued] {
        try queuingEvents(draftID).map(\.0)
    }

    func queuingEvents(_ draftID: String) throws -> [(MessageQueued, Actor)] {
        var current: [(MessageQueued, Actor)] = []
        try store.log.scan(filter: ScanFilter(stream: .draft(draftID))) { ev in
            switch try ev.decode() {
            case .messageQueued(let p):
                if ev.envelope.actor == .user { current = [] }
                current.append((p, ev.envelope.actor))
            case .sendUndone, .sendCancelled, .messageSent, .draftDeleted: current = []
            default: break
            }
            return true
        }
        return current
    }

    /// The recipients the server accepted the current queuing of a draft for in transactions of their own
    /// (`MessagePartlySent` of `messageID` since the user queued it), when the message needed several.
    func partlySent(_ draftID: String, messageID: String) throws -> Set<String> {
        var delivered: Set<String> = []
        try store.log.scan(filter: ScanFilter(stream: .draft(draftID))) { ev in
            switch try ev.decode() {
            case .messageQueued where ev.envelope.actor == .user: delivered = []
            case .sendUndone, .sendCancelled, .messageSent, .draftDeleted: delivered = []
            // As composed now (a build before 2026-12-07 kept a domain beyond ASCII as it was written).
            case .messagePartlySent(let p) where p.messageID == messageID: delivered.formUnion(p.recipients.map { OutboxUseCase.asciiDomain($0) })
            default: break
            }
            return true
        }
        return delivered
    }

    /// A server's reply as the outbox records it: code and text on one line, at most `RecordedText.maxBytes`.
    static func line(_ reply: SMTPReply) -> String {
        RecordedText.bounded("\(reply.code) \(reply.lines.joined(separator: " "))")
    }

    func lastFailure(_ draftID: String) throws -> SendFailed? {
        var last: SendFailed?
        try store.log.scan(filter: ScanFilter(types: [.sendFailed], stream: .draft(draftID))) { ev in
            if case .sendFailed(let p) = try ev.decode() { last = p }
            return true
        }
        return last
    }
}
