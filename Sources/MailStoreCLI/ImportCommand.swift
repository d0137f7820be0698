import ArgumentParser
import Foundation
import MailStore

/// `mailstore import`: Maildir trees and mbox files into the log.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a Maildir tree or an mbox file (idempotent: importing again appends nothing).",
        discussion: """
        Maildir: the root is INBOX; Maildir++ subfolders (.Sent, .Lists.dev) and plain subfolders become \
        folders; the S F R T D info letters become \\Seen \\Flagged \\Answered \\Deleted \\Draft. A folder \
        nested more than 64 levels below the root is not walked: it is said to be skipped, with what is in it. \
        mbox: mboxo and mboxrd; Status and X-Status headers give the flags; the folder is the file name \
        (INBOX in any case is the Inbox). A spool another program writes is read under its locks (its FILE.lock \
        dot-lock and an fcntl lock), waiting up to 10 s for them. \
        Malformed messages are imported as well as they can be and counted in the summary. A message over \
        --max-message-bytes (default 64 MiB) is skipped with a warning; nothing of it is stored.
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .long, help: ArgumentHelp("A Maildir tree to import.", valueName: "dir"))
    var maildir: String?

    @Option(name: .long, help: ArgumentHelp("An mbox file to import.", valueName: "file"))
    var mbox: String?

    @Option(name: .long, help: ArgumentHelp("The account to file the mail under.", valueName: "name"))
    var account: String = "local"

    @Option(name: .long, help: ArgumentHelp("For --mbox: the folder (default: the file name without extension).", valueName: "name"))
    var folder: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Skip messages larger than this many bytes (default 64 MiB; at most 1 GiB).", valueName: "bytes"))
    var maxMessageBytes: Int = 64 << 20

    @Flag(name: .long, help: "No progress bar and no summary.")
    var quiet = false

    @Flag(name: .long, help: "Print the summary as JSON.")
    var json = false

    func validate() throws {
        if (maildir == nil) == (mbox == nil) { throw ValidationError("give exactly one of --maildir DIR or --mbox FILE") }
        if account.isEmpty { throw ValidationError("--account must not be empty") }
        if folder != nil && mbox == nil { throw ValidationError("--folder goes with --mbox") }
        if folder?.isEmpty == true { throw ValidationError("--folder must not be empty (leave it out to use the file name)") }
        // A message is held whole while it is parsed, hashed and compressed: the bound is bounded too.
        if !(1...(1 << 30)).contains(maxMessageBytes) { throw ValidationError("--max-message-bytes is 1 to 1073741824 (1 GiB)") }
    }

    func run() throws {
        try CLIExit.run {
            let store = try MailStore.open(at: storeOptions.path, bulk: true)
            var options = Importer.Options()
            options.account = account
            options.folder = folder
            options.maxMessageBytes = maxMessageBytes
            let importer = try Importer(store: store, options: options)
            let bar = ProgressBar("importing", total: nil, quiet: quiet || json)
            var barTotal: Int?
            let progress: Importer.Progress = { done, total in
                if barTotal == nil, let total { barTotal = total }
                bar.update(UInt64(done), total: barTotal.map(UInt64.init))
            }
            let summary: ImportSummary
            if let maildir {
                summary = try importer.importMaildir(maildir, progress: progress)
            } else {
                summary = try importer.importMbox(mbox!, progress: progress)
            }
            bar.finish()
            for t in summary.tooLarge.prefix(20) { Terminal.warning("skipped a message too large to import: \(t)") }
            if summary.tooLarge.count > 20 { Terminal.warning("skipped \(summary.tooLarge.count - 20) more messages too large to import") }
            // Each line says what was skipped and why: an entry that is not mail, or a folder too deep to walk.
            for t in summary.skipped.prefix(20) { Terminal.warning("skipped: \(t)") }
            if summary.skippedCount > 20 { Terminal.warning("skipped \(summary.skippedCount - 20) more entries (--json lists the first \(ImportSummary.maxListed))") }
            if json {
                let e = JSONEncoder()
                e.outputFormatting = [.sortedKeys]
                print(JSONText.string(try e.encode(summary)))
            } else if !quiet {
                ImportCommand.printSummary(summary)
            }
        }
    }

    static func printSummary(_ s: ImportSummary) {
        let rate = s.seconds > 0 ? Double(s.imported + s.alreadyPresent) / s.seconds : 0
        print("Imported \(s.imported) of \(Counted.of(s.found, "message")) in \(Counted.of(s.folders, "folder")) (\(s.alreadyPresent) already present) "
              + String(format: "in %.2fs, %.0f messages/s, %.1f MB/s", s.seconds, rate,
                       s.seconds > 0 ? Double(s.bytes) / s.seconds / 1e6 : 0))
        if s.malformed > 0 {
            let reasons = s.warnings.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            print("Malformed: \(Counted.of(s.malformed, "message")) imported with warnings (\(reasons))")
        }
        if s.vanishedCount > 0 {
            print("Vanished: \(Counted.of(s.vanishedCount, "message file")) deleted or moved to another folder while importing (not imported):")
            for v in s.vanished.prefix(20) { Terminal.print("  \(v)") }
        }
        if s.skippedCount > 0 { print("Skipped (not mail, or a folder too deep or unreadable; warned about above): \(Counted.of(s.skippedCount, "entry", plural: "entries"))") }
        if !s.unreadable.isEmpty {
            print("Unreadable: \(Counted.of(s.unreadable.count, "message")) could not be read:")
            for u in s.unreadable.prefix(20) { Terminal.print("  \(u)") }
        }
    }
}
