import ArgumentParser
import Foundation
import MailStore

/// Options every thread action command shares.
struct ActionOptions: ParsableArguments {
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The threads (ids from `mailstore project --view threads --json`).") var threads: [String]
    @Flag(help: "Write the action back to the server now (else the next `mailstore sync` does).") var push = false

    func validate() throws {
        if threads.isEmpty { throw ValidationError("give at least one thread id") }
    }

    /// Opens the store, runs the action through the library's use case, prints its id, and pushes if asked.
    func run(_ body: (ManageThreadActionsUseCase) throws -> EventID) throws {
        try CLIExit.run {
            let store = try storeOptions.open()
            let id = try body(ManageThreadActionsUseCase(store: store))
            print(id)
            if push { try ActionOptions.push(actionID: id.description, store: store) }
        }
    }

    /// Writes the account's pending actions back now and prints the outcome.
    static func push(actionID: String, store: MailStore) throws {
        guard let report = try store.pushActions(for: actionID) else {
            return Terminal.note("no server account for this action: it is complete locally")
        }
        WriteBackSummary.print(report)
    }
}

struct ArchiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "archive",
        abstract: "Archive threads: their Inbox copies move to the Archive folder (Gmail: the Inbox label goes).")
    @OptionGroup var options: ActionOptions
    func run() throws { try options.run { try $0.archiveThreads(ids: options.threads) } }
}

struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete threads: their copies move to the Trash.")
    @OptionGroup var options: ActionOptions
    func run() throws { try options.run { try $0.deleteThreads(ids: options.threads) } }
}

struct ReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "read", abstract: "Mark threads read (\\Seen).")
    @OptionGroup var options: ActionOptions
    func run() throws { try options.run { try $0.markThreadsRead(ids: options.threads) } }
}

struct UnreadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unread", abstract: "Mark threads unread.")
    @OptionGroup var options: ActionOptions
    func run() throws { try options.run { try $0.markThreadsUnread(ids: options.threads) } }
}

struct StarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "star", abstract: "Star threads (\\Flagged).")
    @OptionGroup var options: ActionOptions
    func run() throws { try options.run { try $0.starThreads(ids: options.threads) } }
}

struct UnstarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unstar", abstract: "Unstar threads.")
    @OptionGroup var options: ActionOptions
    func run() throws { try options.run { try $0.unstarThreads(ids: options.threads) } }
}

struct MoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "move", abstract: "Move threads to a folder (Sent and Drafts copies stay).")
    @OptionGroup var options: ActionOptions
    @Option(help: ArgumentHelp("The destination folder.", valueName: "folder")) var to: String
    func run() throws { try options.run { try $0.moveThreads(ids: options.threads, toFolderId: to) } }
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
            let newID = try ManageThreadActionsUseCase(store: store).retry(actionId: action)
            if let newID { print(newID) }
            try ActionOptions.push(actionID: newID?.description ?? action, store: store)
        }
    }
}
