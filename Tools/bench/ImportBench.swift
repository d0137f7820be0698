import Foundation

/// The import suite: `mailstore import --maildir` on a generated Maildir beside `notmuch new` on the same
/// Maildir, with wall time, rates and peak memory.
struct ImportBench {
    let options: BenchOptions

    func run() throws -> String {
        let n = options.messages
        let (mailstore, gen) = try BenchOptions.mailstoreAndGenerator()
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: options.work) }

        func corpus(_ count: Int) throws -> (String, Int) {
            let dir = options.work + "/Maildir-\(count)"
            if !FileManager.default.fileExists(atPath: dir) {
                print("generating \(count) messages…")
                let g = try ChildRun.run(gen, ["--messages", "\(count)", "--out", dir, "--seed", "1", "--quiet"])
                guard g.status == 0 else { throw NSError(domain: "bench", code: 2, userInfo: [NSLocalizedDescriptionKey: "gen-corpus failed"]) }
                // The corpus on disk before the import is timed, not written back beside it.
                sync()
            }
            return (dir, ImportBench.bytes(under: dir))
        }

        func importRun(_ dir: String) throws -> ChildRun.Result {
            let store = options.work + "/store"
            try? FileManager.default.removeItem(atPath: store)
            _ = try ChildRun.run(mailstore, ["init", "--store", store])
            let r = try ChildRun.run(mailstore, ["import", "--maildir", dir, "--store", store, "--quiet"])
            guard r.status == 0 else { throw NSError(domain: "bench", code: 3, userInfo: [NSLocalizedDescriptionKey: "import failed"]) }
            return r
        }

        let (dir, bytes) = try corpus(n)
        print("mailstore import…")
        let ms = try importRun(dir)
        print("mailstore import again (nothing new)…")
        let store = options.work + "/store"
        let again = try ChildRun.run(mailstore, ["import", "--maildir", dir, "--store", store, "--quiet"])
        let generatedSize = try storeSize(mailstore, store: store, rawBytes: bytes)
        let realSize = try realMailSize(mailstore)

        var notmuchRow = "| `notmuch new` (Debian's notmuch, not installed here) | | | | |"
        var ratio = "n/a"
        if let notmuch = ChildRun.which("notmuch") {
            print("notmuch new…")
            let cfg = options.work + "/notmuch-config"
            try """
            [database]
            path=\(dir)
            [user]
            name=Bench
            primary_email=bench@example.com
            [new]
            tags=unread;inbox;
            [maildir]
            synchronize_flags=true
            """.write(toFile: cfg, atomically: true, encoding: .utf8)
            try? FileManager.default.removeItem(atPath: dir + "/.notmuch")
            let nm = try ChildRun.run(notmuch, ["--config=\(cfg)", "new", "--quiet"], environment: ["NOTMUCH_CONFIG": cfg])
            try? FileManager.default.removeItem(atPath: dir + "/.notmuch")
            let version = Report.run(notmuch, ["--version"]).trimmingCharacters(in: .whitespacesAndNewlines)
            notmuchRow = "| `notmuch new` (\(version), status \(nm.status)) | \(Fmt.int(Double(n) / nm.seconds)) msg/s | \(Fmt.f(Double(bytes) / nm.seconds / 1e6, 1)) MB/s | \(Fmt.f(nm.seconds, 1)) s | \(nm.maxRSSKiB / 1024) MiB |"
            ratio = Fmt.f(nm.seconds / ms.seconds, 1) + "x"
        }
        // Memory stays bounded whatever the mailbox size: a 5x smaller import for comparison.
        let small = max(1000, n / 5)
        let (smallDir, _) = try corpus(small)
        print("mailstore import of \(small)…")
        let msSmall = try importRun(smallDir)

        return """
        ## Import

        `swift run -c release bench import --messages \(n)` — a generated Maildir (`Tools/gen-corpus --seed 1`): \(Fmt.int(Double(n))) messages, \(Fmt.f(Double(bytes) / 1e6, 1)) MB, with folders, flags, threads, multipart and attachments, non-UTF-8 charsets and encoded words; flushed to disk (`sync`) before it is imported.
        \(Report.machine(workDir: options.work))

        | run | messages/s | MB/s | wall | peak RSS (of it anonymous) |
        |---|---:|---:|---:|---:|
        | `mailstore import --maildir` (parse, SHA-256, zstd blobs, log synced at the end) | \(Fmt.int(Double(n) / ms.seconds)) msg/s | \(Fmt.f(Double(bytes) / ms.seconds / 1e6, 1)) MB/s | \(Fmt.f(ms.seconds, 1)) s | \(ms.maxRSSKiB / 1024) MiB (\(ms.maxAnonKiB / 1024) MiB) |
        \(notmuchRow)
        | `mailstore import` again (all already present) | \(Fmt.int(Double(n) / again.seconds)) msg/s | | \(Fmt.f(again.seconds, 1)) s | \(again.maxRSSKiB / 1024) MiB (\(again.maxAnonKiB / 1024) MiB) |
        | `mailstore import` of \(Fmt.int(Double(small))) messages (memory comparison) | \(Fmt.int(Double(small) / msSmall.seconds)) msg/s | | \(Fmt.f(msSmall.seconds, 1)) s | \(msSmall.maxRSSKiB / 1024) MiB (\(msSmall.maxAnonKiB / 1024) MiB) |

        Store size against the raw mail (blobs: the compressed messages, with the account's zstd dictionary once
        trained on a sample of the first chunk, dictionary bytes included; log file: everything, events and indexes
        too, as LMDB's pages in use):

        | corpus | raw mail | blobs stored | log file used | aim |
        |---|---:|---:|---:|---|
        \(realSize)
        | generated, \(Fmt.int(Double(n))) messages | \(generatedSize) | |

        mailstore is \(ratio) as fast as notmuch here (aims: >= 20,000 messages/s, >= 10x notmuch, peak RSS <= 200 MB).
        Peak RSS counts the log's pages that LMDB's map has in the process: file-backed page cache, mapped as the
        append reads its indexes (one page per fault where the kernel allows turning its fault-around off, else up to
        64 KB around each); the importer unmaps them whenever they pass the 64 MiB budget, every 64 puts.
        The anonymous part (heap) is the process's own memory; it grows slowly with the number of files listed.
        The two do different work: notmuch also builds a full-text (Xapian) index of every message, which mailstore
        does not; mailstore keeps every raw message compressed in its blob store and hash-chains every event.
        """
    }

    /// One row's size cells for `store`: raw bytes, blob bytes stored (with dictionaries), log file used.
    func storeSize(_ mailstore: String, store: String, rawBytes: Int) throws -> String {
        let out = Report.run(mailstore, ["stats", "--json", "--store", store])
        guard let data = out.data(using: .utf8),
              let j = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw NSError(domain: "bench", code: 4, userInfo: [NSLocalizedDescriptionKey: "mailstore stats failed"])
        }
        let stored = (j["blobStoredBytes"] as? Int ?? 0) + (j["dictionaryBytes"] as? Int ?? 0)
        let file = j["fileBytes"] as? Int ?? 0
        func pct(_ v: Int) -> String { "\(Fmt.f(Double(v) / 1e6, 2)) MB (\(Fmt.f(100 * Double(v) / Double(max(1, rawBytes)), 1))%)" }
        return "\(Fmt.f(Double(rawBytes) / 1e6, 2)) MB | \(pct(stored)) | \(pct(file))"
    }

    /// The size rows of the real mail corpus (every `*.mbox` under `options.corpus`, imported into one store).
    func realMailSize(_ mailstore: String) throws -> String {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: options.corpus)) ?? []).filter { $0.hasSuffix(".mbox") }.sorted()
        guard !files.isEmpty else { return "| real mail (`\(options.corpus)`: not found) | | | | <= 40% |" }
        let store = options.work + "/store-real"
        try? FileManager.default.removeItem(atPath: store)
        _ = try ChildRun.run(mailstore, ["init", "--store", store])
        var raw = 0
        for f in files {
            let path = options.corpus + "/" + f
            let r = try ChildRun.run(mailstore, ["import", "--mbox", path, "--store", store, "--quiet"])
            guard r.status == 0 else { throw NSError(domain: "bench", code: 3, userInfo: [NSLocalizedDescriptionKey: "import of \(path) failed"]) }
            raw += ImportBench.size(of: path)
        }
        return "| real mail: `\(options.corpus)` (\(files.count) mbox) | \(try storeSize(mailstore, store: store, rawBytes: raw)) | <= 40% |"
    }

    static func size(of file: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int) ?? 0
    }

    static func bytes(under dir: String) -> Int {
        var total = 0
        if let e = FileManager.default.enumerator(atPath: dir) {
            for case let f as String in e {
                if let a = try? FileManager.default.attributesOfItem(atPath: dir + "/" + f), (a[.type] as? FileAttributeType) == .typeRegular {
                    total += (a[.size] as? Int) ?? 0
                }
            }
        }
        return total
    }
}
