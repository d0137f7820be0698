import EventModel
import Foundation
import LMDB
import MailStore
import Views

/// The compose suite: draft save latency (a durable `DraftSaved` and updated views) and recipient
/// autocomplete latency over 50,000 contacts.
struct ComposeBench {
    let options: BenchOptions

    func run() throws -> String {
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: options.work) }
        let path = options.work + "/compose"
        try? FileManager.default.removeItem(atPath: path)
        let contacts = 50_000
        print("building a mailbox naming \(contacts) contacts…")
        do {
            var o = Environment.Options()
            o.noSync = true
            let store = try MailStore.create(at: path, logOptions: o)
            var rng = RealisticEvents(seed: 11)
            var batch: [NewEvent] = []
            for i in 0..<contacts {
                let from = EmailAddress(name: "\(rng.sentence(1).capitalized) \(rng.sentence(1).capitalized)", email: "person\(i)@example\(i % 97).org")
                let p = EmailReceived(emailID: "c\(i)", folder: "INBOX", messageID: "c\(i)@bench", subject: "Hello", from: [from],
                                      to: [EmailAddress(name: "Me", email: "me@example.com")],
                                      date: Timestamp(microseconds: 1_600_000_000_000_000 + Int64(i) * 1_000_000), dateSource: .header,
                                      size: 100, blob: BlobHash(bytes: [UInt8](repeating: 3, count: 32))!)
                batch.append(NewEvent(event: .emailReceived(p), account: "bench", stream: .email("c\(i)"), actor: .sync))
                if batch.count == 10_000 {
                    try store.log.append(batch)
                    batch.removeAll()
                }
            }
            try store.log.append(batch)
            try store.log.append(NewEvent(event: .accountAdded(AccountAdded(
                name: "bench", email: "me@example.com", provider: "custom", imapHost: "imap.example.com", imapPort: 993,
                imapSecurity: "tls", auth: "plain", username: "me@example.com", credentialSource: "env:BENCH")), account: "bench",
                stream: .account("bench"), actor: .user))
            try store.log.environment.sync()
            _ = try store.openViews()
        }
        let store = try MailStore.open(at: path)
        let views = try store.openViews()
        print("1,000 draft saves…")
        let drafts = DraftsUseCase(store: store)
        var saves: [UInt64] = []
        var draftID = ""
        for i in 0..<1000 {
            let t = Stopwatch.now()
            if i == 0 {
                draftID = try drafts.create(account: "bench", DraftInput(to: "person1@example1.org", subject: "Draft", body: "Version 0")).draft.draftID
            } else {
                _ = try drafts.edit(draftID, DraftInput(body: "Version \(i): " + String(repeating: "text ", count: 40)))
            }
            saves.append(Stopwatch.now() - t)
        }
        print("1,000 completions per prefix length…")
        var rng = RealisticEvents(seed: 5)
        // Up to 6 characters read a best-contacts list; 7 scans the prefix index.
        var completions: [Int: [UInt64]] = [:]
        var hits = 0
        for length in [1, 3, 5, 7] {
            for _ in 0..<1000 {
                let prefix = String(rng.sentence(1).prefix(length))
                let t = Stopwatch.now()
                hits += try views.completeContacts(account: "bench", prefix: prefix).count
                completions[length, default: []].append(Stopwatch.now() - t)
            }
        }
        // The worst case of the scan: `person1` starts the address of 11,111 contacts (one index entry each).
        var wide: [UInt64] = []
        for _ in 0..<200 {
            let t = Stopwatch.now()
            let found = try views.completeContacts(account: "bench", prefix: "person1").count
            wide.append(Stopwatch.now() - t)
            guard found == 10 else { throw NSError(domain: "bench", code: 7, userInfo: [NSLocalizedDescriptionKey: "compose: person1 completed to \(found) contacts, not 10"]) }
        }
        let f = { (s: [UInt64], p: Double) in Fmt.f(Stopwatch.percentile(s, p) / 1e3, 3) }
        return """
        ## Compose

        `swift build -c release && .build/release/bench compose` — in-process: `DraftsUseCase` saving one draft 1,000 times (each save a durable `DraftSaved` with fsync, folded into the views before it returns), and `ViewStore.completeContacts` over \(Fmt.int(Double(contacts))) contacts with 1-, 3-, 5- and 7-letter prefixes of name words, 1,000 of each (\(hits / 4000) results per query on average, up to 10), and the prefix that matches the most contacts.
        \(Report.machine(workDir: options.work))

        | run | p50 | p99 |
        |---|---:|---:|
        | draft save | \(f(saves, 50)) ms | \(f(saves, 99)) ms |
        | autocomplete, 1 letter | \(f(completions[1]!, 50)) ms | \(f(completions[1]!, 99)) ms |
        | autocomplete, 3 letters | \(f(completions[3]!, 50)) ms | \(f(completions[3]!, 99)) ms |
        | autocomplete, 5 letters | \(f(completions[5]!, 50)) ms | \(f(completions[5]!, 99)) ms |
        | autocomplete, 7 letters (index scan) | \(f(completions[7]!, 50)) ms | \(f(completions[7]!, 99)) ms |
        | autocomplete, `person1` (index scan of 11,111 entries; 200 queries) | \(f(wide, 50)) ms | \(f(wide, 99)) ms |

        Aims: draft save within the spec's 200 ms; autocomplete within the spec's 100 ms, aim <= 1 ms.
        """
    }
}
