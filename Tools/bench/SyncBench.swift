import Foundation
import IMAPClient
import IMAPProtocol
import SecureTransport

/// The sync suite: a throwaway IMAP server on loopback (Tools/test-server/dovecot, or courier or cyrus with
/// `--server`) filled by APPEND with a generated corpus spread over 10 folders; `mailstore sync` beside `mbsync` (Debian's isync) pulling the same
/// mailbox to a Maildir over the same TLS listener (as `localhost`: mbsync checks the name against the certificate), then both again with nothing changed.
struct SyncBench {
    let options: BenchOptions
    static let folders = ["INBOX"] + (1...9).map { "Folder\($0)" }
    /// The server's name: Courier keeps personal folders under "INBOX.".
    var folders: [String] { options.server == "courier" ? SyncBench.folders.map { $0 == "INBOX" ? $0 : "INBOX." + $0 } : SyncBench.folders }
    /// The server as the report names it.
    var serverName: String { ["dovecot": "Dovecot", "courier": "Courier-IMAP", "cyrus": "Cyrus IMAP"][options.server] ?? options.server }

    func run() throws -> String {
        let n = options.messagesGiven ? options.messages : 10_000
        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
        let mailstore = bin + "/mailstore", gen = bin + "/gen-corpus"
        guard ["dovecot", "courier", "cyrus"].contains(options.server) else {
            throw SyncBench.failure("--server must be dovecot, courier or cyrus, not \(options.server)")
        }
        let script = FileManager.default.currentDirectoryPath + "/Tools/test-server/" + options.server
        for exe in [mailstore, gen, script] where !FileManager.default.isExecutableFile(atPath: exe) {
            throw SyncBench.failure("\(exe) missing: run from the repository root after swift build -c release")
        }
        try? FileManager.default.removeItem(atPath: options.work)
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: options.work) }
        let serverDir = "/tmp/mailstore-bench-\(options.server)-\(getpid())"
        try FileManager.default.createDirectory(atPath: serverDir, withIntermediateDirectories: true)
        chmod(serverDir, 0o755)
        // Through posix_spawn with output to /dev/null: the server's daemons must not hold a pipe of ours.
        guard try ChildRun.run(script, ["start", serverDir]).status == 0 else {
            throw SyncBench.failure("\(serverName) did not start; see \(serverDir)")
        }
        defer {
            _ = try? ChildRun.run(script, ["stop", serverDir])
            try? FileManager.default.removeItem(atPath: serverDir)
        }
        let env = try SyncBench.readEnv(serverDir + "/env")
        guard let host = env["IMAP_HOST"], let port = env["IMAPS_PORT"].flatMap(UInt16.init), let ca = env["CA_FILE"],
              let user = env["IMAP_USER"], let pwFile = env["IMAP_PASSWORD_FILE"] else {
            throw SyncBench.failure("incomplete \(serverDir)/env")
        }

        print("generating \(n) messages…")
        let corpus = options.work + "/corpus"
        guard try ChildRun.run(gen, ["--messages", "\(n)", "--out", corpus, "--seed", "1", "--quiet"]).status == 0 else {
            throw SyncBench.failure("gen-corpus failed")
        }
        print("filling the server by APPEND…")
        let bytes = try fill(corpus: corpus, host: host, port: port, ca: ca, user: user, password: try String(contentsOfFile: pwFile, encoding: .utf8))

        print("mailstore sync…")
        let store = options.work + "/store"
        _ = try ChildRun.run(mailstore, ["init", "--store", store])
        _ = try ChildRun.run(mailstore, ["account", "add", "bench", "--store", store, "--email", user, "--host", host,
                                         "--port", "\(port)", "--security", "tls", "--password-file", pwFile, "--ca-file", ca])
        let first = try ChildRun.run(mailstore, ["sync", "--store", store, "--quiet"])
        guard first.status == 0 else { throw SyncBench.failure("mailstore sync failed (status \(first.status))") }
        var resync: [Double] = []
        for _ in 0..<7 {
            let r = try ChildRun.run(mailstore, ["sync", "--store", store, "--quiet"])
            guard r.status == 0 else { throw SyncBench.failure("mailstore resync failed") }
            resync.append(r.seconds)
        }
        resync.sort()

        var mbsyncRows = "| `mbsync` (Debian's isync, not installed here) | | | |"
        var ratio = "n/a"
        if let mbsync = ChildRun.which("mbsync") {
            print("mbsync…")
            let maildir = options.work + "/mbsync-maildir/"
            try FileManager.default.createDirectory(atPath: maildir, withIntermediateDirectories: true)
            let cfg = options.work + "/mbsyncrc"
            try """
            IMAPAccount bench
            Host localhost
            Port \(port)
            User \(user)
            PassCmd "cat \(pwFile)"
            SSLType IMAPS
            CertificateFile \(ca)

            IMAPStore remote
            Account bench

            MaildirStore local
            Path \(maildir)
            Inbox \(maildir)INBOX
            SubFolders Verbatim

            Channel bench
            Far :remote:
            Near :local:
            Patterns *
            Create Near
            Sync Pull
            SyncState *
            """.write(toFile: cfg, atomically: true, encoding: .utf8)
            let m = try ChildRun.run(mbsync, ["-q", "-c", cfg, "-a"])
            guard m.status == 0 else { throw SyncBench.failure("mbsync failed (status \(m.status)); try mbsync -c \(cfg) -a") }
            var again: [Double] = []
            for _ in 0..<7 { again.append(try ChildRun.run(mbsync, ["-q", "-c", cfg, "-a"]).seconds) }
            again.sort()
            let version = Report.run(mbsync, ["--version"]).trimmingCharacters(in: .whitespacesAndNewlines)
            mbsyncRows = """
            | `mbsync -a` (\(version), status \(m.status)) to a Maildir | \(Fmt.int(Double(n) / m.seconds)) msg/s | \(Fmt.f(m.seconds, 2)) s | \(m.maxRSSKiB / 1024) MiB |
            | `mbsync -a` again, nothing changed (median of 7) | | \(Fmt.f(again[3] * 1000, 0)) ms | |
            """
            ratio = Fmt.f(m.seconds / first.seconds, 1) + "x"
        }
        return """
        ## Sync\(options.server == "dovecot" ? "" : " (\(serverName))")

        `swift build -c release && .build/release/bench sync [--messages \(n)]\(options.server == "dovecot" ? "" : " --server " + options.server)` — a throwaway \(serverName) (`Tools/test-server/\(options.server)`, \(version)) on loopback, TLS with certificate verification, filled by APPEND with a generated corpus (`gen-corpus --seed 1`): \(Fmt.int(Double(n))) messages, \(Fmt.f(Double(bytes) / 1e6, 1)) MB, in \(SyncBench.folders.count) folders.
        \(Report.machine(workDir: options.work))

        | run | messages/s | wall | peak RSS |
        |---|---:|---:|---:|
        | `mailstore sync`, first sync (BODY.PEEK[] newest first, parse, blobs, views folded per batch, log fsynced per batch) | \(Fmt.int(Double(n) / first.seconds)) msg/s | \(Fmt.f(first.seconds, 2)) s | \(first.maxRSSKiB / 1024) MiB |
        | `mailstore sync` again, \(SyncBench.folders.count) unchanged folders (median of 7; min \(Fmt.f(resync[0] * 1000, 0)) ms) | | \(Fmt.f(resync[3] * 1000, 0)) ms | |
        \(mbsyncRows)

        mailstore's first sync is \(ratio) as fast as mbsync's here (aim >= 2x); the resync of \(SyncBench.folders.count) unchanged folders is a whole process run (start, open the store and views, TLS handshake, login, LIST, \(resyncWork), logout) (aim <= 100 ms against a server with CONDSTORE).
        mbsync writes each message to a file; mailstore also parses it, threads it, compresses it into the blob store and folds the views.
        """
    }

    /// What the resync does per folder: one EXAMINE with CONDSTORE; without it (Courier) every message's
    /// flags and a UID SEARCH as well (docs/interop.md).
    var resyncWork: String {
        options.server == "courier" ? "per folder EXAMINE, every message's flags and UID SEARCH ALL (no CONDSTORE)" : "one EXAMINE per folder"
    }

    /// The server's version, as its package or binary gives it.
    var version: String {
        switch options.server {
        case "dovecot": return String(Report.run("/usr/sbin/dovecot", ["--version"]).split(separator: " ").first ?? "?")
        case "courier": return "courier-imap " + ((try? String(contentsOfFile: "/opt/mailstore-test/courier-imap/.version", encoding: .utf8)) ?? "?")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        default: return "cyrus-imapd " + ((try? String(contentsOfFile: "/opt/mailstore-test/cyrus-imapd/.version", encoding: .utf8)) ?? "?")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// APPENDs the corpus (files in any order) round-robin into the folders; returns the bytes sent.
    func fill(corpus: String, host: String, port: UInt16, ca: String, user: String, password: String) throws -> Int {
        let c = try IMAPConnection.connect(ServerEndpoint(host: host, port: port, security: .tls, caFile: ca))
        defer { c.logout() }
        try c.authenticate(username: user, credential: .password(password), mechanism: .plain)
        for f in folders where f != "INBOX" { try c.create(MailboxName(f)) }
        var files: [String] = []
        if let e = FileManager.default.enumerator(atPath: corpus) {
            for case let f as String in e where f.contains("/cur/") || f.contains("/new/") || f.hasPrefix("cur/") || f.hasPrefix("new/") {
                files.append(corpus + "/" + f)
            }
        }
        files.sort()
        var total = 0
        for (i, path) in files.enumerated() {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            total += data.count
            _ = try c.append(to: MailboxName(folders[i % folders.count]), message: Array(data),
                             flags: i % 3 == 0 ? ["\\Seen"] : [])
        }
        return total
    }

    static func readEnv(_ path: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { out[String(parts[0])] = String(parts[1]).trimmingCharacters(in: CharacterSet(charactersIn: "\"'")) }
        }
        return out
    }

    static func failure(_ message: String) -> NSError {
        NSError(domain: "bench", code: 1, userInfo: [NSLocalizedDescriptionKey: message])
    }
}
