import ArgumentParser
import Foundation
import MailStore

/// `mailstore send DRAFT [--undo-delay 5s]` and `mailstore send --undo DRAFT`.
struct SendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send a draft after an undo delay (nothing reaches SMTP before it), or take it back with --undo.",
        discussion: """
        Queues the draft (MessageQueued with its due time), waits out the undo delay, then submits it over the \
        account's SMTP server and files it in Sent where the provider needs it. `mailstore send --undo DRAFT` \
        from another terminal before the due time puts it back as a draft. If this process ends during the \
        delay, the message is back among the drafts at the next start (the client spec's rule).
        """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The draft id.") var draft: String
    @Option(help: ArgumentHelp("Seconds to wait before sending (\"5s\", \"10\"; default 5).", valueName: "delay")) var undoDelay: String = "5s"
    @Flag(help: "Take a queued message back before its due time.") var undo = false

    func validate() throws {
        guard let d = SendCommand.seconds(undoDelay), d >= 0, d <= 3600 else {
            throw ValidationError("--undo-delay wants seconds between 0 and 3600, e.g. 5s")
        }
    }

    static func seconds(_ text: String) -> Double? {
        if text.hasSuffix("ms") { return Double(text.dropLast(2)).map { $0 / 1000 } }
        return Double(text.hasSuffix("s") ? String(text.dropLast()) : text)
    }

    func run() throws {
        try CLIExit.run {
            let store = try storeOptions.open()
            let outbox = OutboxUseCase(store: store)
            if undo {
                try outbox.undo(draft)
                return print("Undone: \(draft) is a draft again")
            }
            try OutboxCommand.reclaim(store: store)
            // This process owns the message until its outcome is recorded (its claim): no other process's reclaim takes it back.
            var messageID = ""
            let state = try outbox.send(draft, undoDelay: SendCommand.seconds(undoDelay) ?? 5) { queued in
                messageID = queued.messageID
                Terminal.note("queued \(draft) as <\(queued.messageID)>; sending at \(queued.dueAt.iso8601) unless `mailstore send --undo \(draft)`")
            }
            switch state {
            case .sent:
                print("Sent \(draft) <\(messageID)>")
                if try store.outboxItem(draftID: draft) != nil {
                    // Why, when the server has no Sent folder (the send listed the folders when none were known).
                    if let account = try store.draft(id: draft)?.account, let blocked = try outbox.sentFilingBlocked(account: account) {
                        Terminal.warning("not filed in the server's Sent folder: \(blocked)")
                    } else {
                        Terminal.note("not yet filed in the server's Sent folder; the next `mailstore sync` or `mailstore outbox send` files it")
                    }
                }
            case .draft:
                if try store.draft(id: draft) == nil {
                    print("Not sent: \(draft) was deleted")
                } else {
                    print("Not sent: \(draft) was taken back; it is a draft again")
                }
            case .failed:
                let reason = try store.outboxItem(draftID: draft)?.reason ?? "unknown"
                Terminal.print("Failed: \(reason)")
                throw ExitCode(CLIExit.serverError)
            case let other: Terminal.print("\(draft): \(other)")
            }
        }
    }
}

/// `mailstore outbox [send|retry ID|cancel ID]`.
struct OutboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "The outbox view (queued, sending, failed), and delivering what is due.",
        subcommands: [OutboxListCommand.self, OutboxSendCommand.self, OutboxRetryCommand.self, OutboxCancelCommand.self],
        defaultSubcommand: OutboxListCommand.self)
}

