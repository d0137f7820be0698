import ArgumentParser
import Foundation
import MailStore

/// `mailstore search QUERY`: full-text search over the search view (`STORE/views/search/`), caught up
/// with the log before every search.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search mail: words, \"phrases\", from: to: cc: subject: body: attachment: mimetype: folder: account: id: thread: is: category: date: size:, AND/OR/NOT/-, ( ).",
        discussion: """
        Words match case- and diacritics-insensitively in the subject, the addresses, every text part (HTML as \
        text) and attachment names. Examples:
          mailstore search 'from:alice invoice date:2024-01-01..2024-03-31'
          mailstore search '"quarterly report" -is:read' --output messages --json
          mailstore search -- -is:read from:bob      (a query that begins with - comes after --)
          mailstore search --build-index             (index everything now, no time limit)
        --timeout counts the search index's catch-up with the log too: one stopped at it is said on stderr (the \
        results then miss the mail not indexed yet; JSON rows carry indexBehind, and --json --envelope prints \
        {"indexBehind": N, "rows": [...]}, telling it with no rows too), and what it indexed is kept.
        Exit codes: 0 (also when nothing matches), 2 store missing, 3 database error, 8 past --timeout (also: the \
        index is being built, here or by another process, or not yet through the --as-of point, or a private index \
        of a read-only store not finished), 64 a malformed query (the message points at the position).
        """)

    enum Output: String, ExpressibleByArgument, CaseIterable {
        case threads, messages
    }

    enum Sort: String, ExpressibleByArgument, CaseIterable {
        case newest, oldest
    }

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: ArgumentHelp("The query (several arguments are joined with spaces; none with --build-index).", valueName: "query"))
    var query: [String] = []

    @Option(name: .long, help: ArgumentHelp("Only this account's mail.", valueName: "name"))
    var account: String?

    @Option(name: .long, help: "Rows as threads (the matching messages marked) or as messages.")
    var output: Output = .threads

    // The numbers are read unconditionally: `--offset -1` is the value -1, refused by `validate` naming the option's
    // range (read as the next option, ArgumentParser only said "Missing value").
    @Option(name: .long, parsing: .unconditional, help: "At most this many rows (1 to 10000).")
    var limit: Int = 25

    @Option(name: .long, parsing: .unconditional, help: "Skip this many rows first (0 to 1000000).")
    var offset: Int = 0

    @Option(name: .long, help: "newest or oldest first.")
    var sort: Sort = .newest

    @Option(name: .customLong("as-of"), parsing: .unconditional, help: ArgumentHelp("Search the store as it was at this sequence number or time (ISO 8601, or as log --since reads it: 2026-12-03 10:00, 2h).", valueName: "seq|time"))
    var asOf: String?

    @Option(name: .long, parsing: .unconditional,
            help: ArgumentHelp("Stop the search after this many seconds (30; 0.1 to 3600): exit code 8.", valueName: "seconds"))
    var timeout: Double = MailStore.defaultSearchSeconds

    @Flag(name: .customLong("build-index"),
          help: "First build the search index fully and bring it up to the log's end, with no time limit (progress on a terminal; other searches of the old index waited for up to --timeout); then search, when a query is given.")
    var buildIndex = false

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    @Flag(name: .long,
          help: "With --json: one object {\"indexBehind\": N, \"rows\": [...]} instead of the array of rows, so that an index behind the log is told also when nothing matched.")
    var envelope = false

    /// The most rows one search returns.
    static let maxRows = MailStore.maxSearchRows

    func validate() throws {
        if limit < 1 || limit > SearchCommand.maxRows { throw ValidationError("--limit must be between 1 and \(SearchCommand.maxRows)") }
        if offset < 0 || offset > 1_000_000 { throw ValidationError("--offset must be between 0 and 1000000") }
        if !buildIndex, query.joined().trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("give a query; * matches every message (or --build-index alone to build the search index)")
        }
        if !(timeout >= 0.1 && timeout <= 3_600) { throw ValidationError("--timeout must be between 0.1 and 3600 seconds") }
        if envelope, !json { throw ValidationError("--envelope shapes the JSON output: give --json with it") }
    }

    func run() throws {
        let text = query.joined(separator: " ")
        try CLIExit.run {
            var store = try MailStore.open(at: storeOptions.path, readOnly: true, lookups: true, notice: { Terminal.warning($0) })
            if let account { try AccountCheck.require(account, in: store) }
            if buildIndex {
                let bar = ProgressBar("building the search index", total: nil)
                // The finished build waits for other processes' searches of the old index only up to --timeout (exit 8).
                let built: (checkpoint: UInt64, documents: Int)
                do {
                    defer { bar.finish() }
                    built = try store.buildSearchIndex(switchWait: timeout, progress: { done, total in bar.update(done, total: total) })
                }
                guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                    if json {
                        var out = OutputBuffer()
                        out.write("{\"documents\":\(built.documents),\"indexedThrough\":\(built.checkpoint)}\n")
                        out.flush()
                    } else {
                        Terminal.print("search index: up to date through event \(built.checkpoint), \(built.documents) copies indexed")
                    }
                    return
                }
            }
            if let asOf {
                store = try store.asOf(asOf, views: MailStore.viewsSearchReads)
                if !json, let seq = store.snapshotSequence { Terminal.note(ProjectCommand.asOfNote(asOf, seq)) }
            }
            let answer: SearchAnswer
            // A catch-up that lasts is drawn on a terminal (from its second second on, at most ten times a second).
            let bar = ProgressBar("indexing new mail for search", total: nil)
            let started = Date()
            var drawn = false
            do {
                defer { if drawn { bar.finish() } }
                answer = try store.searchAnswer(text, account: account, output: output == .threads ? .threads : .messages,
                                                limit: limit, offset: offset, oldestFirst: sort == .oldest, timeLimit: timeout,
                                                progress: { done, total in
                                                    guard drawn || Date().timeIntervalSince(started) >= 1 else { return }
                                                    drawn = true
                                                    bar.update(done, total: total)
                                                })
            } catch let e as SearchSyntaxError {
                Terminal.error(e.description)
                Terminal.note(e.pointer)
                throw ExitCode.validationFailure
            }
            if let warning = answer.warning { Terminal.warning(warning) }
            try print(answer)
        }
    }

    /// The JSON of `--envelope`: the rows and how far behind the log the search index was (0: not at all), which the
    /// bare array can only say in its rows.
    struct Envelope: Encodable {
        var rows: [SearchResult]
        var indexBehind: UInt64
    }

    func print(_ answer: SearchAnswer) throws {
        let rows = answer.rows
        var out = OutputBuffer()
        if json {
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = envelope ? try e.encode(Envelope(rows: rows, indexBehind: answer.indexBehind)) : try e.encode(rows)
            out.write(JSONText.string(data) + "\n")
            out.flush()
            return
        }
        let width = Terminal.stdoutIsTTY ? Terminal.width : 120
        for r in rows {
            let who = r.participants.first.map { ThreadRow.shownName($0.name) ?? $0.readable.email } ?? "Unknown"
            let count = r.messageCount > 1 ? " (\(r.messageIds.count)/\(r.messageCount))" : ""
            let marks = (r.unread ? "●" : " ") + (r.starred ? "★" : " ")
            let date = String(r.date.prefix(10))
            let line = "\(marks) \(date)  \(ThreadRow.fit(TerminalSanitiser.line(who) + count, 28))  "
                + ThreadRow.fit(TerminalSanitiser.line(r.subject.isEmpty ? "(no subject)" : r.subject), max(20, width - 46))
                + "  " + (r.emailIds.first ?? "")
            out.write(line + "\n")
        }
        out.flush()
        if rows.isEmpty { Terminal.note("(no matches)") }
    }
}
