import Foundation

/// The scale suite: the whole life of a store of N generated messages, each step a `mailstore` child process
/// with its wall time and peak memory: import, replay (every view and the search index), verify, verify
/// --views, the first page of the thread list, and the thread list as of the log's midpoint. Run at 100K and
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
        try step("`verify --views` (every view against a rebuild)", ["verify", "--views"], count: events)
        try step("first page: `project --view threads` (25 rows)", ["project", "--view", "threads"])
        try step("`project --view threads --as-of \(events / 2)` (the log's midpoint)", ["project", "--view", "threads", "--as-of", "\(events / 2)"])
        // The past views that time travel kept: the same point again (the next page) and a later one.
        try step("`project --view threads --as-of \(events / 2)` again (the past views kept: the next page)",
                 ["project", "--view", "threads", "--as-of", "\(events / 2)"])
        try step("`project --view threads --as-of \(events / 2 + 10_000)` (10,000 events later: folded on from them)",
                 ["project", "--view", "threads", "--as-of", "\(events / 2 + 10_000)"])
        // The longest tail a snapshot leaves: the point just before the snapshot farthest from its predecessor
        // (or the head, when it is farthest from the newest).
        let snaps = snapshotSequences(mailstore, store: store)
        var worst = (point: events, tail: events - (snaps.last ?? 0))
        for (i, s) in snaps.enumerated() where s - 1 - (i == 0 ? 0 : snaps[i - 1]) > worst.tail {
            worst = (s - 1, s - 1 - (i == 0 ? 0 : snaps[i - 1]))
        }
        // Cold, as the first look at a point is: the past views kept above could be nearer than the snapshot.
        try? FileManager.default.removeItem(atPath: store + "/views/past")
        try step("`project --view threads --as-of \(worst.point)` (the longest tail after a snapshot: \(Fmt.int(Double(worst.tail))) events)",
                 ["project", "--view", "threads", "--as-of", "\(worst.point)"])
        // What the steps left on disk, read once.
        let after = statsViews(mailstore, store: store)
        let snapshotLine = "View snapshots kept after these steps: \(snaps.count) (at \(snaps.map { Fmt.int(Double($0)) }.joined(separator: ", "))), "
            + "\(Fmt.f(Double(after?["snapshotBytes"] as? Int ?? 0) / 1e6, 1)) MB."
        let size = try ImportBench(options: options).storeSize(mailstore, store: store, rawBytes: raw)
        let diskLine = after.map { storeOnDisk($0, rawBytes: raw) } ?? ""

        let rows = steps.map { s in
            "| \(s.name) | \(Fmt.f(s.result.seconds, 2)) s | \(s.rate) | \(s.result.maxRSSKiB / 1024) MiB | \(s.result.maxAnonKiB / 1024) MiB |"
        }.joined(separator: "\n")
        return """
        ## Scale: \(Fmt.int(Double(n))) messages

        `swift build -c release && .build/release/bench scale --messages \(n)` — a generated Maildir (`Tools/gen-corpus --seed 1`, \(Fmt.f(Double(raw) / 1e6, 1)) MB), each step a `mailstore` process (wall time; peak RSS from wait4, file-backed pages of the mapped log included; peak anonymous memory sampled from /proc).
        \(Report.machine(workDir: options.work))

        | step | wall | rate | peak RSS | peak anonymous |
        |---|---:|---:|---:|---:|
        \(rows)

        | raw mail | blobs stored (dictionaries included) | log file |
        |---:|---:|---:|
        | \(size) |

        \(snapshotLine)
        \(diskLine)

        Aims (#12): replay >= 300,000 events/s on the 100K corpus and peak RSS <= 200 MB at 100K and 1M; `--as-of` <= 1 s at 1M; import >= 20,000 msg/s.
        """
    }

    /// What the whole store takes on disk, part by part, from the `views` object of `mailstore stats --json`.
    func storeOnDisk(_ v: [String: Any], rawBytes: Int) -> String {
        func mb(_ key: String) -> String { "\(Fmt.f(Double(v[key] as? Int ?? 0) / 1e6, 1)) MB" }
        let total = Double(v["totalBytes"] as? Int ?? 0)
        return "The whole store on disk after these steps: \(Fmt.f(total / 1e6, 1)) MB (\(Fmt.f(100 * total / Double(max(1, rawBytes)), 1))% of the raw mail): "
            + "log file \(mb("logFileBytes")), views \(mb("viewsFileBytes")), search index \(mb("searchIndexBytes")), "
            + "view snapshots \(mb("snapshotBytes")), past views \(mb("pastViewsBytes"))."
    }

    /// The view snapshots' sequences (`mailstore stats --json`).
    func snapshotSequences(_ mailstore: String, store: String) -> [Int] {
        (statsViews(mailstore, store: store)?["snapshots"] as? [Int]) ?? []
    }

    func statsViews(_ mailstore: String, store: String) -> [String: Any]? {
        let out = Report.run(mailstore, ["stats", "--json", "--store", store])
        guard let data = out.data(using: .utf8), let j = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return j["views"] as? [String: Any]
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
