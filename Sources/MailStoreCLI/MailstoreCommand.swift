import ArgumentParser
import Foundation
import MailStore

/// The `mailstore` command: the root of every subcommand.
package struct MailstoreCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "mailstore",
        abstract: "An event-sourced mail store: an append-only event log and the views folded from it.",
        discussion: """
        The store folder is --store PATH, else $MAILSTORE_HOME, else ~/.local/share/mailstore.
        Exit codes: 0 success, 1 verification found problems, 2 store missing/exists/newer format, \
        3 database or file error, 4 no such email/thread/folder/account/draft, 5 server or network error, \
        6 configuration error (an account, or the categorizer off), 7 action cannot be taken, 64 wrong arguments or a malformed query. See docs/cli.md.
        """,
        version: MailStore.version,
        subcommands: [InitCommand.self, AccountCommand.self, ImportCommand.self, SyncCommand.self,
                      ArchiveCommand.self, DeleteCommand.self, ReadCommand.self, UnreadCommand.self, StarCommand.self,
                      UnstarCommand.self, MoveCommand.self, UndoCommand.self, CategorizeCommand.self, ActionsCommand.self, RetryCommand.self, HistoryCommand.self,
                      DraftCommand.self, SendCommand.self, OutboxCommand.self, ContactsCommand.self, SearchCommand.self, LogCommand.self, ShowCommand.self, ProjectCommand.self,
                      ReplayCommand.self, VerifyCommand.self, BackupCommand.self, StatsCommand.self,
                      NotificationsCommand.self, VIPCommand.self, MuteCommand.self, UnmuteCommand.self]
    )

    package init() {}

    /// The most arguments a command line may have. swift-argument-parser takes time quadratic in the number of
    /// values of an array argument (8,000 thread ids: 2.3 s; 4,096: ~0.6 s), so more are refused before parsing
    /// (exit 64); thread actions read any number of ids up to 100,000 with `--ids-from FILE`.
    package static let maxArguments = 4_096

    /// Sets the allocator (`AllocatorSettings`), parses the command line and runs the command, refusing one of more
    /// than `maxArguments` arguments.
    package static func main() {
        if AllocatorSettings.applies(environment: ProcessInfo.processInfo.environment) { AllocatorSettings.apply() }
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.count <= maxArguments else {
            Terminal.error("\(arguments.count) arguments, over \(maxArguments): give thread ids with --ids-from FILE (one per line, - for standard input)")
            Foundation.exit(64)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            // As `ParsableCommand.main` does, but an error's text is sanitised before it reaches the terminal: the
            // parser's and the commands' usage errors quote arguments, which may come from mail (a thread id, a
            // subject, an account name given by a script).
            let text = fullMessage(for: error)
            let code = exitCode(for: error)
            if !text.isEmpty {
                if code == .success {
                    print(text)
                } else {
                    FileHandle.standardError.write(Data((TerminalSanitiser.block(text) + "\n").utf8))
                }
            }
            Foundation.exit(code.rawValue)
        }
    }
}
