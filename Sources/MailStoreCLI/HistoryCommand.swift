import ArgumentParser
import EventModel
import Foundation
import MailStore

/// `mailstore history`: what happened to a thread, an email or an action.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "A timeline of every event that touched a thread, an email, an action or an account's settings, compensations linked.",
        discussion: """
        Each line: the time the log recorded the event, actor (sync, user, system), event and what changed, and when \
        the event says it occurred (a message's Date header) when that is more than a minute apart. An outcome or compensation \
        (ActionApplied, ActionRejected, FlagRejected, ActionReverted, ActionUndone) names the action it answers; \
        an undo's inverse action names the undo and the action it undoes. --action takes an action's id or that of \
        an outcome or compensation of it (the ActionUndone id `undo` prints) and shows the action with those it was \
        taken because of and those taken because of it. --account NAME shows the account's configuration: AccountAdded, \
        where its servers came from (AccountSettingsDiscovered: registry, ispdb, dns-srv, mx or cache; settings \
        given by hand) and AccountRemoved.
        """)

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: ArgumentHelp("A thread id.", valueName: "id")) var thread: String?
    @Option(help: ArgumentHelp("An email id.", valueName: "id")) var email: String?
    @Option(help: ArgumentHelp("An action id, or an outcome's or undo's (ActionUndone) id.", valueName: "id")) var action: String?
    @Option(help: ArgumentHelp("An account's name: its settings and where they came from.", valueName: "name")) var account: String?
    @Flag(help: "JSON Lines (the `mailstore log --json` form plus `compensates`).") var json = false

    func validate() throws {
        if [thread, email, action, account].compactMap({ $0 }).count != 1 {
            throw ValidationError("give exactly one of --thread ID, --email ID, --action ID or --account NAME")
        }
    }

    func run() throws {
        try CLIExit.run {
            // A history's events are found through the stream index and read one by one: opened for lookups.
            let store = try storeOptions.open(readOnly: true)
            let subject: HistorySubject = if let thread { .thread(thread) } else if let email { .email(email) }
                else if let account { .account(account) } else { .action(action!) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            var shown = 0
            // The undos shown so far, by the id of their `ActionUndone`: an inverse (caused by one) names the action
            // it undoes. At most one entry per event shown.
            var undone: [String: String] = [:]
            try store.forEachHistoryEvent(of: subject) { ev in
                shown += 1
                let decoded = try? ev.decode()
                let link = decoded.flatMap(HistoryCommand.answered)
                if case .actionUndone(let p) = decoded { undone[ev.envelope.id.description] = p.actionID.description }
                if json {
                    var line = JSONText.string(try encoder.encode(EventJSON(ev)))
                    if let link { line = String(line.dropLast()) + ",\"compensates\":\"\(link)\"}" }
                    print(line)
                } else {
                    let e = ev.envelope
                    // The time the log recorded it (as `log` prints; never going back along the log), not `occurredAt`,
                    // which for a receipt or a categorization is the message's Date header: the sender's to set.
                    let time = HistoryCommand.time(e.recordedAt)
                    // The summary as one line, as `log` prints it (a tab or line break from a subject a space): the
                    // block printed keeps only the timeline's own line breaks.
                    var text = "\(time)  \(LogCommand.pad(e.actor.description, 6))  \(LogCommand.pad(e.type.name, 20))  \(TerminalSanitiser.line(decoded?.summary ?? "(undecodable)"))"
                    if let dated = HistoryCommand.occurredApart(e) { text += "  (occurred \(dated))" }
                    if ActionKindName.isAction(e.type) { text += "  [action \(e.id)]" }
                    if let link { text += "\n" + String(repeating: " ", count: 30) + "↳ answers action \(link)" }
                    else if let c = e.causationID, ActionKindName.isAction(e.type) {
                        text += "\n" + String(repeating: " ", count: 30) + "↳ because of \(c)"
                        if let a = undone[c.description] { text += " (the undo of action \(a))" }
                    }
                    Terminal.printBlock(text)
                }
                return true
            }
            if shown == 0, let thread {
                // A thread's history covers the copy that founded it (its id) and those its actions took, wherever
                // they are now: nothing shown means no copy of that id and no action on it is in the log.
                throw CLIError.notFound("no thread \(thread): no copy of that id founded a thread and no action names it (check the id); "
                                        + "if a message since joined it with another thread, which took the other's id, "
                                        + "ask about one of its messages: `project --view threads --as-of SEQ --json` "
                                        + "lists a past thread's Message-IDs, `search id:MESSAGE-ID --json` their email ids, "
                                        + "`history --email ID` the history")
            }
            if shown == 0 { throw CLIError.notFound("nothing in the log touches \(email ?? account ?? action!)") }
        }
    }

    /// How far `occurredAt` may lie from `recordedAt` before the timeline names it (a minute, in microseconds): an
    /// action's click and its record are moments apart; a receipt's Date header may be years before.
    static let occurredApartMicroseconds: Int64 = 60_000_000

    /// A time as the timeline prints it: `YYYY-MM-DD HH:MM:SS`, UTC.
    static func time(_ t: Timestamp) -> String {
        String(t.iso8601.prefix(19)).replacingOccurrences(of: "T", with: " ")
    }

    /// The event's `occurredAt` as printed, when it lies more than `occurredApartMicroseconds` from when it was
    /// recorded (a message's Date header, an import of old mail), else nil.
    static func occurredApart(_ e: EventEnvelope) -> String? {
        let apart = e.occurredAt.microseconds.subtractingReportingOverflow(e.recordedAt.microseconds)
        guard apart.overflow || abs(apart.partialValue) > occurredApartMicroseconds else { return nil }
        return time(e.occurredAt)
    }

    /// The action an outcome or compensation answers.
    static func answered(_ e: DomainEvent) -> String? {
        switch e {
        case .actionApplied(let p): p.actionID.description
        case .actionFailed(let p): p.actionID.description
        case .actionRejected(let p): p.actionID.description
        case .flagRejected(let p): p.actionID.description
        case .actionReverted(let p): p.actionID.description
        case .actionUndone(let p): p.actionID.description
        default: nil
        }
    }
}

/// Which event types are thread actions.
enum ActionKindName {
    static let types: Set<EventType> = [.threadArchived, .threadDeleted, .threadMarkedRead, .threadMarkedUnread, .threadStarred,
                                        .threadUnstarred, .threadMoved]
    static func isAction(_ t: EventType) -> Bool { types.contains(t) }
}
