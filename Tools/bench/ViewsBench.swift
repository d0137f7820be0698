import EventLog
import EventModel
import Foundation
import LMDB
import MailStore
import Projections
import Views

/// The views suite: full rebuild throughput over a large log (beside the raw scan+decode limit), and the
/// thread list's queries at 50K threads in-process, end to end through the CLI, and on a straightforward
/// SQLite schema holding the same data.
struct ViewsBench {
    let options: BenchOptions

    func makeStore(_ path: String, events target: Int?, threads: Int?) throws -> (MailStore, Int) {
        try? FileManager.default.removeItem(atPath: path)
        var o = Environment.Options()
        o.mapSize = 8 << 30
        o.noSync = true
        let store = try MailStore.create(at: path, logOptions: o)
        var gen = ThreadedEvents(seed: 3)
        try store.log.append(gen.folderEvents())
        var batch: [NewEvent] = []
        var total = 0, t = 0
        let base: Int64 = 1_600_000_000_000_000
        while true {
            if let target, total >= target { break }
            if let threads, t >= threads { break }
            let evs = gen.thread(t, base: base + Int64(t) * 60_000_000)
            batch += evs
            total += evs.count
            t += 1
            if batch.count >= 20_000 {
                try store.log.append(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        try store.log.append(batch)
        try store.log.environment.sync()
        return (store, t)
    }

    func run() throws -> String {
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: options.work) }
        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path

        // 1. Rebuild over a large log, beside the raw scan + decode of the same log.
        print("building a \(options.events)-event log…")
        let (big, _) = try makeStore(options.work + "/big", events: options.events, threads: nil)
        let events = try big.log.head().sequence
        var decoded = 0
        let scanSecs = try Stopwatch.seconds {
            try big.log.scan { ev in
                _ = try ev.decode()
                decoded += 1
                return true
            }
        }
        print("rebuilding…")
        let rebuildSecs = try Stopwatch.seconds {
            _ = try ViewStore.replay(store: big.directory, log: big.log)
        }
        let rebuildRate = Double(events) / rebuildSecs, scanRate = Double(decoded) / scanSecs

        // 2. Queries at N threads.
        print("building \(options.threads) threads…")
        let (store, threadCount) = try makeStore(options.work + "/threads", events: nil, threads: options.threads)
        let views = try store.openViews()
        let useCase = FetchThreadsUseCase(views: views)
        var firstLat: [UInt64] = [], laterLat: [UInt64] = [], badgeLat: [UInt64] = []
        for _ in 0..<2000 {
            let t = Stopwatch.now()
            _ = try useCase.fetchThreads(accountId: "bench", folderId: "INBOX")
            firstLat.append(Stopwatch.now() - t)
        }
        var cursor: ThreadCursor? = try useCase.fetchThreads(accountId: "bench", folderId: "INBOX").nextCursor
        var pages = 0
        while pages < 2000 {
            let t = Stopwatch.now()
            let page = try useCase.fetchThreads(accountId: "bench", folderId: "INBOX", cursor: cursor)
            laterLat.append(Stopwatch.now() - t)
            cursor = try page.nextCursor ?? useCase.fetchThreads(accountId: "bench", folderId: "INBOX").nextCursor
            pages += 1
        }
        for _ in 0..<20_000 {
            let t = Stopwatch.now()
            _ = try useCase.fetchBadgeCount(accountId: "bench")
            badgeLat.append(Stopwatch.now() - t)
        }
        // End to end: the CLI process printing the first page.
        var cliLat: [UInt64] = []
        for _ in 0..<15 {
            let r = try ChildRun.run(bin + "/mailstore", ["project", "--view", "threads", "--account", "bench", "--store", store.directory.path])
            precondition(r.status == 0, "mailstore project failed")
            cliLat.append(UInt64(r.seconds * 1e9))
        }
        var threadRows = 0
        try views.entries(of: "threads.rows") { _, _ in threadRows += 1 }

        // 3. The same data and queries on SQLite.
        let sqliteRows = try sqliteSide(views: views, store: store, first: useCase)

        func us(_ v: Double) -> String { Fmt.f(v, 1) + " µs" }
        let p = Stopwatch.percentile
        return """
        ## Views

        `.build/release/bench views --events \(options.events) --threads \(options.threads)` — threads of 1-5 messages (replies reference their parents), 70% in INBOX, categorised, 70% read.
        \(Report.machine(workDir: options.work))

        | measure | mailstore | peer in the same run | aim |
        |---|---:|---:|---|
        | full rebuild of every view over \(Fmt.int(Double(events))) events | \(Fmt.int(rebuildRate)) events/s (\(Fmt.f(rebuildSecs, 1)) s) | raw scan + decode of the same log: \(Fmt.int(scanRate)) events/s (ratio \(Fmt.f(rebuildRate / scanRate, 3))) | >= 1,000,000 events/s |
        | first thread-list page (25) at \(Fmt.int(Double(threadCount))) threads, in-process p50 / p99 | \(us(p(firstLat, 50))) / \(us(p(firstLat, 99))) | \(sqliteRows.first) | p99 <= 1 ms (spec: 200 ms) |
        | later pages by cursor, p50 / p99 | \(us(p(laterLat, 50))) / \(us(p(laterLat, 99))) | \(sqliteRows.later) | p99 <= 1 ms |
        | unread badge read, p50 / p99 | \(us(p(badgeLat, 50))) / \(us(p(badgeLat, 99))) | \(sqliteRows.badge) | <= 10 µs |
        | `mailstore project --view threads` end to end (process start to exit), median / max | \(Fmt.f(p(cliLat, 50) / 1000, 1)) / \(Fmt.f(p(cliLat, 100) / 1000, 1)) ms | | <= 30 ms |

        The SQLite side is a straightforward state-based schema (Folder, Email, EmailFolder, Thread, with the
        indexes a competent app adds, WAL) holding the same \(Fmt.int(Double(threadRows))) threads, queried through the spec's
        Folder -> EmailFolder -> Email -> Thread join with keyset pagination on (latestDate, id), prepared
        statements reused; `Tools/bench/SQLiteBaseline.swift`.
        """
    }

    struct SQLiteRows {
        var first: String
        var later: String
        var badge: String
    }

    func sqliteSide(views: ViewStore, store: MailStore, first useCase: FetchThreadsUseCase) throws -> SQLiteRows {
        var threads: [BaselineThread] = []
        try views.entries(of: "threads.rows") { _, value in
            let t = try value.withUnsafeBytes { raw -> ThreadRow in
                var r = ByteReader(raw)
                return try ThreadRow(from: &r)
            }
            threads.append(BaselineThread(id: t.id, accountId: t.account, subject: t.subject,
                                          participantsJSON: Participant.encode(t.participants),
                                          snippet: t.snippet, latestDate: t.latestDate.microseconds, messageCount: t.messageCount,
                                          unreadCount: t.unreadCount, isStarred: t.isStarred, hasAttachments: t.hasAttachments,
                                          aiCategory: t.category.description))
        }
        var emails: [BaselineEmail] = []
        try views.entries(of: "threads.emails") { key, value in
            let e = try value.withUnsafeBytes { raw -> EmailRecord in
                var r = ByteReader(raw)
                return try EmailRecord(from: &r)
            }
            var kr = KeyReader(key)
            emails.append(BaselineEmail(id: kr.string(), threadId: e.threadID, accountId: e.account, date: e.date.microseconds,
                                        isRead: e.isSeen, folderIds: [e.folder]))
        }
        let folders = ThreadedEvents.folders.map { f -> BaselineFolder in
            let role: String = switch f.1 {
            case .inbox: "inbox"
            case .sent: "sent"
            case .junk: "spam"
            case .archive: "archive"
            default: "custom"
            }
            return BaselineFolder(id: f.0, accountId: "bench", name: f.0, role: role)
        }
        let path = options.work + "/baseline.sqlite"
        let db = try SQLiteBaseline(path: path)
        try db.load(folders: folders, threads: threads, emails: emails)
        // Same answers as mailstore's first page.
        let ours = try useCase.fetchThreads(accountId: "bench", folderId: "INBOX").threads.map(\.id)
        let theirs = try db.page(accountId: "bench", folderId: "INBOX", category: nil, after: nil, limit: 25)
        let agree = ours == theirs ? "same rows as mailstore" : "rows differ from mailstore's"
        var firstLat: [UInt64] = [], laterLat: [UInt64] = [], badgeLat: [UInt64] = []
        for _ in 0..<500 {
            let t = Stopwatch.now()
            _ = try db.pageRows(accountId: "bench", folderId: "INBOX", category: nil, after: nil, limit: 25)
            firstLat.append(Stopwatch.now() - t)
        }
        var after: (Int64, String)? = nil
        for _ in 0..<500 {
            let ids = try db.page(accountId: "bench", folderId: "INBOX", category: nil, after: after, limit: 25)
            let t = Stopwatch.now()
            _ = try db.pageRows(accountId: "bench", folderId: "INBOX", category: nil, after: after, limit: 25)
            laterLat.append(Stopwatch.now() - t)
            if let last = ids.last, let row = threads.first(where: { $0.id == last }) { after = (row.latestDate, row.id) } else { after = nil }
        }
        for _ in 0..<200 {
            let t = Stopwatch.now()
            _ = try db.unreadBadge(accountId: "bench")
            badgeLat.append(Stopwatch.now() - t)
        }
        let p = Stopwatch.percentile
        func us(_ v: Double) -> String { Fmt.f(v, 1) + " µs" }
        return SQLiteRows(first: "SQLite: \(us(p(firstLat, 50))) / \(us(p(firstLat, 99))) (\(agree))",
                          later: "SQLite: \(us(p(laterLat, 50))) / \(us(p(laterLat, 99)))",
                          badge: "SQLite: \(us(p(badgeLat, 50))) / \(us(p(badgeLat, 99)))")
    }
}
