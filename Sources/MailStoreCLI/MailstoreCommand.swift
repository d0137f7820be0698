import ArgumentParser
import Foundation
import MailStore

/// The `mailstore` command: the root of every subcommand.
package struct MailstoreCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "mailstore",
        abstract: "An event-sourced mail store: an append-only event log and the views folded from it.",
        discussion: """
        The store folder is --store PATH, else $MAILSTORE_HOME, else $XDG_DATA_HOME/mailstore, else \
        ~/.local/share/mailstore.
        Exit codes: 0 success, 1 verification found problems, 2 store missing/exists/newer format, \
        3 database or file error (or another process syncing the account), 4 no such \
        email/thread/folder/account/draft, 5 server or network error, 6 configuration error (an account, or the \
        categorizer off), 7 action cannot be taken, 8 a search past its --timeout, 64 wrong arguments or a \
        malformed query. See docs/cli.md.
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

    /// The most Unicode scalars one character (a letter with its combining marks, an emoji sequence) of an argument may
    /// hold: far more than any script or emoji needs (UAX #15's stream-safe text: 30 marks after a base), few enough
    /// that comparing arguments as Unicode text stays quick.
    package static let maxScalarsPerCharacter = 256

    /// Sets the allocator (`AllocatorSettings`), parses the command line and runs the command, refusing one of more
    /// than `maxArguments` arguments.
    package static func main() {
        if AllocatorSettings.applies(environment: ProcessInfo.processInfo.environment) { AllocatorSettings.apply() }
        // verify's child crashing is reported by its parent (`CrashGuard`), in verify's own words.
        if CrashGuard.isChild { CrashGuard.bindToParent() } else { CrashHint.install() }
        // A write past the file-size limit (`ulimit -f`) fails with EFBIG, which says so, rather than killing the process
        // with SIGXFSZ mid-write, without a word (a backup died so, exit 153, its half-written folder left).
        signal(SIGXFSZ, SIG_IGN)
        // The library's warnings (a rotated OAuth refresh token that could not be written) as the CLI's own.
        CredentialSource.setWarningHandler { Terminal.warning($0) }
        let raw: [[UInt8]]
        do { raw = try ProcessArguments.raw() } catch {
            Terminal.error("\(error)")
            Foundation.exit(64)
        }
        guard raw.count <= maxArguments else {
            Terminal.error("\(raw.count) arguments, over \(maxArguments): give thread ids with --ids-from FILE (one per line, - for standard input)")
            Foundation.exit(64)
        }
        // Swift reads each argument as UTF-8, repairing other bytes to U+FFFD: a path or a name with such bytes would
        // silently become another one (`init --store $'s\xff'` made a folder named `s\u{FFFD}`).
        var arguments: [String] = []
        for (i, bytes) in raw.enumerated() {
            guard let argument = String(validating: bytes, as: UTF8.self) else {
                Terminal.error("argument \(i + 1) is not UTF-8 text: mailstore reads paths, names and ids as UTF-8 (rename a file or folder whose name has other bytes)")
                Foundation.exit(64)
            }
            arguments.append(argument)
        }
        // swift-argument-parser compares each argument with the option names as Unicode text, through normalization,
        // whose reordering of combining marks is quadratic in their number: one letter with 16,000 alternating marks
        // (32 KB) held any command 4 s before it began. Text, names and paths need far fewer in a character.
        for (i, argument) in arguments.enumerated() {
            if let heavy = argument.first(where: { $0.unicodeScalars.count > maxScalarsPerCharacter }) {
                Terminal.error("argument \(i + 1) has a character with \(heavy.unicodeScalars.count - 1) combining marks or joined parts "
                               + "(at most \(maxScalarsPerCharacter - 1)): remove them, or give such text in a file")
                Foundation.exit(64)
            }
        }
        var ran: ParsableCommand.Type?
        do {
            var command = try parseAsRoot(arguments)
            ran = type(of: command)
            try command.run()
            StandardStream.finish()
        } catch {
            // As `ParsableCommand.main` does, but an error's text is sanitised before it reaches the terminal: the
            // parser's and the commands' usage errors quote arguments, which may come from mail (a thread id, a
            // subject, an account name given by a script).
            let text = message(for: error, ranCommand: ran)
            let code = exitCode(for: error)
            if !text.isEmpty {
                if code == .success {
                    print(text)
                } else {
                    StandardStream.err(Data((TerminalSanitiser.block(Terminal.bounded(text)) + "\n").utf8))
                }
            }
            if code == .success { StandardStream.finish() } else { fflush(nil) }
            Foundation.exit(code.rawValue)
        }
    }

    /// The text for `error`: the parser's own for a malformed command line (an unknown option, a missing argument, a
    /// value `validate` refused), with the usage of the command; but a value a command's `run` refused once it looked
    /// at the store or a file (several accounts and none given, a cursor of other accounts, a `--body-file` that cannot
    /// be read) is one `mailstore: error:` line saying why and what to do, without the usage: the command line's form
    /// was right, and the usage text buried the reason. (`--ids-from` lists and `log --since/--until` are read by `run`.)
    static func message(for error: Error, ranCommand: ParsableCommand.Type?) -> String {
        guard ranCommand != nil, let e = error as? ValidationError else { return fullMessage(for: error) }
        return "mailstore: error: \(e.message)"
    }
}
