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

        // 1. mailstore batch append: durable (fsync per commit) and bulk (no fsync until the end, as an
        //    import uses it), each beside raw LMDB appending the same record bytes the same way.
        var opts = Environment.Options()
        opts.mapSize = 4 << 30
        func batches(_ body: (Range<Int>) throws -> Void) rethrows {
            var i = 0
            while i < n {
                try body(i..<min(n, i + batchSize))
                i += batchSize
            }
        }
        var bulkOpts = opts
        bulkOpts.noSync = true
        let bulkDir = options.work + "/bulk"
        try FileManager.default.createDirectory(atPath: bulkDir, withIntermediateDirectories: true)
        print("batch append (bulk)…")
        let bulkLog = try EventLog(path: bulkDir, options: bulkOpts)
        let slices = stride(from: 0, to: n, by: batchSize).map { Array(events[$0..<min(n, $0 + batchSize)]) }
        let bulkSecs = try Stopwatch.seconds {
            for s in slices { try bulkLog.append(s) }
            try bulkLog.environment.sync()
        }
        let logDir = options.work + "/log"
        try FileManager.default.createDirectory(atPath: logDir, withIntermediateDirectories: true)
        let log = try EventLog(path: logDir, options: opts)
        print("batch append (durable)…")
        let appendSecs = try Stopwatch.seconds {
            for s in slices { try log.append(s) }
        }
        let stats = try log.stats()

        // The same record bytes, for the raw limits.
        var records: [[UInt8]] = []
        records.reserveCapacity(n)
        try log.environment.read { txn in
            try log.withEventsCursor(txn) { _, raw in records.append(Array(raw)) }
        }

        // 2. raw LMDB: plain MDB_APPEND loop over the same bytes, same batch size and durability.
        func rawAppend(_ env: Environment, _ db: Database) throws {
            var key = [UInt8](repeating: 0, count: 8)
            try batches { r in
                try env.write { txn in
                    for j in r {
                        key.withUnsafeMutableBytes { $0.storeBytes(of: UInt64(j + 1).bigEndian, as: UInt64.self) }
                        try key.withUnsafeBytes { k in
                            try records[j].withUnsafeBytes { v in _ = try txn.put(db, key: k, value: v, flags: .append) }
                        }
                    }
                }
            }
        }
        let rawBulkDir = options.work + "/rawbulk"
        try FileManager.default.createDirectory(atPath: rawBulkDir, withIntermediateDirectories: true)
        let rawBulk = try Environment(path: rawBulkDir, options: bulkOpts)
        let rawBulkDB = try rawBulk.openDatabase("events", flags: .create)
        print("raw append (bulk)…")
        let rawBulkSecs = try Stopwatch.seconds {
            try rawAppend(rawBulk, rawBulkDB)
            try rawBulk.sync()
        }
        let rawDir = options.work + "/raw"
        try FileManager.default.createDirectory(atPath: rawDir, withIntermediateDirectories: true)
        let raw = try Environment(path: rawDir, options: opts)
        let rawDB = try raw.openDatabase("events", flags: .create)
        print("raw append (durable)…")
        let rawAppendSecs = try Stopwatch.seconds { try rawAppend(raw, rawDB) }

        // 3. scan + decode (full typed payload decode) vs a raw cursor scan.
        print("scan…")
        var decoded = 0
        let scanSecs = try Stopwatch.seconds {
            try log.scan { ev in
                _ = try ev.decode()
                decoded += 1
                return true
            }
        }
        var envelopes = 0
        let envelopeSecs = try Stopwatch.seconds {
            try log.scan { _ in
                envelopes += 1
                return true
            }
        }
        var touched: UInt64 = 0
        let rawScanSecs = try Stopwatch.seconds {
            try raw.read { txn in
                try txn.withCursor(rawDB) { c in
                    var e = try c.first()
                    while let entry = e {
                        touched &+= UInt64(entry.value[0]) &+ UInt64(entry.value[entry.value.count - 1]) &+ UInt64(entry.value.count)
                        e = try c.next()
                    }
                }
            }
        }
        precondition(decoded == n && envelopes == n && touched > 0)

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

        let appendRate = Double(n) / appendSecs, rawAppendRate = Double(n) / rawAppendSecs
        let bulkRate = Double(n) / bulkSecs, rawBulkRate = Double(n) / rawBulkSecs
        let scanRate = Double(n) / scanSecs, envRate = Double(n) / envelopeSecs, rawScanRate = Double(n) / rawScanSecs
        let bytesPerEvent = Double(stats.recordBytes) / Double(stats.events)
        let filePerEvent = Double(stats.fileBytes) / Double(stats.events)
        let mix = stats.types.map { "\($0.type.name) \(Fmt.int(Double($0.count) * 100 / Double(stats.events)))%" }.joined(separator: ", ")
        let p50 = Stopwatch.percentile(lat, 50), p99 = Stopwatch.percentile(lat, 99)
        let rp50 = Stopwatch.percentile(rawLat, 50), rp99 = Stopwatch.percentile(rawLat, 99)

        return """
        ## Event log

        `swift run -c release bench log --events \(n)` — \(Fmt.int(Double(n))) realistic events (\(mix)).
        \(Report.machine(workDir: options.work))

        | measure | mailstore | raw LMDB, same bytes | ratio | aim |
        |---|---:|---:|---:|---|
        | batch append, \(Fmt.int(Double(batchSize)))/txn, fsync per commit | \(Fmt.int(appendRate)) events/s | \(Fmt.int(rawAppendRate)) events/s (`MDB_APPEND` loop) | \(Fmt.f(appendRate / rawAppendRate)) | >= 500,000 events/s, >= 0.5 of raw |
        | batch append, bulk mode (`MDB_NOSYNC`, one fsync at the end) | \(Fmt.int(bulkRate)) events/s | \(Fmt.int(rawBulkRate)) events/s | \(Fmt.f(bulkRate / rawBulkRate)) | |
        | scan + full typed decode | \(Fmt.int(scanRate)) events/s | \(Fmt.int(rawScanRate)) events/s (cursor scan) | \(Fmt.f(scanRate / rawScanRate)) | >= 2,000,000 events/s |
        | scan + envelope decode (payload bytes, not typed) | \(Fmt.int(envRate)) events/s | | \(Fmt.f(envRate / rawScanRate)) | |
        | durable single append p50 / p99 | \(Fmt.f(p50 / 1000, 3)) / \(Fmt.f(p99 / 1000, 3)) ms | \(Fmt.f(rp50 / 1000, 3)) / \(Fmt.f(rp99 / 1000, 3)) ms | | p99 <= 2 ms |
        | verify (chain, decode, indexes) | \(Fmt.int(Double(verifyReport.eventsChecked) / verifySecs)) events/s | | | |
        | bytes per event (record / data file) | \(Fmt.f(bytesPerEvent, 0)) / \(Fmt.f(filePerEvent, 0)) B | | | |

        Payload compression: \(Fmt.f(Double(stats.payloadBytes) / Double(max(stats.storedPayloadBytes, 1)))) (raw / stored payload bytes; zstd level 3 on payloads >= \(EventLog.compressionThreshold) bytes when it saves >= 10%).
        What mailstore does per event beyond the raw loop: the idempotency check and insert in the id index, the stream
        index insert and stream version, payload encoding and compression, and the SHA-256 chain hash.
        """
    }
}
