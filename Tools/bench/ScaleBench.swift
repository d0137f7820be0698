import Foundation

/// The scale suite: the whole life of a store of N generated messages, each step a `mailstore` child process
/// with its wall time and peak memory: import, replay (every view and the search index), verify, verify
/// --views, the first page of the thread list, the thread list at past points (the log's midpoint, 10,000
/// events later, near the start, and the point with the most events after its history window), and search now and
/// at past points (a one-letter prefix near the start, a tenth in and at the midpoint; a word and a prefix under
/// NOT at the midpoint). Run at 100K and
/// at 1M messages, each N writes its own section (`scale-N`), so the cost curve is visible side by side.
struct ScaleBench {
    let options: BenchOptions

    struct Step {
        var name: String
        var result: ChildRun.Result
        /// Units per second (events or messages), when the step has a count.
        var rate: String
    }

    func run() throws -> String {
        let n = options.messages
        let (mailstore, gen) = try BenchOptions.mailstoreAndGenerator()
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: options.work) }
        let dir = options.work + "/Maildir-\(n)", store = options.work + "/store-\(n)"
        print("generating \(n) messages…")
        let g = try ChildRun.run(gen, ["--messages", "\(n)", "--out", dir, "--seed", "1", "--quiet"])
        guard g.status == 0 else { throw ScaleBench.failure("gen-corpus failed") }
        // The corpus on disk before the import is timed: its ~600 MB (6 GB at 1M) not written back beside the import.
        sync()
        let raw = ImportBench.bytes(under: dir)

        var steps: [Step] = []
        func step(_ name: String, _ args: [String], count: Int? = nil, unit: String = "events/s") throws {
            print("\(name)…")
            let r = try ChildRun.run(mailstore, args + ["--store", store])
            guard r.status == 0 else { throw ScaleBench.failure("\(name) exited \(r.status)") }
            let rate = count.map { "\(Fmt.int(Double($0) / max(r.seconds, 1e-9))) \(unit)" } ?? ""
            steps.append(Step(name: name, result: r, rate: rate))
        }
        _ = try ChildRun.run(mailstore, ["init", "--store", store])
        try step("`import --maildir` (\(Fmt.int(Double(n))) messages)", ["import", "--maildir", dir, "--quiet"], count: n, unit: "msg/s")
        let events = try eventCount(mailstore, store: store)
        try step("`replay` (\(Fmt.int(Double(events))) events, every view and the search index)", ["replay"], count: events)
        try step("`verify` (records, chain, blobs)", ["verify"], count: events)
        let backup = options.work + "/backup-\(n)"
        try step("`backup` (a compacted copy of the log, then verified)", ["backup", backup, "--quiet"], count: events)
        try? FileManager.default.removeItem(atPath: backup)
        try step("`verify --views` (every view against a rebuild)", ["verify", "--views"], count: events)
        try step("first page: `project --view threads` (25 rows)", ["project", "--view", "threads"])
        try step("`project --view threads --as-of \(events / 2)` (the log's midpoint)", ["project", "--view", "threads", "--as-of", "\(events / 2)"])
        try step("`project --view threads --as-of \(events / 2 + 10_000)` (10,000 events later)",
                 ["project", "--view", "threads", "--as-of", "\(events / 2 + 10_000)"])
        try step("`project --view threads --as-of 1000` (near the log's start)", ["project", "--view", "threads", "--as-of", "1000"])
        // The longest tail a look folds: the point just before the end of the window holding the most events (the latest).
        var longestPoint: (point: Int, events: Int)?
        if let longest = statsViews(mailstore, store: store)?["historyLongestWindow"] as? [String: Int],
           let end = longest["end"], let count = longest["events"], count > 1 {
            longestPoint = (end - 1, count - 1)
            try step("`project --view threads --as-of \(end - 1)` (the longest tail after a history window: \(Fmt.int(Double(count - 1))) events)",
                     ["project", "--view", "threads", "--as-of", "\(end - 1)"])
        }
        // Search as of a point: the live index read as of it (docs/architecture.md, "Search", "Time travel"), a
        // one-letter prefix (the costliest kind but under NOT) near the start, early and at the midpoint, beside the
        // same search now; a word at the midpoint; a one-letter prefix under NOT (its set of every match).
        try step("`search 'm*'` (now: a one-letter prefix, the first 25 threads)", ["search", "m*"])
        for (point, what) in [(1000, "near the log's start"), (events / 10, "a tenth into the log"), (events / 2, "the log's midpoint")] {
            try step("`search --as-of \(point) 'm*'` (\(what))", ["search", "--as-of", "\(point)", "m*"])
        }
        try step("`search --as-of \(events / 2) hello` (the log's midpoint, a word)", ["search", "--as-of", "\(events / 2)", "hello"])
        try step("`search --as-of \(events / 2) 'NOT m*'` (the log's midpoint, a one-letter prefix under NOT)",
                 ["search", "--as-of", "\(events / 2)", "NOT m*"])
        // A prefix after another token (FTS5's phrase prefix: expanded as an OR of phrases since 2026-12-01; the
        // generated subjects start "Heads-up: ..."), now and at the midpoint.
        try step("`search 'heads-u*'` (now: a one-letter prefix after another token, a phrase)", ["search", "heads-u*"])
        try step("`search --as-of \(events / 2) 'heads-u*'` (the log's midpoint)", ["search", "--as-of", "\(events / 2)", "heads-u*"])
        // The same looks cold: the page cache dropped before each (root only), as after a reboot or on a phone whose
        // cache went to other apps.
        var coldLine = ""
        let coldLooks = [(events / 2, "the log's midpoint")] + (longestPoint.map { [($0.point, "the longest tail, \(Fmt.int(Double($0.events))) events")] } ?? [])
        // First the floor under every cold look: a process started and the store opened, from a cold cache.
        if ScaleBench.dropPageCache() {
            try step("cold: `log --limit 0` (a process started and the store opened, nothing read; page cache dropped first)",
                     ["log", "--limit", "0"])
        }
        for (point, what) in coldLooks {
            guard ScaleBench.dropPageCache() else {
                coldLine = "The cold looks were not measured: dropping the page cache (`/proc/sys/vm/drop_caches`) needs root."
                break
            }
            try step("cold: `project --view threads --as-of \(point)` (\(what); page cache dropped first)",
                     ["project", "--view", "threads", "--as-of", "\(point)"])
        }
        // Point reads of the log from a cold cache: one email (its record and blob) and a thread's history (its
        // events through the stream index), as an audit starts.
        if coldLine.isEmpty, let (email, thread, messages) = lookTargets(mailstore, store: store, events: events) {
            for (name, args) in [("`show EMAIL` (an email of the log's midpoint: its record and text)", ["show", email]),
                                 ("`history --thread T` (the first page's longest thread, \(messages) messages)", ["history", "--thread", thread])] {
                guard ScaleBench.dropPageCache() else { break }
                try step("cold: \(name); page cache dropped first", args)
            }
        }
        // What the steps left on disk, read once.
        let after = statsViews(mailstore, store: store)
        let historyLine = "The views' history after these steps: \(after?["historyWindows"] as? Int ?? 0) windows, "
            + "\(Fmt.f(Double(after?["historyBytes"] as? Int ?? 0) / 1e6, 1)) MB of the views file."
        let size = try ImportBench(options: options).storeSize(mailstore, store: store, rawBytes: raw)
        let diskLine = after.map { storeOnDisk($0, rawBytes: raw) } ?? ""

        let rows = steps.map { s in
            "| \(s.name) | \(Fmt.f(s.result.seconds, 2)) s | \(s.rate) | \(s.result.maxRSSKiB / 1024) MiB | \(s.result.maxAnonKiB / 1024) MiB |"
        }.joined(separator: "\n")
        return """
        ## Scale: \(Fmt.int(Double(n))) messages

        `swift build -c release && .build/release/bench scale --messages \(n)` — a generated Maildir (`Tools/gen-corpus --seed 1`, \(Fmt.f(Double(raw) / 1e6, 1)) MB, flushed to disk with `sync` before the import), each step a `mailstore` process (wall time; peak RSS: the step's own wait4 figure, taken by `Tools/peak-rss` so that the bench's own size is not in it, file-backed pages of the mapped log included; peak anonymous memory sampled from /proc).
        \(Report.machine(workDir: options.work))

        | step | wall | rate | peak RSS | peak anonymous |
        |---|---:|---:|---:|---:|
        \(rows)

        | raw mail | blobs stored (dictionaries included) | log file |
        |---:|---:|---:|
        | \(size) |

        \(historyLine)
        \(diskLine)
        \(coldLine)

        Aims (#12): replay >= 300,000 events/s on the 100K corpus and peak RSS <= 200 MB at 100K and 1M; `--as-of` <= 1 s at 1M; import >= 20,000 msg/s.
        """
    }

    /// Writes the dirty pages out and drops the clean ones from the page cache; false when not allowed (not root).
    static func dropPageCache() -> Bool {
        sync()
        let fd = open("/proc/sys/vm/drop_caches", O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "3", 1) == 1
    }

    /// What the whole store takes on disk, part by part, from the `views` object of `mailstore stats --json`.
    func storeOnDisk(_ v: [String: Any], rawBytes: Int) -> String {
        func mb(_ key: String) -> String { "\(Fmt.f(Double(v[key] as? Int ?? 0) / 1e6, 1)) MB" }
        let total = Double(v["totalBytes"] as? Int ?? 0)
        return "The whole store on disk after these steps: \(Fmt.f(total / 1e6, 1)) MB (\(Fmt.f(100 * total / Double(max(1, rawBytes)), 1))% of the raw mail): "
            + "log file \(mb("logFileBytes")), views \(mb("viewsFileBytes")) (their history \(mb("historyBytes"))), search index \(mb("searchIndexBytes"))."
    }

    func statsViews(_ mailstore: String, store: String) -> [String: Any]? {
        let out = Report.run(mailstore, ["stats", "--json", "--store", store])
        guard let data = out.data(using: .utf8), let j = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return j["views"] as? [String: Any]
    }

    /// An email of the log's midpoint and the thread with the most messages on the threads view's first page (with
    /// its count), for the cold point reads; nil when the store does not say.
    func lookTargets(_ mailstore: String, store: String, events: Int) -> (email: String, thread: String, messages: Int)? {
        let line = Report.run(mailstore, ["log", "--type", "EmailReceived", "--from-seq", "\(max(1, events / 2))", "--limit", "1", "--json", "--store", store])
        let page = Report.run(mailstore, ["project", "--view", "threads", "--json", "--store", store])
        guard let e = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let email = (e["payload"] as? [String: Any])?["emailID"] as? String,
              let p = try? JSONSerialization.jsonObject(with: Data(page.utf8)) as? [String: Any],
              let threads = p["threads"] as? [[String: Any]],
              let longest = threads.max(by: { ($0["messageCount"] as? Int ?? 0) < ($1["messageCount"] as? Int ?? 0) }),
              let thread = longest["id"] as? String else { return nil }
        return (email, thread, longest["messageCount"] as? Int ?? 0)
    }

    /// The number of events in the store's log (`mailstore stats --json`).
    func eventCount(_ mailstore: String, store: String) throws -> Int {
        let out = Report.run(mailstore, ["stats", "--json", "--store", store])
        guard let data = out.data(using: .utf8), let j = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let events = j["events"] as? Int else { throw ScaleBench.failure("mailstore stats failed") }
        return events
    }

    static func failure(_ what: String) -> NSError {
        NSError(domain: "bench", code: 5, userInfo: [NSLocalizedDescriptionKey: "scale: \(what)"])
    }
}
