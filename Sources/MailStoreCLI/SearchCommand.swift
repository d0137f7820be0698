import ArgumentParser
import EventLog
import EventModel
import Foundation
import MailStore
import SearchIndex
import SearchQuery
import Views

/// `mailstore search QUERY`: full-text search over the search view (`STORE/views/search/`), caught up
/// with the log before every search.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search mail: words, \"phrases\", from: to: cc: subject: body: attachment: mimetype: folder: account: id: thread: is: category: date: size:, AND/OR/NOT/-, ( ).",
        discussion: """
        Words match case- and diacritics-insensitively in the subject, the addresses, every text part (HTML as
        text) and attachment names. Examples:
          mailstore search 'from:alice invoice date:2024-01-01..2024-03-31'
          mailstore search '"quarterly report" -is:read' --output messages --json
        Exit codes: 0 (also when nothing matches), 2 store missing, 3 database error, 64 a malformed query
        (the message points at the position).
        """)

    enum Output: String, ExpressibleByArgument, CaseIterable {
        case threads, messages
    }

    enum Sort: String, ExpressibleByArgument, CaseIterable {
        case newest, oldest
    }

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: ArgumentHelp("The query (several arguments are joined with spaces).", valueName: "query"))
    var query: [String]

    @Option(name: .long, help: ArgumentHelp("Only this account's mail.", valueName: "name"))
    var account: String?

    @Option(name: .long, help: "Rows as threads (the matching messages marked) or as messages.")
    var output: Output = .threads

    @Option(name: .long, help: "At most this many rows.")
    var limit: Int = 25

    @Option(name: .long, help: "Skip this many rows first.")
    var offset: Int = 0

    @Option(name: .long, help: "newest or oldest first.")
    var sort: Sort = .newest

    @Option(name: .customLong("as-of"), help: ArgumentHelp("Search the store as it was at this sequence number or ISO 8601 time.", valueName: "seq|time"))
    var asOf: String?

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    /// The most rows one search returns.
    static let maxRows = 10_000

    func validate() throws {
        if limit < 1 || limit > SearchCommand.maxRows { throw ValidationError("--limit must be between 1 and \(SearchCommand.maxRows)") }
        if offset < 0 || offset > 1_000_000 { throw ValidationError("--offset must be between 0 and 1000000") }
        if query.joined().trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("give a query; * matches every message") }
    }

    func run() throws {
        let text = query.joined(separator: " ")
        let parsed: SearchQuery
        do {
            parsed = try SearchQuery.parse(text)
        } catch {
            Terminal.error("malformed query " + error.description)
            Terminal.note(error.pointing(at: text))
            throw ExitCode.validationFailure
        }
        try CLIExit.run {
            let store = try MailStore.open(at: storeOptions.path, readOnly: true)
            var scratch: String?
            defer { if let scratch { try? FileManager.default.removeItem(atPath: scratch) } }
            let views: ViewStore, index: SearchIndex
            if let asOf {
                let seq = try ProjectCommand.sequence(asOf: asOf, log: store.log)
                let dir = FileManager.default.temporaryDirectory.path + "/mailstore-search-asof-\(UUID().uuidString.prefix(8))"
                scratch = dir
                views = try ViewStore.scratch(in: dir + "/views", log: store.log, through: seq)
                index = try SearchIndex.rebuild(folder: dir + "/search", log: store.log, through: seq)
                if !json { Terminal.note("(as of sequence \(seq))") }
            } else {
                views = try store.openViews(notice: { Terminal.warning($0) })
                index = try SearchIndex.open(folder: SearchCommand.folder(store.directory), log: store.log, notice: Terminal.note)
            }
            let rows = try search(parsed, index: index, views: views)
            try print(rows)
        }
    }

    /// The search view's folder in a store.
    static func folder(_ store: StoreDirectory) -> String { store.viewsPath + "/search" }

    /// One result row (the JSON shape of docs/cli.md).
    struct Row: Encodable {
        var threadId: String
        /// Message-IDs of the matching messages.
        var messageIds: [String]
        /// Email (copy) ids of the matching messages, for `mailstore show`.
        var emailIds: [String]
        var subject: String
        var participants: [EmailAddress]
        /// ISO 8601: the message's date, or the thread's latest.
        var date: String
        var account: String
        var folders: [String]
        var messageCount: Int
        var unread: Bool
        var starred: Bool
    }

    func search(_ q: SearchQuery, index: SearchIndex, views: ViewStore) throws -> [Row] {
        let threadEmails: (String) throws -> [String] = { id in try views.threadEmails(id: id).map(\.id) }
        let oldest = sort == .oldest
        func iso(_ seconds: Int64) -> String { Timestamp(microseconds: seconds * 1_000_000).iso8601 }
        switch output {
        case .messages:
            var rows: [Row] = []
            var skipped = 0
            try index.search(q, account: account, oldestFirst: oldest, threadEmails: threadEmails) { h in
                if skipped < offset {
                    skipped += 1
                    return true
                }
                let thread = try views.emailRecord(id: h.emailID)?.threadID ?? "email:" + h.emailID
                rows.append(Row(threadId: thread, messageIds: h.messageID.map { [$0] } ?? [], emailIds: [h.emailID], subject: h.subject,
                                participants: h.participants, date: iso(h.date), account: h.account, folders: [h.folder],
                                messageCount: 1, unread: !h.isSeen, starred: h.isFlagged))
                return rows.count < limit
            }
            return rows
        case .threads:
            let hits = try index.searchThreads(q, account: account, oldestFirst: oldest, offset: offset, limit: limit,
                                               threadOf: { try views.emailRecord(id: $0)?.threadID }, threadEmails: threadEmails)
            return try hits.map { t in
                let mids = try t.emailIDs.compactMap { try views.emailRecord(id: $0)?.messageKey }.filter { !$0.hasPrefix("<") }
                var seen = Set<String>()
                let messageIds = mids.filter { seen.insert($0).inserted }
                if let r = try views.thread(id: t.threadID) {
                    return Row(threadId: t.threadID, messageIds: messageIds, emailIds: t.emailIDs, subject: r.subject,
                               participants: r.participants, date: r.latestDate.iso8601, account: r.account, folders: r.folders,
                               messageCount: r.messageCount, unread: r.unreadCount > 0, starred: r.isStarred)
                }
                let h = t.first
                return Row(threadId: t.threadID, messageIds: h.messageID.map { [$0] } ?? [], emailIds: t.emailIDs, subject: h.subject,
                           participants: h.participants, date: iso(h.date), account: h.account, folders: [h.folder],
                           messageCount: 1, unread: !h.isSeen, starred: h.isFlagged)
            }
        }
    }

    func print(_ rows: [Row]) throws {
        var out = OutputBuffer()
        if json {
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            out.write(String(decoding: try e.encode(rows), as: UTF8.self) + "\n")
            out.flush()
            return
        }
        let width = Terminal.stdoutIsTTY ? Terminal.width : 120
        for r in rows {
            let who = r.participants.first.map { $0.name?.isEmpty == false ? $0.name! : $0.email } ?? "Unknown"
            let count = r.messageCount > 1 ? " (\(r.messageIds.count)/\(r.messageCount))" : ""
            let marks = (r.unread ? "●" : " ") + (r.starred ? "★" : " ")
            let date = String(r.date.prefix(10))
            let line = "\(marks) \(date)  \(ThreadRow.fit(SearchCommand.clean(who) + count, 28))  "
                + ThreadRow.fit(SearchCommand.clean(r.subject.isEmpty ? "(no subject)" : r.subject), max(20, width - 46))
                + "  " + (r.emailIds.first ?? "")
            out.write(line + "\n")
        }
        out.flush()
        if rows.isEmpty { Terminal.note("(no matches)") }
    }

    /// Mail text made safe for a terminal: control characters become spaces.
    static func clean(_ s: String) -> String {
        String(s.unicodeScalars.map { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format ? " " : Character($0) })
    }
}