struct OutboxListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Show the outbox with each item's state and actions.")
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: ArgumentHelp("The account (default: the only one).", valueName: "name")) var account: String?

    func run() throws {
        try CLIExit.run {
            let store = try storeOptions.open(readOnly: true)
            if let account { try AccountCheck.require(account, in: store) }
            let account = try account ?? ProjectCommand.configuredAccount(store)
            let (emails, badge) = try FetchThreadsUseCase(store: store).fetchOutboxEmails(accountId: account)
            print("Outbox of \(TerminalSanitiser.line(account)): \(badge) queued or failed")
            if let pause = try store.outboxPause(account: account) {
                Terminal.print(Terminal.bounded("waiting for the server until \(pause.until.iso8601): it did not serve \(pause.draftID) (\(pause.reason)); "
                                                + "no message is tried before then, \(pause.draftID) first (`mailstore outbox retry DRAFT` sends one now)"))
            }
            for e in emails {
                print("\(e.id)  \(ThreadRow.fit(e.sendState, 8))  \(ThreadRow.fit(e.subject, 30))  actions: \(e.actions.joined(separator: ", "))"
                      + (e.failureReason.map { "  reason: \($0)" } ?? "") + OutboxListCommand.when(e))
            }
            let outbox = OutboxUseCase(store: store)
            let unfiled = try outbox.unfiledSent(account: account)
            let blocked = unfiled.isEmpty ? nil : try outbox.sentFilingBlocked(account: account)
            for u in unfiled {
                Terminal.print("\(u.draftID)  sent      not yet filed in Sent <\(u.messageID)>: "
                               + (blocked ?? "the next sync or `outbox send` files it"))
            }
        }
    }
}

extension OutboxListCommand {
    /// When an outbox row goes out next: a failed message's retry time (its queue time is past), the due time of
    /// a queued one; a failure that is not retried says how to send it again. A time recorded more than an hour ahead
    /// of the clock (``OutboxEmail/recordedTimeAhead``) is now, the time recorded said beside it.
    static func when(_ e: OutboxEmail) -> String {
        guard e.sendState == "failed" else { return e.dueAt.map { "  due " + shown($0, e) } ?? "" }
        return e.retryAt.map { "  next try " + shown($0, e) } ?? "  not retried: `mailstore outbox retry \(e.id)` sends it again"
    }

    /// A row's retry or due `time`, or "now" when it was recorded ahead of this clock.
    static func shown(_ time: String, _ e: OutboxEmail) -> String { RecordedTime.shown(time, ahead: e.recordedTimeAhead) }
}

extension OutboxCommand {
    /// Puts abandoned queued messages (of `account`, or every account: their sending process ended before the send
    /// started) back among the drafts and says so
    /// (write paths only: reads never append).
    static func reclaim(store: MailStore, account: String? = nil) throws {
        for id in try store.reclaimAbandonedSends(account: account) {
            Terminal.note("draft \(id) is back: the process sending it ended before the send started")
        }
    }
}

struct OutboxSendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "send",
        abstract: "Deliver what is due: failed messages whose retry time has come (abandoned queued ones go back to drafts).")
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: ArgumentHelp("The account (default: every configured account).", valueName: "name")) var account: String?

    func run() throws {
        try CLIExit.run {
            let store = try storeOptions.open()
            if let account { try AccountCheck.require(account, in: store) }
            let outbox = OutboxUseCase(store: store)
            var tally = OutboxSendTally()
            for account in try account.map({ [$0] }) ?? store.accounts().map(\.name) {
                try OutboxCommand.reclaim(store: store, account: account)
                // One message's or account's trouble does not stop the others (a server's refusal is recorded on its message);
                // each message is said as its attempt ends, a failure with its reason.
                let due = try outbox.deliverDue(account: account, skipped: { id, error in Terminal.warning("\(id) skipped: \(error)") },
                                                done: { id, state in tally.tell(id, state, store: store) },
                                                stopped: { id, left in
                    Terminal.warning("account \(account): \(id) was not sent (the server or the account's settings); \(Counted.of(left, "other due message")) "
                                     + "left for the next round (`mailstore outbox send` again, or `sync --watch`)")
                }, paused: { pause, waiting in tally.tell(waiting: waiting, for: pause, account: account) })
                // Messages found left `sending` by a process that ended (recorded as interrupted) or taken back to the drafts.
                for (id, state) in due where !tally.told.contains(id) { print("\(id)  \(state)") }
                let filing = try outbox.completeSentFilings(account: account)
                for id in filing.filed { print("\(id)  filed in Sent") }
                if let reason = filing.reason {
                    Terminal.warning("account \(account): \(Counted.of(filing.unfiled, "sent message")) not filed in Sent: \(reason)")
                }
            }
            try tally.finish()
        }
    }
}

