import CLMDB
import EventLog
import EventModel
import Foundation
import LMDB

/// The event log suite: batch append, durable single append, scan+decode and bytes per event, each
/// beside raw LMDB doing the same work on the same bytes.
struct LogBench {
    let options: BenchOptions
    let batchSize = 10_000

    func run() throws -> String {
        let n = options.events
        try? FileManager.default.removeItem(atPath: options.work)
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: options.work) }

        print("generating \(n) events…")
        var gen = RealisticEvents(seed: 7)
        let events = (0..<n).map { gen.event($0) }

        // 1-3. Batch append (durable: fsync per commit; bulk: no fsync until the end, as an import uses it),
        //    scan + typed decode and scan of envelopes, each beside raw LMDB doing the same with the same record
        //    bytes. This shared VM moves every figure by up to ~3x between minutes (the raw peers alike), so the
        //    measures run `--rounds` times (3 by default), mailstore and raw LMDB alternating which goes first,
        //    each round into fresh files; a ratio is taken within a round, then the median is reported.
        var opts = Environment.Options()
        opts.mapSize = 4 << 30
        // As `MailStore` opens its log: the map faults one page at a time where the kernel allows it.
        opts.noFaultAround = true
        var bulkOpts = opts
        bulkOpts.noSync = true
        let slices = stride(from: 0, to: n, by: batchSize).map { Array(events[$0..<min(n, $0 + batchSize)]) }
        var records: [[UInt8]] = []
        var rounds: [LogRound] = []
        var kept: (log: EventLog, raw: Environment, rawDB: Database)?
        for round in 0..<max(1, options.rounds) {
            let dir = options.work + "/round-\(round)"
            for sub in ["bulk", "log", "rawbulk", "raw"] {
                try FileManager.default.createDirectory(atPath: dir + "/" + sub, withIntermediateDirectories: true)
            }
            var m = LogRound()
            let bulkLog = try EventLog(path: dir + "/bulk", options: bulkOpts)
            let log = try EventLog(path: dir + "/log", options: opts)
            let rawBulk = try Environment(path: dir + "/rawbulk", options: bulkOpts)
            let rawBulkDB = try rawBulk.openDatabase("events", flags: .create)
            let raw = try Environment(path: dir + "/raw", options: opts)
            let rawDB = try raw.openDatabase("events", flags: .create)
            func ours() throws {
                print("round \(round + 1): batch append (bulk, durable)…")
                m.bulk = try Stopwatch.seconds {
                    for s in slices { try bulkLog.append(s) }
                    try bulkLog.environment.sync()
                }
                m.append = try Stopwatch.seconds { for s in slices { try log.append(s) } }
                if records.isEmpty {
                    // The same record bytes, for the raw peers.
                    records.reserveCapacity(n)
                    try log.environment.read { txn in
                        try log.withEventsCursor(txn) { _, raw in records.append(Array(raw)) }
                    }
                }
            }
            func theirs() throws {
                print("round \(round + 1): raw append (bulk, durable)…")
                m.rawBulk = try Stopwatch.seconds {
                    try rawAppend(rawBulk, rawBulkDB, records)
                    try rawBulk.sync()
                }
                m.rawAppend = try Stopwatch.seconds { try rawAppend(raw, rawDB, records) }
            }
            // Round 1 needs mailstore's records first; later rounds alternate.
            if round % 2 == 0 { try ours(); try theirs() } else { try theirs(); try ours() }
            print("round \(round + 1): scans…")
            if round % 2 == 0 {
                m.scan = try typedScan(log, n)
                m.envelopes = try envelopeScan(log, n)
                m.rawScan = try rawScan(raw, rawDB)
            } else {
                m.rawScan = try rawScan(raw, rawDB)
                m.envelopes = try envelopeScan(log, n)
                m.scan = try typedScan(log, n)
            }
            rounds.append(m)
            let k = Double(n)
            print("round \(round + 1): append \(Fmt.int(k / m.append))/s (raw \(Fmt.int(k / m.rawAppend))), bulk \(Fmt.int(k / m.bulk))/s "
                + "(raw \(Fmt.int(k / m.rawBulk))), typed scan \(Fmt.int(k / m.scan))/s, envelopes \(Fmt.int(k / m.envelopes))/s (raw \(Fmt.int(k / m.rawScan)))")
            if round == max(1, options.rounds) - 1 {
                kept = (log, raw, rawDB)
            } else {
                try? FileManager.default.removeItem(atPath: dir)
            }
        }
        guard let (log, raw, rawDB) = kept else { fatalError("no round ran") }
        let stats = try log.stats()

        // 4. durable single-event append latency (one transaction and fsync each).
        print("durable appends…")
        let singles = 2000
        var lat: [UInt64] = []
        lat.reserveCapacity(singles)
        for i in 0..<singles {
            let ev = gen.event(n + i)
            let t = Stopwatch.now()
            try log.append(ev)
            lat.append(Stopwatch.now() - t)
        }
        var rawLat: [UInt64] = []
        rawLat.reserveCapacity(singles)
        var key = [UInt8](repeating: 0, count: 8)
        for i in 0..<singles {
            key.withUnsafeMutableBytes { $0.storeBytes(of: UInt64(n + i + 1).bigEndian, as: UInt64.self) }
            let t = Stopwatch.now()
            try raw.write { txn in
                try key.withUnsafeBytes { k in try records[i].withUnsafeBytes { v in _ = try txn.put(rawDB, key: k, value: v, flags: .append) } }
            }
            rawLat.append(Stopwatch.now() - t)
        }

        // 5. verify throughput.
        var verifyReport = VerifyReport()
        let verifySecs = try Stopwatch.seconds { verifyReport = try log.verify(checkBlobs: false) }
        precondition(verifyReport.isClean)

        func rate(_ secs: KeyPath<LogRound, Double>) -> Double { LogRound.median(rounds.map { Double(n) / $0[keyPath: secs] }) }
        func ratio(_ a: KeyPath<LogRound, Double>, _ b: KeyPath<LogRound, Double>) -> Double {
            LogRound.median(rounds.map { $0[keyPath: b] / $0[keyPath: a] })
        }
        func spread(_ secs: KeyPath<LogRound, Double>) -> String {
            guard rounds.count > 1 else { return "" }
            let rates = rounds.map { Double(n) / $0[keyPath: secs] }
            return " (\(Fmt.int(rates.min()!))-\(Fmt.int(rates.max()!)))"
        }
        func ratioSpread(_ a: KeyPath<LogRound, Double>, _ b: KeyPath<LogRound, Double>) -> String {
            guard rounds.count > 1 else { return "" }
            let r = rounds.map { $0[keyPath: b] / $0[keyPath: a] }
            return " (\(Fmt.f(r.min()!))-\(Fmt.f(r.max()!)))"
        }
        let bytesPerEvent = Double(stats.recordBytes) / Double(stats.events)
        let filePerEvent = Double(stats.fileBytes) / Double(stats.events)
        let mix = stats.types.map { "\($0.type.name) \(Fmt.int(Double($0.count) * 100 / Double(stats.events)))%" }.joined(separator: ", ")
        let p50 = Stopwatch.percentile(lat, 50), p99 = Stopwatch.percentile(lat, 99)
        let rp50 = Stopwatch.percentile(rawLat, 50), rp99 = Stopwatch.percentile(rawLat, 99)

        return """
        ## Event log

        `swift run -c release bench log --events \(n) --rounds \(rounds.count)` — \(Fmt.int(Double(n))) realistic events (\(mix)).
        \(Report.machine(workDir: options.work))

        Appends and scans ran \(rounds.count) times, mailstore and raw LMDB alternating which went first, each round into
        fresh files: each figure is the median of the rounds (their range in brackets), each ratio the median of the
        ratios within a round. The single appends and verify ran once, on the last round's log.

        | measure | mailstore | raw LMDB, same bytes | ratio | aim |
        |---|---:|---:|---:|---|
        | batch append, \(Fmt.int(Double(batchSize)))/txn, fsync per commit | \(Fmt.int(rate(\.append))) events/s\(spread(\.append)) | \(Fmt.int(rate(\.rawAppend))) events/s\(spread(\.rawAppend)) (`MDB_APPEND` loop) | \(Fmt.f(ratio(\.append, \.rawAppend)))\(ratioSpread(\.append, \.rawAppend)) | >= 500,000 events/s, >= 0.5 of raw |
        | batch append, bulk mode (`MDB_NOSYNC`, one fsync at the end) | \(Fmt.int(rate(\.bulk))) events/s\(spread(\.bulk)) | \(Fmt.int(rate(\.rawBulk))) events/s\(spread(\.rawBulk)) | \(Fmt.f(ratio(\.bulk, \.rawBulk)))\(ratioSpread(\.bulk, \.rawBulk)) | |
        | scan + full typed decode | \(Fmt.int(rate(\.scan))) events/s\(spread(\.scan)) | \(Fmt.int(rate(\.rawScan))) events/s\(spread(\.rawScan)) (cursor scan) | \(Fmt.f(ratio(\.scan, \.rawScan))) | >= 2,000,000 events/s |
        | scan + envelope decode (payload bytes, not typed) | \(Fmt.int(rate(\.envelopes))) events/s\(spread(\.envelopes)) | | \(Fmt.f(ratio(\.envelopes, \.rawScan))) | |
        | durable single append p50 / p99 | \(Fmt.f(p50 / 1000, 3)) / \(Fmt.f(p99 / 1000, 3)) ms | \(Fmt.f(rp50 / 1000, 3)) / \(Fmt.f(rp99 / 1000, 3)) ms | | p99 <= 2 ms |
        | verify (chain, decode, indexes) | \(Fmt.int(Double(verifyReport.eventsChecked) / verifySecs)) events/s | | | |
        | bytes per event (record / data file) | \(Fmt.f(bytesPerEvent, 0)) / \(Fmt.f(filePerEvent, 0)) B | | | |

        Payload compression: \(Fmt.f(Double(stats.payloadBytes) / Double(max(stats.storedPayloadBytes, 1)))) (raw / stored payload bytes; zstd level 3 on payloads >= \(EventLog.compressionThreshold) bytes when it saves >= 10%).
        What mailstore does per event beyond the raw loop: the idempotency check and insert in the id index, the stream
        index insert and stream version, payload encoding and compression, and the SHA-256 chain hash (each record's
        digest on the two encoding threads, then the 72-byte link in log order). A batch is encoded by a second thread
        and by the writing thread while the chunk it needs is not ready; the raw loop runs on one thread.
        """
    }
}

