import ArgumentParser
import Foundation
import MailStore

/// Options every thread action command shares.
struct ActionOptions: ParsableArguments {
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The threads (ids from `mailstore project --view threads --json`), of one or several accounts.") var threads: [String] = []
    @Option(name: .customLong("ids-from"), help: ArgumentHelp(
        "Also act on the thread ids in FILE, one per line (- for standard input; at most 100,000): the way to give thousands.",
        valueName: "file")) var idsFrom: String?
    @Flag(help: "Write the action back to the server now (else the next `mailstore sync` does).") var push = false
    @Flag(help: "Print the outcome as JSON: the action per account and a failure per thread not acted on.") var json = false

    /// A command line with no thread at all is malformed (shown with the usage); the `--ids-from` list is read once
    /// the command runs (`ids()`), so a file that cannot be read or an id it refuses is one line saying why.
    func validate() throws {
        if threads.isEmpty && idsFrom == nil { throw ValidationError("give at least one thread id (as arguments or with --ids-from)") }
    }

    /// The arguments' ids and then `--ids-from`'s: a list that breaks a bound, cannot be read or holds no id (and no
    /// id given as an argument) is refused whole, before the store is opened.
    func ids() throws -> [String] {
        guard let idsFrom else { return threads }
        let all = threads + (try ThreadIDList.read(idsFrom))
        if all.isEmpty {
            throw ValidationError("--ids-from: '\(idsFrom)' holds no thread id (only blank lines or comments): give at least one thread id, one per line")
        }
        return all
    }

    /// Opens the store, runs the batch through the library's use case (one action per account), prints each
    /// action's id (or the JSON outcome, with its `failures`) and names every thread that failed on stderr
    /// (`thread ID: reason`, with `--json` too), and pushes if asked. When nothing could be done the first failure
    /// is the error (without `--json`: printed as the error alone); when only some threads failed, the exit status
    /// is the first failure's.
    func run(_ kind: ActionKind, destination: String? = nil) throws {
        try CLIExit.run {
            let ids = try ids()
            let store = try storeOptions.open()
            let result = ManageThreadActionsUseCase(store: store).batch(kind, ids: ids, destination: destination)
            if json {
                let e = JSONEncoder()
                e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                print(JSONText.string(try e.encode(result)))
            } else {
                for a in result.actions { print(a.action) }
            }
            // With --json, stdout is the JSON alone: the push's outcome is then in `mailstore actions`.
            // Every action is pushed, whatever the one before met (a server out of reach is told once per action).
            var pushFailure: (any Error)?
            if push {
                for a in result.actions {
                    do { try ActionOptions.push(actionID: a.action, store: store, quiet: json) } catch { pushFailure = pushFailure ?? error }
                }
            }
            for f in result.failures where pushFailure != nil { Terminal.error("thread \(f.thread): \(f.reason)") }
            if let pushFailure { throw pushFailure }
            guard let first = result.failures.first else { return }
            if result.actions.isEmpty && !json { throw first.error }
            for f in result.failures { Terminal.error("thread \(f.thread): \(f.reason)") }
            throw ExitCode(CLIExit.code(for: ErrorCategory(of: first.error)))
        }
    }

    /// Writes the account's pending actions back now and prints the outcome.
    /// A push that cannot reach the server says the action stays recorded and queued (it is in the views already): it
    /// had said only "cannot connect", as if the action were lost.
    static func push(actionID: String, store: MailStore, quiet: Bool = false) throws {
        let report: WriteBackReport?
        do {
            report = try store.pushActions(for: actionID)
        } catch let error as SyncError where ErrorCategory(of: error) == .server {
            Terminal.error("\(error)")
            Terminal.error("action \(actionID) is recorded and shown; it stays queued for the server: the next `mailstore sync` "
                           + "(or `mailstore sync --watch`) writes it back")
            throw ExitCode(CLIExit.code(for: .server))
        }
        guard let report else {
            return quiet ? () : Terminal.note("no server account for this action: it is complete locally")
        }
        if !quiet { WriteBackSummary.print(report) }
    }
}

struct ArchiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "archive",
        abstract: "Archive threads: their Inbox copies move to the Archive folder (Gmail: the Inbox label goes).")
    @OptionGroup var options: ActionOptions
    func run() throws { try options.run(.archive) }
}

struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete threads: their copies move to the Trash.")
    @OptionGroup var options: ActionOptions
    func run() throws { try options.run(.delete) }
}

struct ReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "read", abstract: "Mark threads read (\\Seen).")
    @OptionGroup var options: ActionOptions
    func run() throws { try options.run(.read) }
}

struct UnreadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unread", abstract: "Mark threads unread.")
    @OptionGroup var options: ActionOptions
    func run() throws { try options.run(.unread) }
}

struct StarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "star", abstract: "Star threads (\\Flagged).")
    @OptionGroup var options: ActionOptions
    func run() throws { try options.run(.star) }
}

struct UnstarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unstar", abstract: "Unstar threads.")
    @OptionGroup var options: ActionOptions
    func run() throws { try options.run(.unstar) }
}

struct MoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "move", abstract: "Move threads to a folder (Sent and Drafts copies stay).")
    @OptionGroup var options: ActionOptions
    @Option(help: ArgumentHelp("The destination folder.", valueName: "folder")) var to: String
    func run() throws { try options.run(.move, destination: to) }
}

struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "undo",
        abstract: "Undo an action: reverted in the views at once; if the server has it already, the inverse is queued.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The action id.") var action: String
    @Flag(help: "Write the inverse back to the server now.") var push = false

    func run() throws {
        try CLIExit.run {
            let store = try storeOptions.open()
            let id = try ManageThreadActionsUseCase(store: store).undo(actionId: action)
            print(id)
            if push { try ActionOptions.push(actionID: action, store: store) }
        }
    }
}

struct RetryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "retry",
        abstract: "Retry what an action could not do: refused copies get a new action, failed ones are sent again now.")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The action id.") var action: String

    func run() throws {
        try CLIExit.run {
            let store = try storeOptions.open()
            let newIDs = try ManageThreadActionsUseCase(store: store).retry(actionId: action)
            for id in newIDs { print(id) }
            for id in newIDs.isEmpty ? [action] : newIDs.map(\.description) { try ActionOptions.push(actionID: id, store: store) }
        }
    }
}
