import EventLog
import Foundation
import MailStore
import SearchIndex
import SearchQuery
import Views

/// The search suite: the search view built from the log of a generated corpus beside `notmuch new` on the
/// same Maildir; one-word and combined queries (first 25 results) in-process and through both CLIs; index
/// sizes on disk.
struct SearchBench {
    let options: BenchOptions

    func run() throws -> String {
        let n = options.messages
        let (mailstore, gen) = try BenchOptions.mailstoreAndGenerator()
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: options.work) }
        let dir = options.work + "/Maildir-search-\(n)"
        if !FileManager.default.fileExists(atPath: dir) {
            print("generating \(n) messages…")
            _ = try ChildRun.run(gen, ["--messages", "\(n)", "--out", dir, "--seed", "1", "--quiet"])
        }
        let storePath = options.work + "/search-store"
        try? FileManager.default.removeItem(atPath: storePath)
        _ = try ChildRun.run(mailstore, ["init", "--store", storePath])
        print("mailstore import…")
        let imp = try ChildRun.run(mailstore, ["import", "--maildir", dir, "--store", storePath, "--quiet"])
        guard imp.status == 0 else { throw NSError(domain: "bench", code: 3, userInfo: [NSLocalizedDescriptionKey: "import failed"]) }
        let store = try MailStore.open(at: storePath)
        print("views…")
        let views = try store.openViews()
        let folder = store.directory.viewsPath + "/search"
        print("search index build…")
        var index: SearchIndex!
        let build = try Stopwatch.seconds { index = try SearchIndex.rebuild(folder: folder, log: store.log) }
        let docs = try index.documentCount()
        let indexBytes = SearchBench.size(folder)

        // Queries: a frequent word, a rarer one, and a combined one (a sender of the newest budget mail, its year, a word).
        var sender = "", year = 2024
        try index.search(try SearchQuery.parse("budget")) { h in
            sender = h.participants.first.map { String($0.email.split(separator: "@").first ?? "") } ?? ""
            year = Calendar(identifier: .gregorian).component(.year, from: Date(timeIntervalSince1970: TimeInterval(h.date)))
            return false
        }
        // Prefixes too: one a user types on the way to a word, and one letter (the most words a prefix expands to).
        let queries = ["budget", "certificate", "from:\(sender) date:\(year - 1)-01-01..\(year)-12-31 budget", "bud*", "m*"]
        let threadEmails: (String) throws -> [String] = { try views.threadEmails(id: $0).map(\.id) }
        var rows: [String] = []
        for q in queries {
            let parsed = try SearchQuery.parse(q)
            var messages: [UInt64] = [], threads: [UInt64] = []
            var count = 0
            for i in 0..<220 {
                let t0 = Stopwatch.now()
                count = 0
                try index.search(parsed, threadEmails: threadEmails) { _ in
                    count += 1
                    return count < 25
                }
                let t1 = Stopwatch.now()
                _ = try index.searchThreads(parsed, offset: 0, limit: 25, threadOf: { try views.emailRecord(id: $0)?.threadID },
                                            threadEmails: threadEmails)
                let t2 = Stopwatch.now()
                if i >= 20 {
                    messages.append(t1 - t0)
                    threads.append(t2 - t1)
                }
            }
            var total = 0
            try index.search(parsed) { _ in
                total += 1
                return true
            }
            rows.append("| `\(q)` (\(Fmt.int(Double(total))) matches) | \(Fmt.f((Stopwatch.percentile(messages, 50) / 1000), 2)) / \(Fmt.f((Stopwatch.percentile(messages, 99) / 1000), 2)) ms | \(Fmt.f((Stopwatch.percentile(threads, 50) / 1000), 2)) / \(Fmt.f((Stopwatch.percentile(threads, 99) / 1000), 2)) ms |")
        }
        index = nil

        // The CLIs end to end (process start, open, catch-up check, query, JSON out).
        func cli(_ exe: String, _ args: [String], env: [String: String] = [:]) throws -> (Double, Double) {
            var s: [UInt64] = []
            for i in 0..<42 {
                let r = try ChildRun.run(exe, args, environment: env)
                guard r.status == 0 else { throw NSError(domain: "bench", code: 4, userInfo: [NSLocalizedDescriptionKey: "\(exe) \(args) failed"]) }
                if i >= 2 { s.append(UInt64(r.seconds * 1e9)) }
            }
            return ((Stopwatch.percentile(s, 50) / 1000), (Stopwatch.percentile(s, 99) / 1000))
        }
        var cliRows: [String] = []
        for q in queries {
            let a = try cli(mailstore, ["search", "--store", storePath, "--limit", "25", "--json", q])
            let m = try cli(mailstore, ["search", "--store", storePath, "--output", "messages", "--limit", "25", "--json", q])
            cliRows.append("| `mailstore search` `\(q)` | \(Fmt.f(a.0, 1)) / \(Fmt.f(a.1, 1)) ms | \(Fmt.f(m.0, 1)) / \(Fmt.f(m.1, 1)) ms |")
        }

        var notmuchBuild = "| `notmuch new` (not installed) | | | |"
        var ratio = "n/a", nmSize = "n/a"
        if let notmuch = ChildRun.which("notmuch") {
            print("notmuch new…")
            let cfg = options.work + "/notmuch-search-config"
            try "[database]\npath=\(dir)\n[user]\nname=Bench\nprimary_email=bench@example.com\n[new]\ntags=unread;inbox;\n[search]\nexclude_tags=\n[maildir]\nsynchronize_flags=true\n"
                .write(toFile: cfg, atomically: true, encoding: .utf8)
            try? FileManager.default.removeItem(atPath: dir + "/.notmuch")
            let env = ["NOTMUCH_CONFIG": cfg, "TZ": "UTC"]
            let nm = try ChildRun.run(notmuch, ["new", "--quiet"], environment: env)
            let bytes = SearchBench.size(dir + "/.notmuch")
            nmSize = "\(Fmt.f(Double(bytes) / 1e6, 1)) MB"
            notmuchBuild = "| `notmuch new` (\(Report.run(notmuch, ["--version"]).trimmingCharacters(in: .whitespacesAndNewlines)), status \(nm.status)) | \(Fmt.f(nm.seconds, 1)) s | \(Fmt.int(Double(n) / nm.seconds)) msg/s | \(nmSize) |"
            ratio = Fmt.f(nm.seconds / build, 1) + "x"
            for q in queries {
                let t = try cli(notmuch, ["search", "--output=threads", "--format=json", "--limit=25", q], env: env)
                let m = try cli(notmuch, ["search", "--output=messages", "--format=json", "--limit=25", q], env: env)
                cliRows.append("| `notmuch search` `\(q)` | \(Fmt.f(t.0, 1)) / \(Fmt.f(t.1, 1)) ms | \(Fmt.f(m.0, 1)) / \(Fmt.f(m.1, 1)) ms |")
            }
            try? FileManager.default.removeItem(atPath: dir + "/.notmuch")
        }

        return """
        ## Search

        `swift run -c release bench search --messages \(n)` — the generated Maildir (`Tools/gen-corpus --seed 1`), imported, then the
        search view (SQLite FTS5) built from the log in-process beside `notmuch new` (Xapian) on the same Maildir.
        \(Report.machine(workDir: options.work))

        | index build | wall | messages/s | size on disk |
        |---|---:|---:|---:|
        | search view rebuilt from the log (\(Fmt.int(Double(docs))) documents: blobs read and decompressed, MIME parsed, text and HTML parts, FTS5) | \(Fmt.f(build, 1)) s | \(Fmt.int(Double(n) / build)) msg/s | \(Fmt.f(Double(indexBytes) / 1e6, 1)) MB |
        \(notmuchBuild)

        The search view builds \(ratio) as fast as `notmuch new` (aim: >= 10x); notmuch's index is \(nmSize) against \(Fmt.f(Double(indexBytes) / 1e6, 1)) MB.
        (`notmuch new` also reads the files and builds its thread and tag data; the search view reads mail already parsed into the log's blob store.)

        In-process, warm, first 25 results, median / p99 over 200 runs (aim: p99 <= 20 ms):

        | query | messages | threads (grouped, each thread's matching messages found) |
        |---|---:|---:|
        \(rows.joined(separator: "\n"))

        End to end through the CLI, first 25 results as JSON, median / p99 over 40 runs (aim for mailstore: p99 <= 50 ms):

        | command and query | threads | messages |
        |---|---:|---:|
        \(cliRows.joined(separator: "\n"))
        """
    }

    /// Bytes of the regular files under `path` (a file or folder).
    static func size(_ path: String) -> Int {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return 0 }
        if !isDir.boolValue { return (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
        return ImportBench.bytes(under: path)
    }
}