extension LogBench {
    /// Raw LMDB's `MDB_APPEND` loop over `records`, in batches of `batchSize` per transaction.
    func rawAppend(_ env: Environment, _ db: Database, _ records: [[UInt8]]) throws {
        var key = [UInt8](repeating: 0, count: 8)
        var i = 0
        while i < records.count {
            let r = i..<min(records.count, i + batchSize)
            try env.write { txn in
                for j in r {
                    key.withUnsafeMutableBytes { $0.storeBytes(of: UInt64(j + 1).bigEndian, as: UInt64.self) }
                    try key.withUnsafeBytes { k in
                        try records[j].withUnsafeBytes { v in _ = try txn.put(db, key: k, value: v, flags: .append) }
                    }
                }
            }
            i += batchSize
        }
    }

    /// Seconds to scan `log` decoding every payload into its typed event.
    func typedScan(_ log: EventLog, _ n: Int) throws -> Double {
        var decoded = 0
        let secs = try Stopwatch.seconds {
            try log.scanDecoded { _, event in
                _ = try event.get()
                decoded += 1
                return true
            }
        }
        precondition(decoded == n)
        return secs
    }

    /// Seconds to scan `log` decoding envelopes only.
    func envelopeScan(_ log: EventLog, _ n: Int) throws -> Double {
        var envelopes = 0
        let secs = try Stopwatch.seconds {
            try log.scan { _ in
                envelopes += 1
                return true
            }
        }
        precondition(envelopes == n)
        return secs
    }

    /// Seconds for a raw cursor scan of `db`, touching each value's first and last byte.
    func rawScan(_ env: Environment, _ db: Database) throws -> Double {
        var touched: UInt64 = 0
        let secs = try Stopwatch.seconds {
            try env.read { txn in
                try txn.withCursor(db) { c in
                    var e = try c.first()
                    while let entry = e {
                        touched &+= UInt64(entry.value[0]) &+ UInt64(entry.value[entry.value.count - 1]) &+ UInt64(entry.value.count)
                        e = try c.next()
                    }
                }
            }
        }
        precondition(touched > 0)
        return secs
    }
}
