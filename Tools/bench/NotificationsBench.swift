import EventLog
import EventModel
import Foundation
import LMDB
import MailStore
import Projections
import Views

/// The notifications suite: the pure decision per email, the dedup lookup (has this email been decided or
/// delivered?) over a view holding 100,000 decisions, and the whole per-email path `sync --watch` takes
/// (views read, decide, commit one `NotificationDecided`).
struct NotificationsBench {
    let options: BenchOptions

    func run() throws -> String {
        let n = options.messagesGiven ? options.messages : 100_000
        let now = Timestamp(microseconds: 1_700_000_000_000_000)
        var rng = SystemRandomNumberGenerator()
        let settings = NotificationSettings(disabledCategories: [.promotions], quietHours: QuietHours(parsing: "22:00-07:00"),
                                            vips: Set((0..<100).map { "vip\($0)@example.com" }), mutedThreads: Set((0..<1000).map { "t\($0)" }))
        let sync = NotificationSync(time: now)
        func candidate(_ i: Int) -> NotificationCandidate {
            NotificationCandidate(emailID: "e\(i)", threadID: "t\(Int.random(in: 0..<5000, using: &rng))", account: "bench",
                                  fromName: i % 3 == 0 ? nil : "Sender \(i)", fromAddress: i % 50 == 0 ? "vip\(i % 100)@example.com" : "s\(i)@example.org",
                                  subject: "Subject \(i)", snippet: String(repeating: "snippet text ", count: 20),
                                  dateReceived: Timestamp(microseconds: now.microseconds - Int64.random(in: 0..<600_000_000, using: &rng)),
                                  folderRoles: i % 10 == 0 ? [.junk] : [.inbox], category: AICategory(rawValue: UInt8(i % 6)) ?? .primary)
        }
        print("pure decision on \(n) emails…")
        let inputs = (0..<n).map(candidate)
        var single: [UInt64] = []
        single.reserveCapacity(n)
        var posted = 0
        for c in inputs {
            let t = Stopwatch.now()
            let d = NotificationDecider.decide([c], settings: settings, sync: sync)
            single.append(Stopwatch.now() - t)
            if d.first?.outcome == .posted { posted += 1 }
        }
        var batches: [UInt64] = []
        for b in stride(from: 0, to: n - 15, by: 15) {
            let t = Stopwatch.now()
            _ = NotificationDecider.decide(Array(inputs[b..<b + 15]), settings: settings, sync: sync)
            batches.append(Stopwatch.now() - t)
        }

        // A store with n decisions, half delivered.
        let path = options.work + "/notifications"
        try? FileManager.default.removeItem(atPath: options.work + "/notifications")
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        var o = Environment.Options()
        o.noSync = true
        let store = try MailStore.create(at: path, logOptions: o)
        print("\(n) decisions into the log…")
        var batch: [NewEvent] = []
        for (i, c) in inputs.enumerated() {
            let d = NotificationDecider.decision(c, outcome: .posted, reason: "passed", sync: sync)
            batch.append(NewEvent(event: .notificationDecided(d), account: "bench", stream: .email(d.emailID), actor: .system))
            if i % 2 == 0 { batch.append(NewEvent(event: .notificationDelivered(NotificationDelivered(emailID: d.emailID)), account: "bench", stream: .email(d.emailID), actor: .system)) }
            if batch.count >= 10_000 {
                try store.log.append(batch)
                batch.removeAll()
            }
        }
        try store.log.append(batch)
        try store.log.environment.sync()
        var views: ViewStore!
        let foldTime = try Stopwatch.seconds { views = try store.openViews() }
        print("lookups…")
        let lookups = 100_000
        var inView: [UInt64] = []
        var found = 0
        try views.read { snapshot in
            let notifications = NotificationsReader(snapshot), dedup = DedupReader(snapshot)
            for _ in 0..<lookups {
                let id = "e\(Int.random(in: 0..<(2 * n), using: &rng))"
                let t = Stopwatch.now()
                let seen = try notifications.record(emailID: id) != nil || dedup.wasNotified(emailID: id)
                inView.append(Stopwatch.now() - t)
                if seen { found += 1 }
            }
        }
        let coordinator = NotificationCoordinator(store: store)
        var ownTxn: [UInt64] = []
        for _ in 0..<10_000 {
            let id = "e\(Int.random(in: 0..<(2 * n), using: &rng))"
            let t = Stopwatch.now()
            _ = try coordinator.decision(emailID: id)
            ownTxn.append(Stopwatch.now() - t)
        }

        // The watch's per-email path: new emails in the views, then one didSyncNewEmails per email.
        let m = 2_000
        print("decide + commit \(m) new emails one at a time…")
        batch = []
        for i in 0..<m {
            let p = EmailReceived(emailID: "new\(i)", folder: "INBOX", messageID: "new\(i)@bench", subject: "New \(i)",
                                  from: [EmailAddress(name: "Sender \(i)", email: "s\(i)@example.org")], date: now, dateSource: .received,
                                  snippet: "Hello there", size: 100, blob: BlobHash(bytes: [UInt8](repeating: 3, count: 32))!)
            batch.append(NewEvent(event: .emailReceived(p), account: "bench", stream: .email("new\(i)"), actor: .sync))
        }
        try store.log.append(batch)
        try views.catchUp()
        var whole: [UInt64] = []
        for i in 0..<m {
            let t = Stopwatch.now()
            _ = try coordinator.didSyncNewEmails(account: "bench", emailIDs: ["new\(i)"], sync: sync)
            whole.append(Stopwatch.now() - t)
        }
        try? FileManager.default.removeItem(atPath: path)

        func row(_ what: String, _ s: [UInt64]) -> String {
            "| \(what) | \(Fmt.int(Double(s.count))) | \(Fmt.f(Stopwatch.percentile(s, 50))) | \(Fmt.f(Stopwatch.percentile(s, 99))) | \(Fmt.f(Stopwatch.percentile(s, 99.9))) |"
        }
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
        return """
        ## Notifications

        `swift run -c release bench notifications [--messages N]` — the notification decision (`NotificationDecider`,
        pure: content, filter pipeline with 100 VIPs, 1,000 muted threads, quiet hours and a category off; recency;
        the per-sync cap) and the dedup lookup over a notifications view of \(Fmt.int(Double(n))) decisions (half
        delivered, so also in the dedup view's FIFO). Aims (spec): decision per email p99 <= 1 ms, dedup lookup
        <= 10 µs. Times in µs.

        | what | samples | p50 | p99 | p99.9 |
        |---|---:|---:|---:|---:|
        \(row("decision, one email per call (pure)", single))
        \(row("decision, 15 emails per call (pure; the flood case)", batches))
        \(row("dedup lookup: decided or delivered? (one snapshot, LMDB)", inView))
        \(row("dedup lookup with its own read transaction (`coordinator.decision`)", ownTxn))
        \(row("whole per-email path: views read + decide + commit `NotificationDecided` (log without fsync)", whole))

        \(posted) of \(Fmt.int(Double(n))) single decisions posted; \(found) of \(Fmt.int(Double(lookups))) lookups hit. Folding the
        \(Fmt.int(Double(n))) decisions (and \(Fmt.int(Double(n / 2))) deliveries) into every view from scratch: \(Fmt.f(foldTime)) s.
        Not measured here: new mail on the server to the notify command (IDLE, then one Inbox sync, then this path):
        `Tests/SyncTests/NotificationSyncTests` exercises it against Dovecot but has no timed assertion.
        Load average at the end (1, 5, 15 min): \(load) on \(ProcessInfo.processInfo.activeProcessorCount) cores.

        \(Report.machine(workDir: options.work))
        """
    }
}
