import Foundation
import MailStore

/// The notifications side of `sync --watch`: after every sync, decide the new emails (recorded), then run
/// the notify command for each posted one not yet delivered and the withdraw command for each withdrawal
/// owed, recording each that succeeded; the same delivery runs when the log grew while the watch waits (another
/// process's mute or read). Undelivered decisions stay pending across restarts.
///
/// The commands run on a thread of their own (`DeliveryWorker`), never on the watch's: a notify command that hangs
/// (10 s each until killed, for each of many pending) had held up the next sync, new mail recorded 27-33 s late.
// `@unchecked Sendable`: the deciding state belongs to one account's watch thread, and only that thread uses it; the
// delivery pass reads only constants and the store (which is shared by every watch thread) and runs on the worker alone.
final class WatchNotifier: @unchecked Sendable {
    let coordinator: NotificationCoordinator
    let account: String
    let notifyCommand: String?
    let withdrawCommand: String?
    let activeFolder: FolderRole?
    /// Decide as a background sync (recency window 1 hour instead of 5 minutes).
    let background: Bool
    /// The log position up to which new emails were decided.
    var decidedThrough: UInt64
    /// True until the account's first sync has been decided (everything in it suppressed, `first-sync`).
    var firstSync: Bool
    /// True until this watch's first sync has been decided: what it finds (mail that came while no watch ran,
    /// and mail synced but not decided before) is suppressed, `session-start` (the spec's first launch, E-13),
    /// unless `--notify-on-start`.
    var sessionStart: Bool

    /// Which notifier of the process runs the withdrawals owed (``deliver()``).
    private static let withdrawals = WithdrawalClaim()

    /// The claim on running the process's owed withdrawals: each account's notifier delivers every withdrawal owed, so
    /// one at a time runs them (two woken by the same event would run each twice); one that finds another at it leaves
    /// them to it and flags it to look again, rather than waiting behind its commands (a hung withdraw command, killed
    /// after `commandTimeout`, had held every account's watch).
    private final class WithdrawalClaim: @unchecked Sendable {
        private let lock = NSLock()
        private var busy = false
        private var again = false

        /// True when this caller now runs the withdrawals; false (another is at it, told to look again) otherwise.
        func begin() -> Bool {
            lock.withLock {
                if busy {
                    again = true
                    return false
                }
                busy = true
                again = false
                return true
            }
        }

        /// True when another notifier asked meanwhile and `mayLookAgain`: the caller runs them once more, still holding
        /// the claim; else the claim is let go.
        func end(mayLookAgain: Bool) -> Bool {
            lock.withLock {
                if again && mayLookAgain {
                    again = false
                    return true
                }
                busy = false
                again = false
                return false
            }
        }
    }

    /// Rounds of withdrawals a notifier runs for others' asks before it lets the claim go (what is still owed then
    /// goes with the next delivery).
    static let maxWithdrawalRounds = 3

    /// The longest a notify or withdraw command may run.
    static let commandTimeout = 10.0

    init(store: MailStore, account: String, notifyCommand: String?, withdrawCommand: String?, activeFolder: FolderRole?,
         background: Bool = false, notifyOnStart: Bool = false) throws {
        self.background = background
        sessionStart = !notifyOnStart
        coordinator = NotificationCoordinator(store: store)
        self.account = account
        self.notifyCommand = notifyCommand
        self.withdrawCommand = withdrawCommand
        self.activeFolder = activeFolder
        decidedThrough = try coordinator.resumeSequence(account: account, fallback: try store.head().sequence)
        firstSync = try coordinator.isFirstSync(account: account)
        // A command that exits without reading its stdin must not kill the watch with SIGPIPE.
        if notifyCommand != nil || withdrawCommand != nil { signal(SIGPIPE, SIG_IGN) }
        worker = DeliveryWorker(name: "notify \(account)") { [self] in deliverPass() }
        // Deliver what a previous run decided but did not deliver (a crash or kill between the two).
        deliver()
    }

    /// The thread the commands run on (set once in `init`).
    private var worker: DeliveryWorker?