struct OutboxRetryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "retry", abstract: "Send a failed message again now.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The draft id.") var draft: String

    func run() throws {
        try CLIExit.run {
            let store = try storeOptions.open()
            try OutboxCommand.reclaim(store: store)
            guard try store.outboxItem(draftID: draft)?.state.inOutbox == true else {
                throw CLIError.notFound("draft \(draft) is not in the outbox (queued or failed); `mailstore outbox --account A` lists it")
            }
            let state = try OutboxUseCase(store: store).deliver(draft)
            print("\(draft)  \(state)")
            // A retry that did not send says why and fails: scripts tell a sent message from one still waiting.
            switch state {
            case .sent: return
            case .failed:
                let reason = try store.outboxItem(draftID: draft)?.reason ?? "the server refused it"
                Terminal.error("not sent: \(reason)")
                throw ExitCode(CLIExit.serverError)
            case .queued:
                let due = try store.outboxItem(draftID: draft)?.dueAt.map { " at \($0.iso8601)" } ?? ""
                Terminal.error("not sent yet: it is due\(due) (the undo delay, or a retry after no network); `mailstore outbox send --account A` sends it then")
                throw ExitCode(CLIExit.actionRefused)
            case .draft, .sending:
                Terminal.error("not sent: it is \(state) now (another process took it back or is sending it)")
                throw ExitCode(CLIExit.actionRefused)
            }
        }
    }
}

struct OutboxCancelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cancel", abstract: "Take a queued or failed message out of the outbox.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The draft id.") var draft: String

    func run() throws {
        try CLIExit.run {
            let store = try storeOptions.open()
            try OutboxUseCase(store: store).cancel(draft)
            // A message whose draft was deleted while it was queued (a build that allowed that) has no draft to be again.
            if try store.draft(id: draft) == nil { return print("Cancelled: \(draft) is out of the outbox (its draft was deleted)") }
            print("Cancelled: \(draft) is a draft again")
        }
    }
}

/// `mailstore contacts complete PREFIX`.
struct ContactsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "contacts", abstract: "Recipient autocomplete from the mail seen.",
                                                    subcommands: [ContactsCompleteCommand.self])
}

struct ContactsCompleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "complete",
        abstract: "Contacts whose address or name starts with PREFIX: people who wrote first, then frequency, then recency.",
        discussion: """
            PREFIX is the beginning of an address or of a name's words, in any case and with or without diacritics \
            ("franc" completes "François"); several words complete contacts with a word starting each ("carl w", \
            "Carl Worth", "worth, carl"). See docs/cli.md.
            """)
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The typed prefix (1 to 256 characters).") var prefix: String
    @Option(help: ArgumentHelp("The account (default: the only one).", valueName: "name")) var account: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("At most this many (1 to 1000).", valueName: "n")) var limit: Int = 10
    @Flag(help: "JSON Lines.") var json = false

    /// The longest PREFIX: an address is at most 254 characters (RFC 5321's path of 256 with its brackets), and a
    /// longer prefix can match nothing, so it is a mistake said as one (it had printed nothing, exit 0).
    static let maxPrefixCharacters = 256

    func validate() throws {
        if !(1...MailStore.maxContactCompletions).contains(limit) { throw ValidationError("--limit must be between 1 and \(MailStore.maxContactCompletions)") }
        if prefix.isEmpty { throw ValidationError("PREFIX is empty: give the beginning of an address or of a name") }
        if prefix.count > Self.maxPrefixCharacters {
            throw ValidationError("PREFIX has \(prefix.count) characters; at most \(Self.maxPrefixCharacters) (an address is at most 254)")
        }
    }

    func run() throws {
        try CLIExit.run {
            let store = try storeOptions.open(readOnly: true)
            if let account { try AccountCheck.require(account, in: store) }
            let a = try account ?? ProjectCommand.defaultAccount(store, unifiedToo: false)
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys]
            for c in try store.completeContacts(account: a, prefix: prefix, limit: limit) {
                if json { print(JSONText.string(try e.encode(c))); continue }
                Terminal.print(EmailAddress(name: c.name, email: c.address).readable.displayed + "  (\(Counted.of(c.count, "message")), \(c.sent) from them)")
            }
        }
    }
}
