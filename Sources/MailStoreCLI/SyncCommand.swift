import ArgumentParser
import Foundation
import MailStore

/// `mailstore sync`: IMAP accounts into the log.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync IMAP accounts into the log (new mail, flag changes, expunges).",
        discussion: """
        The first sync of a folder fetches every message with BODY.PEEK[] (never setting \\Seen), newest \
        first, committing a batch at a time with the folder's sync state, so an interrupted sync resumes where \
        it stopped. Later syncs fetch only changes (CONDSTORE/QRESYNC where the server has them). A sync with \
        no change on the server appends nothing. \
        Several accounts are synced at once (up to 4), each with connections from the process's pool (the provider's \
        maxConnections per account, 30 in all); one that fails is reported and the others still synced. \
        --watch keeps going: IDLE on the Inbox (re-issued at the provider's refresh interval), actions taken meanwhile \
        written back within seconds, other folders polled, reconnecting with backoff, until interrupted.
        A folder the server refuses (a NO to its EXAMINE: no read right, deleted meanwhile) is skipped with a warning and \
        the others synced; the sync then exits 5, and a watch tries it again (with a backoff while it stays refused).
        Exit codes: 3 another process syncing the account past the 30 s wait (or a database error), 4 no such account \
        or folder, 5 server or network error (also: a folder refused, the others synced), 6 account configuration error.
        """)

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: ArgumentHelp("Sync only this account (default: every account).", valueName: "name")) var account: String?
    @Option(help: ArgumentHelp("Sync only this folder (repeatable), and the folders synced before to which the user's moves took its mail.", valueName: "path")) var folder: [String] = []
    @Flag(help: "Print the summary as JSON.") var json = false
    @Flag(help: "No progress bar and no summary.") var quiet = false
    @Flag(help: "Keep syncing: IDLE on the Inbox, poll the other folders, until interrupted.") var watch = false
    @Option(parsing: .unconditional, help: ArgumentHelp("With --watch: re-issue IDLE after this many seconds (default: the provider's).", valueName: "seconds"))
    var idleRefresh: Double?
    @Option(parsing: .unconditional, help: ArgumentHelp("With --watch: poll every folder this often.", valueName: "seconds")) var pollInterval: Double = 300
    @Option(parsing: .unconditional, help: ArgumentHelp("Network timeout.", valueName: "seconds")) var timeout: Double = 60
    @Option(parsing: .unconditional, help: ArgumentHelp("The most messages fetched and committed per batch.", valueName: "n")) var batchMessages: Int = 500
    @Flag(help: "Print the IMAP conversation to stderr (credentials redacted).") var trace = false
    @Flag(help: "Fetch again the messages given up as unfetchable (after a repair of the server's index).") var retryUnfetchable = false
    @OptionGroup var notify: SyncNotifyOptions

    func validate() throws {
        if !watch && (idleRefresh != nil) { throw ValidationError("--idle-refresh goes with --watch") }
        // Every wait is bounded: a NaN or an infinity is refused, not taken as "no wait" or "wait forever".
        if let idleRefresh, !(idleRefresh >= 1 && idleRefresh <= 3_600) {
            throw ValidationError("--idle-refresh is 1 to 3600 seconds (IMAP servers may end an IDLE after 30 minutes)")
        }
        if !(pollInterval >= 1 && pollInterval <= 86_400) { throw ValidationError("--poll-interval is 1 to 86400 seconds") }
        if !(timeout >= 0.1 && timeout <= 3_600) { throw ValidationError("--timeout is 0.1 to 3600 seconds") }
        if batchMessages <= 0 { throw ValidationError("--batch-messages must be positive") }
        if watch && json { throw ValidationError("--json summarises one sync; it does not go with --watch") }
        if watch && retryUnfetchable {
            throw ValidationError("--retry-unfetchable goes with a sync without --watch (a watch would try them at every round)")
        }
        try notify.validate(watch: watch)
    }

    func run() throws {
        try CLIExit.run {
            let store = try storeOptions.open()
            var accounts = try store.accounts()
            if let account {
                accounts = accounts.filter { $0.name == account }
                if accounts.isEmpty { throw SyncError.noAccount(account) }
            }
            if accounts.isEmpty { throw SyncError.noAccounts }
            var options = SyncOptions(folders: folder.isEmpty ? nil : folder, batchMessages: batchMessages, timeoutSeconds: timeout)
            options.retryUnfetchable = retryUnfetchable
            if trace { options.trace = { line in StandardStream.err(Data((TerminalSanitiser.line(line) + "\n").utf8)) } }
            if watch {
                // Spec E-21: mutes of threads that are gone go, once per watch start.
                try NotificationCoordinator(store: store).removeMutesOfGoneThreads()
                var notifiers: [String: WatchNotifier] = [:]
                for a in accounts { notifiers[a.name] = try notify.notifier(store: store, account: a.name) }
                let failures = SyncCommand.watchAll(store: store, accounts: accounts, options: options,
                                                    idleRefresh: idleRefresh, pollInterval: pollInterval, quiet: quiet,
                                                    notifiers: notifiers)
                try SyncCommand.exitForFailures(failures, of: accounts.count)
                return
            }
            var reports: [SyncReport] = []
            // Every account is synced, several at once; one that fails is reported and the others still run (FR-MPROV-14).
            var failures: [(String, any Error)] = []
            defer { SyncEngine.closeIdleConnections() }
            if accounts.count == 1, let a = accounts.first {
                let bar = ProgressBar("\(a.name)", total: nil, quiet: quiet || json)
                let report: SyncReport
                do {
                    try OutboxCommand.reclaim(store: store, account: a.name)
                    let engine = try SyncEngine(store: store, account: a, options: options)
                    engine.progress = { folder, done, total in
                        bar.relabel(TerminalSanitiser.line("\(a.name) \(folder)"))
                        bar.update(UInt64(done), total: UInt64(total))
                    }
                    report = try engine.run()
                } catch {
                    bar.finish()
                    throw error
                }
                bar.finish()
                reports.append(report)
                if !json && !quiet { SyncCommand.printSummary(report) }
                SyncCommand.printFolderFailures(report)
            } else {
                let outcomes = SyncCommand.syncConcurrently(store: store, accounts: accounts, options: options, summaries: !json && !quiet)
                for (a, outcome) in zip(accounts, outcomes) {
                    switch outcome {
                    case .synced(let r): reports.append(r)
                    case .failed(let e): failures.append((a.name, e))
                    }
                }
            }
            if json {
                let e = JSONEncoder()
                e.outputFormatting = [.sortedKeys]
                for r in reports { print(JSONText.string(try e.encode(r))) }
            }
            try SyncCommand.exitForFailures(failures, of: accounts.count, partial: reports)
        }
    }

    /// Watches every account at once, one thread each; returns the accounts whose watch ended with an error
    /// (the others keep going until interrupted).
    static func watchAll(store: MailStore, accounts: [AccountAdded], options: SyncOptions, idleRefresh: Double?,
                         pollInterval: Double, quiet: Bool, notifiers: [String: WatchNotifier] = [:]) -> [(String, any Error)] {
        let failures = FailureList()
        let group = DispatchGroup()
        for account in accounts {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                do {
                    try SyncCommand.watch(store: store, account: account, options: options, idleRefresh: idleRefresh,
                                          pollInterval: pollInterval, quiet: quiet, notifier: notifiers[account.name])
                } catch {
                    Terminal.error("\(account.name): \(SyncCommand.clause(error)); the other accounts are still watched")
                    failures.append(account.name, error)
                }
            }
            thread.name = "watch \(account.name)"
            thread.start()
        }
        group.wait()
        return failures.items
    }

    private static func watch(store: MailStore, account: AccountAdded, options: SyncOptions, idleRefresh: Double?,
                              pollInterval: Double, quiet: Bool, notifier: WatchNotifier?) throws {
        let engine = try SyncEngine(store: store, account: account, options: options)
        let watcher = SyncWatcher(engine: engine, idleRefresh: idleRefresh, pollInterval: pollInterval)
        watcher.onReport = { r in
            if !quiet { SyncCommand.printSummary(r) }
            notifier?.didSync()
        }
        watcher.onSessionSynced = { notifier?.sessionSynced() }
        // Withdrawals (and deliveries) owed by another process's events: a mute, a read on the command line.
        if let notifier { watcher.onLogGrew = { notifier.deliver() } }
        watcher.onOutboxSkipped = { id, error in Terminal.warning("\(account.name): outbox: \(id) skipped: \(error)") }
        watcher.onRetry = { error, seconds, connection in
            Terminal.warning(SyncCommand.retryWarning(account: account.name, error: error, connection: connection, seconds: seconds))
        }
        // Once a watch: a server that never tells its IDLE of new mail would say it at every poll that finds some.
        watcher.onIdleRenewed = { renewals in
            guard renewals == 1 else { return }
            Terminal.warning("\(account.name): a poll found new Inbox mail the IDLE was not told of (the IDLE connection); "
                             + "the IDLE is issued again, and after every poll that finds such mail (said once)")
        }
        // Said whatever --quiet says, as the warning it answers: a supervisor reading stderr sees the watch work again.
        watcher.onReconnected = { seconds in Terminal.note("\(account.name): connected again after \(SyncCommand.duration(seconds))") }
        watcher.onFolderRefused = { failure, refusals, since, retryIn in
            let next = retryIn <= 0 ? "tried again at the next round" : "tried again in \(Int((retryIn / 60).rounded(.up))) min"
            if refusals == 1 {
                Terminal.warning("\(account.name): folder \"\(failure.folder)\" not synced: \(SyncCommand.clause(failure.error)); "
                                 + "the other folders are synced; \(next), less often while it stays refused (said again at most once an hour)")
            } else {
                let time = ISO8601DateFormatter.string(from: since, timeZone: TimeZone(secondsFromGMT: LocalTime.utcOffsetSeconds(at: since)) ?? .current,
                                                      formatOptions: [.withInternetDateTime])
                Terminal.warning("\(account.name): folder \"\(failure.folder)\" still not synced (refused \(refusals) times in a row since "
                                 + "\(time)): \(SyncCommand.clause(failure.error)); \(next)")
            }
        }
        watcher.onFolderSynced = { folder in
            if !quiet { Terminal.note("\(account.name): folder \"\(folder)\" synced again") }
        }
        if !quiet { Terminal.note("watching \(account.name) (IDLE on the Inbox; interrupt to stop)") }
        defer { notifier?.finishDeliveries(seconds: WatchNotifier.commandTimeout + 2) }
        try watcher.run()
        if watcher.accountRemoved { Terminal.note("\(account.name): the account was removed; no longer watched (its mail stays in the store)") }
    }

    /// Throws the exit code of the first failure when any account failed (one failing alone: its own error); else, when
    /// a report of `partial` names folders the server refused, ``SyncError/foldersNotSynced(account:folders:)`` (exit 5,
    /// the other accounts' ones said first).
    static func exitForFailures(_ failures: [(String, any Error)], of total: Int, partial: [SyncReport] = []) throws {
        let refused = partial.filter { !$0.failedFolders.isEmpty }
            .map { SyncError.foldersNotSynced(account: $0.account, folders: $0.failedFolders.map(\.folder)) }
        guard let first = failures.first else {
            guard let last = refused.last else { return }
            for e in refused.dropLast() { Terminal.error(e.description) }
            throw last
        }
        for e in refused { Terminal.error(e.description) }
        if total == 1 { throw first.1 }
        let names = failures.map(\.0).joined(separator: ", ")
        Terminal.error(failures.count == total ? "every account failed (\(names)): see each one's error above"
                       : "\(failures.count) of \(total) accounts failed: \(names); the others were synced")
        throw ExitCode(CLIExit.code(for: ErrorCategory(of: first.1)))
    }

    /// A warning for each folder the server refused in `r` (skipped, the others synced), with the server's text.
    static func printFolderFailures(_ r: SyncReport) {
        for f in r.failedFolders {
            Terminal.warning("\(r.account): folder \"\(f.folder)\" not synced: \(clause(f.error)); the other folders were synced")
        }
    }

    /// A watch's warning that a session failed and is re-opened by itself: "ACCOUNT: WHAT FAILED (WHICH CONNECTION);
    /// reconnecting in N s", without the errors' advice to reconnect (the watch does; it had read "...; reconnect to
    /// retry; reconnecting in 1 s").
    static func retryWarning(account: String, error: any Error, connection: SyncWatcher.Connection?, seconds: Double) -> String {
        var text = clause(error)
            .replacingOccurrences(of: ", reconnect to retry or raise --timeout", with: "; a longer --timeout may help")
            .replacingOccurrences(of: "; reconnect to retry", with: "")
            .replacingOccurrences(of: ", reconnect to retry", with: "")
        if let connection { text += " (\(connection))" }
        return "\(account): \(text); reconnecting in \(Int(seconds)) s"
    }

    /// `seconds` as "N s", "N min N s" or "N h N min".
    static func duration(_ seconds: Double) -> String {
        let s = max(0, Int(seconds.rounded()))
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min \(s % 60) s" }
        return "\(s / 3600) h \(s % 3600 / 60) min"
    }

    /// `error`'s text as a clause to go on with ("...; reconnecting"): without its closing full stops (Dovecot ends its
    /// answers with one: "(0.001 + 0.000 secs).", which had read "secs).; the other accounts ...").
    static func clause(_ error: Any) -> String {
        var text = "\(error)"
        while let last = text.last, last == "." || last.isWhitespace { text.removeLast() }
        return text
    }

    /// One account's summary: totals (the expunged copies of removed folders included), the write-back, then a line
    /// per folder that changed, a folder gone from the server as "FOLDER: removed from the server, N expunged".
    static func printSummary(_ r: SyncReport) {
        let changed = r.folders.filter { !$0.unchanged }
        let removed = r.folders.filter(\.removed).count
        print("\(r.account): \(r.received) new, \(Counted.of(r.folders.reduce(0) { $0 + $1.flagsChanged }, "flag change")), "
              + "\(r.folders.reduce(0) { $0 + $1.expunged }) expunged in \(Counted.of(r.folders.count - removed, "folder"))"
              + (removed > 0 ? ", \(Counted.of(removed, "folder")) removed " : " ")
              + String(format: "(%.2fs, %d events)", r.seconds, r.events))
        WriteBackSummary.print(r.actions)
        if r.sentUnfiled > 0 {
            Terminal.warning("\(r.account): \(Counted.of(r.sentUnfiled, "sent message")) not filed in the server's Sent folder: "
                             + (r.sentUnfiledReason ?? "the server did not take it; the next sync tries again"))
        }
        for f in changed {
            if f.removed {
                Terminal.print("  \(f.folder): removed from the server, \(f.expunged) expunged")
                continue
            }
            var parts: [String] = []
            if f.received > 0 { parts.append("\(f.received) new") }
            if f.flagsChanged > 0 { parts.append("\(f.flagsChanged) flag changes") }
            if f.expunged > 0 { parts.append("\(f.expunged) expunged") }
            if f.keptInAllMail > 0 { parts.append("\(f.keptInAllMail) now in All Mail only") }
            if f.uidValidityChanged { parts.append("UIDVALIDITY changed, \(f.rematched) matched again") }
            if !parts.isEmpty { Terminal.print("  \(f.folder): \(parts.joined(separator: ", "))") }
        }
        // A role the listing moved (a subfolder whose role an older build guessed from its name is an ordinary folder now).
        for c in r.roleChanges { Terminal.print("  \(c.folder): role \(c.from) -> \(c.to)") }
        if let root = r.namespaceRootNotSynced { Terminal.note("\(r.account): \(root.reason(name: TerminalSanitiser.line(root.folder)))") }
        for name in r.foldersAlike {
            Terminal.warning("\(r.account): the server folder \"\(name)\" is not synced: its name is another folder's but for its "
                             + "Unicode form (one written with combining accents, the other with accented letters), which mailstore "
                             + "cannot tell apart; rename one of them on the server")
        }
        for f in r.folders where !f.skippedTooLarge.isEmpty {
            Terminal.warning("\(f.folder): \(Counted.of(f.skippedTooLarge.count, "message")) over 64 MiB not fetched (UID "
                             + f.skippedTooLarge.prefix(10).map(String.init).joined(separator: ", ")
                             + (f.skippedTooLarge.count > 10 ? ", ..." : "") + "): mailstore stores a message of at most 64 MiB; "
                             + "the rest of the account is synced")
        }
        for f in r.folders where !f.skippedUnfetchable.isEmpty {
            Terminal.warning("\(f.folder): \(Counted.of(f.skippedUnfetchable.count, "message")) the server failed to deliver whole, "
                             + "each alone twice (UID " + f.skippedUnfetchable.prefix(10).map(String.init).joined(separator: ", ")
                             + (f.skippedUnfetchable.count > 10 ? ", ..." : "") + "), not fetched (it sent less than the size "
                             + "it stated, or stalled): the rest of the folder is synced; see the message in webmail, or have "
                             + "the server's index repaired (Dovecot: `doveadm force-resync`), then run `mailstore sync "
                             + "--retry-unfetchable` (a sync tries each again by itself 24 hours after it was given up, "
                             + "then 48 and 96 hours after it fails again, then weekly; and when the folder's UIDVALIDITY changes)")
        }
        for f in r.folders where !f.retriedUnfetchable.isEmpty {
            let again = f.retriedUnfetchable.count { f.skippedUnfetchable.contains($0) }
            let fetched = f.retriedUnfetchable.count { !f.skippedUnfetchable.contains($0) && !f.skippedTooLarge.contains($0) }
            Terminal.note("\(f.folder): \(Counted.of(f.retriedUnfetchable.count, "message")) given up before tried again: "
                          + "\(fetched) fetched, \(again) given up again")
        }
        for f in r.folders where f.uidValidityFlapping {
            Terminal.warning("\(f.folder): the server changes UIDVALIDITY at every session (a server bug): its messages are "
                             + "matched again by Message-ID and size at each sync, and only what changed is recorded; "
                             + "tell the server's administrator (said once per process)")
        }
    }
}