    /// Called after each sync that changed something (and ``deliver()`` alone, within a few seconds, when another
    /// process appended events: a mute owes a withdrawal at once, not at the next sync).
    func didSync() {
        do {
            let sync = NotificationSync(time: .now, background: background, isFirstSync: firstSync, isSessionStart: sessionStart,
                                        activeFolder: activeFolder, utcOffsetSeconds: LocalTime.utcOffsetSeconds())
            try coordinator.didSync(account: account, after: decidedThrough, sync: sync)
            decidedThrough = try coordinator.store.head().sequence
            firstSync = false
            sessionStart = false
        } catch {
            Terminal.warning("notifications: \(error)")
        }
        deliver()
    }

    /// Called when a connected session's first full sync went through, whether it changed anything or not: the
    /// watch's first ends its session start here (deciding, suppressed, what is left undecided), so mail that
    /// comes after a first sync that found nothing new is decided as usual rather than suppressed.
    func sessionSynced() {
        if sessionStart || firstSync { didSync() }
    }

    /// Asks for the owed notify and withdraw commands to be run (on the `DeliveryWorker`'s thread; never waits for them).
    func deliver() { worker?.ask() }

    /// When the account's watch ends: lets the asked deliveries run for at most `seconds` (what is left stays pending),
    /// then the delivery thread ends (once a command still running returns, within `commandTimeout`), so a watch that
    /// ended in a process that goes on (other accounts still watched) leaves no thread behind.
    func finishDeliveries(seconds: Double) { worker?.finish(seconds: seconds) }

    /// Runs the owed notify and withdraw commands and records them. The withdrawals (every account's) are run by one
    /// notifier of the process at a time (`WithdrawalClaim`); this account's posts by this one.
    private func deliverPass() {
        let withdrawing = WatchNotifier.withdrawals.begin()
        var round = 1
        while true {
            deliverOnce(withdrawing: withdrawing)
            guard withdrawing, WatchNotifier.withdrawals.end(mayLookAgain: round < WatchNotifier.maxWithdrawalRounds) else { return }
            round += 1
        }
    }

    /// One round of ``deliverPass()``: the withdrawals too when `withdrawing` (else they are left owed, to the notifier at them).
    private func deliverOnce(withdrawing: Bool) {
        do {
            try coordinator.deliverPending(post: { r in
                guard let notifyCommand, r.account == self.account else { return false }
                return WatchNotifier.run(notifyCommand, input: NotificationJSON(r, event: "posted").line)
            }, withdraw: { thread, w in
                guard withdrawing else { return false }
                guard let withdrawCommand else { return true }
                struct Withdrawal: Encodable { var event = "withdrawn"; var threadId: String; var emailIds: [String]; var identifiers: [String]; var reason: String }
                let e = JSONEncoder()
                e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                let v = Withdrawal(threadId: thread, emailIds: w.emailIDs, identifiers: w.emailIDs.map { "email-\($0)" }, reason: w.reason)
                return WatchNotifier.run(withdrawCommand, input: (try? JSONText.string(e.encode(v))) ?? "{}")
            })
        } catch {
            Terminal.warning("notifications: \(error)")
        }
    }

    /// Runs `command` with `/bin/sh -c`, `input` and a newline on stdin, its output on stderr; true when it
    /// exits 0 within `commandTimeout` seconds (`NotifyCommand`: past that its whole process group is killed).
    static func run(_ command: String, input: String) -> Bool {
        switch NotifyCommand(command: command, timeoutSeconds: commandTimeout).run(input: Array((input + "\n").utf8)) {
        case .exited(0):
            return true
        case .exited(let code):
            Terminal.warning("notify command exited \(code); will retry")
        case .killedBySignal(let signal):
            Terminal.warning("notify command was killed by signal \(signal); will retry")
        case .timedOut:
            Terminal.warning("notify command did not finish within \(Int(commandTimeout)) s and was killed with its process group; will retry")
        case .couldNotStart(let why):
            Terminal.warning("notify command could not start: \(why)")
        }
        return false
    }
}
