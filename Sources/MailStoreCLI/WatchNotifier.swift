import Foundation
import MailStore

/// The notifications side of `sync --watch`: after every sync, decide the new emails (recorded), then run
/// the notify command for each posted one not yet delivered and the withdraw command for each withdrawal
/// owed, recording each that succeeded; the same delivery runs when the log grew while the watch waits (another
/// process's mute or read). Undelivered decisions stay pending across restarts.
// `@unchecked Sendable`: each notifier belongs to one account's watch thread, and only that thread uses it.
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

    /// Held while a notifier delivers (``deliver()``).
    private static let delivering = NSLock()

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
        // Deliver what a previous run decided but did not deliver (a crash or kill between the two).
        deliver()
    }

    /// Called after each sync that changed something (and ``deliver()`` alone, within a few seconds, when another
    /// process appended events: a mute owes a withdrawal at once, not at the next sync).
    func didSync() {
        do {
            let sync = NotificationSync(time: .now, background: background, isFirstSync: firstSync, isSessionStart: sessionStart,
                                        activeFolder: activeFolder, utcOffsetSeconds: TimeZone.current.secondsFromGMT())
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

    /// Runs the owed notify and withdraw commands and records them. One notifier at a time in the process: each
    /// account's watch delivers every withdrawal owed, and two at once (woken by the same event) would run one twice.
    func deliver() {
        WatchNotifier.delivering.lock()
        defer { WatchNotifier.delivering.unlock() }
        do {
            try coordinator.deliverPending(post: { r in
                guard let notifyCommand, r.account == self.account else { return false }
                return WatchNotifier.run(notifyCommand, input: NotificationJSON(r, event: "posted").line)
            }, withdraw: { thread, w in
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
