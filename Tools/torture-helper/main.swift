// mailstore-torture: drives the event log from a separate process for crash and isolation tests.
//
//   mailstore-torture append --path DIR --batches N --batch-size K [--payload-bytes B]
//       Appends N batches of K events (one correlation id per batch, stream "batch/<i>") and prints
//       "committed <i>" after each commit. Meant to be killed with SIGKILL at any moment.
//   mailstore-torture watch --path DIR --batch-size K --seconds S
//       Reads snapshots in a loop for S seconds and checks that every snapshot holds whole batches
//       only. Prints "ok snapshots=<n> max=<events>" or "violation: ..." (exit 1).
//   mailstore-torture hold-reader --path DIR [--max-readers N]
//       Opens the LMDB environment in DIR, begins a read transaction, prints "holding" and sleeps inside it
//       until killed (a stale reader slot for the reader-check tests).
//   mailstore-torture grow --path DIR --bytes N [--map-size M]
//       Writes N bytes of values into DIR's environment (opened with a map of M bytes, default 1 MiB), so
//       its map grows; prints "grown <map size>".
//   mailstore-torture hold-writer --path DIR [--map-size M] [--reserve R]
//       Opens DIR's environment for writing through the map (`MDB_WRITEMAP`, as the views are; a map of M bytes
//       asked, default 1 MiB), grows the map to hold R bytes more than its data when asked, prints
//       "open <map size> <data file size>" and sleeps until killed.
import EventLog
import EventModel
import Foundation
import LMDB

func arg(_ name: String, _ args: [String]) -> String? {
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    return args[i + 1]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

let args = Array(CommandLine.arguments.dropFirst())
guard let mode = args.first, let path = arg("--path", args) else {
    fail("usage: mailstore-torture append|watch --path DIR ...")
}
let batchSize = Int(arg("--batch-size", args) ?? "10") ?? 10

do {
    switch mode {
    case "append":
        let batches = Int(arg("--batches", args) ?? "1000") ?? 1000
        let payloadBytes = Int(arg("--payload-bytes", args) ?? "300") ?? 300
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let log = try EventLog(path: path)
        var start = Int(try log.head().sequence) / batchSize

        let filler = String(repeating: "x", count: payloadBytes)
        while start < batches {
            let correlation = EventID.generate()
            var batch: [NewEvent] = []
            for j in 0..<batchSize {
                let p = EmailCategorized(emailID: "e\(start)-\(j) \(filler)", category: .primary, classifier: "torture")
                batch.append(NewEvent(event: .emailCategorized(p), account: "torture", stream: StreamName(rawValue: "batch/\(start)"),
                                      correlationID: correlation, actor: .system))
            }
            try log.append(batch)
            FileHandle.standardOutput.write(Data("committed \(start)\n".utf8))
            start += 1
        }
    case "watch":
        let seconds = Double(arg("--seconds", args) ?? "3") ?? 3
        let log = try EventLog(path: path)
        let deadline = Date().addingTimeInterval(seconds)
        var snapshots = 0
        var maxSeen: UInt64 = 0
        while Date() < deadline {
            // One snapshot: head and every event up to it in a single read transaction.
            let (count, groups) = try log.environment.read { txn -> (UInt64, [String: Int]) in
                var groups: [String: Int] = [:]
                var n: UInt64 = 0
                let decoder = try RecordDecoder()
                try log.withEventsCursor(txn) { seq, raw in
                    let ev = try decoder.decode(raw, sequence: seq)
                    groups[ev.envelope.stream, default: 0] += 1
                    n += 1
                }
                return (n, groups)
            }
            if count % UInt64(batchSize) != 0 {
                print("violation: snapshot holds \(count) events, not a multiple of \(batchSize)")
                exit(1)
            }
            if let bad = groups.first(where: { $0.value != batchSize }) {
                print("violation: stream \(bad.key) has \(bad.value) of \(batchSize) events")
                exit(1)
            }
            snapshots += 1
            maxSeen = max(maxSeen, count)
        }
        print("ok snapshots=\(snapshots) max=\(maxSeen)")
    case "hold-reader":
        var options = Environment.Options()
        options.mapSize = 1 << 20
        options.maxReaders = UInt32(arg("--max-readers", args) ?? "126") ?? 126
        let env = try Environment(path: path, options: options)
        try env.read { _ in
            FileHandle.standardOutput.write(Data("holding\n".utf8))
            while true { sleep(60) }
        }
    case "grow":
        let bytes = Int(arg("--bytes", args) ?? "0") ?? 0
        var options = Environment.Options()
        options.mapSize = Int(arg("--map-size", args) ?? "\(1 << 20)") ?? 1 << 20
        let env = try Environment(path: path, options: options)
        let db = try env.openDatabase("grow", flags: .create)
        let value = [UInt8](repeating: 7, count: 64 << 10)
        var written = 0
        while written < bytes {
            try env.write { txn in
                try txn.put(db, key: Array("k\(written)".utf8), value: value)
            }
            written += value.count
        }
        print("grown \(env.mapSize)")
    case "hold-writer":
        var options = Environment.Options()
        options.mapSize = Int(arg("--map-size", args) ?? "\(1 << 20)") ?? 1 << 20
        options.writeMap = true
        let env = try Environment(path: path, options: options)
        if let room = arg("--reserve", args).flatMap({ Int($0) }) { try env.reserve(room: room) }
        let size = Environment.fileSize(Environment.dataFile(path)) ?? -1
        FileHandle.standardOutput.write(Data("open \(env.mapSize) \(size)\n".utf8))
        while true { sleep(60) }
    default:
        fail("unknown mode \(mode)")
    }
} catch {
    fail("error: \(error)")
}
