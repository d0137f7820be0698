import ArgumentParser
import EventLog
import EventModel
import Foundation
import MailStore
import Views

/// `mailstore project`: shows a view.
struct ProjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project",
        abstract: "Show a view: threads, unread, outbox, dedup or folders.",
        discussion: """
        The views are folded from the log (new events first). --as-of shows a view as it was at a sequence
        number or time, built in a scratch folder from the log without touching the live views.
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .long, help: ArgumentHelp("The view: \(ViewNames.all.joined(separator: ", ")).", valueName: "view"))
    var view: String

    @Option(name: .long, help: ArgumentHelp("The account.", valueName: "account"))
    var account: String?

    @Flag(name: .long, help: "Every account (the unified inbox for threads).")
    var unified = false

    @Option(name: .long, help: ArgumentHelp("The folder (default INBOX).", valueName: "folder"))
    var folder: String?

    @Option(name: .long, help: ArgumentHelp("Only this category: primary, social, promotions or updates.", valueName: "category"))
    var category: String?

    @Option(name: .long, help: ArgumentHelp("Continue after this cursor (from a previous page).", valueName: "cursor"))
    var cursor: String?

    @Option(name: .long, help: ArgumentHelp("Rows per page (default 25).", valueName: "n"))
    var limit: Int = FetchThreadsUseCase.defaultPageSize

    @Flag(name: .long, help: "Every page.")
    var all = false

    @Option(name: .customLong("as-of"), help: ArgumentHelp("Show the view as it was at this sequence number or ISO 8601 time.", valueName: "seq|time"))
    var asOf: String?

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func validate() throws {
        guard ViewNames.all.contains(view) else {
            throw ValidationError("unknown view '\(view)'; views: \(ViewNames.all.joined(separator: ", "))")
        }
        if unified && account != nil { throw ValidationError("give --account or --unified, not both") }
        if limit <= 0 { throw ValidationError("--limit must be at least 1") }
        if let category, AICategory(name: category) == nil || category.lowercased() == "uncategorized" || category.lowercased() == "forums" {
            throw ValidationError("unknown category '\(category)': primary, social, promotions or updates (forums and uncategorized threads are under All)")
        }
        if let cursor, ThreadCursor(cursor) == nil { throw ValidationError("malformed --cursor '\(cursor)'") }
    }

    func run() throws {
        try CLIExit.run {
            let store = try MailStore.open(at: storeOptions.path)
            let views: ViewStore
            var scratch: String?
            if let asOf {
                let seq = try ProjectCommand.sequence(asOf: asOf, log: store.log)
                let dir = FileManager.default.temporaryDirectory.path + "/mailstore-asof-\(UUID().uuidString.prefix(8))"
                scratch = dir
                views = try ViewStore.scratch(in: dir, log: store.log, through: seq)
                if !json { Terminal.note("(as of sequence \(seq))") }
            } else {
                views = try store.openViews(notice: { Terminal.warning($0) })
            }
            defer { if let scratch { try? FileManager.default.removeItem(atPath: scratch) } }
            try show(views: views, store: store)
        }
    }

    func show(views: ViewStore, store: MailStore) throws {
        switch view {
        default:
            try showThreads(views: views, store: store)
        }
    }

    func showThreads(views: ViewStore, store: MailStore) throws {
        let useCase = FetchThreadsUseCase(views: views)
        let cat = category.flatMap { AICategory(name: $0) }
        let accountName = try account ?? (unified ? nil : ProjectCommand.defaultAccount(store))
        var next = cursor.flatMap { ThreadCursor($0) }
        var pages: [ThreadPage] = []
        repeat {
            let page: ThreadPage
            if let accountName {
                page = try useCase.fetchThreads(accountId: accountName, folderId: folder ?? "INBOX", category: cat,
                                                cursor: next, pageSize: limit)
            } else {
                page = try useCase.fetchUnifiedThreads(category: cat, cursor: next, pageSize: limit)
            }
            pages.append(page)
            next = page.nextCursor
        } while all && next != nil
        if json {
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            if all {
                let merged = ThreadPage(threads: pages.flatMap(\.threads), nextCursor: nil, hasMore: false)
                print(String(decoding: try e.encode(merged), as: UTF8.self))
            } else {
                print(String(decoding: try e.encode(pages[0]), as: UTF8.self))
            }
            return
        }
        let width = Terminal.stdoutIsTTY ? Terminal.width : 120
        var out = OutputBuffer()
        for p in pages { for t in p.threads { out.write(ThreadRow.line(t, width: width) + "\n") } }
        out.flush()
        if let last = pages.last, last.hasMore, let c = last.nextCursor {
            Terminal.note("more: --cursor \(c)")
        }
        if pages.allSatisfy({ $0.threads.isEmpty }) { Terminal.note("(no threads)") }
    }

    /// The account to show when none is given: the only one, or `local`.
    static func defaultAccount(_ store: MailStore) throws -> String {
        var accounts = Set<String>()
        try store.log.scan(filter: ScanFilter(types: [.folderDiscovered, .accountAdded])) { ev in
            if !ev.envelope.account.isEmpty { accounts.insert(ev.envelope.account) }
            return accounts.count < 2
        }
        return accounts.count == 1 ? accounts.first! : "local"
    }

    /// The last sequence at `asOf`: a sequence number, or the last event recorded at or before a time.
    static func sequence(asOf: String, log: EventLog) throws -> UInt64 {
        let head = try log.head().sequence
        if let n = UInt64(asOf) { return min(n, head) }
        let f = ISO8601DateFormatter()
        var date = f.date(from: asOf)
        if date == nil {
            f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            date = f.date(from: asOf)
        }
        guard let date else { throw ValidationError("--as-of takes a sequence number or an ISO 8601 time such as 2024-01-15T09:30:00Z") }
        let limit = Timestamp(date)
        // recordedAt only grows with the sequence (one writer), so binary search.
        var lo: UInt64 = 0, hi = head
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if let ev = try log.event(at: mid), ev.envelope.recordedAt <= limit { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}

/// The names `--view` takes.
enum ViewNames {
    static let all = ["threads", "unread", "outbox", "dedup", "folders"]
}
